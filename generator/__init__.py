"""The template engine: grammar templates plus a vocabulary become reproducible minimal pairs."""

GENERATOR_VERSION = "1.0"
