"""Importers that turn other benchmarks' source files into MPP Studio templates and vocabularies."""
