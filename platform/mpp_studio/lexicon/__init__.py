"""Vocabularies: the word lists (CSV/TSV plus an optional feature schema) that templates draw on."""
