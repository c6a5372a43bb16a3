"""Paradigms: the grammar templates (YAML) that generate minimal pairs, and the library import."""
