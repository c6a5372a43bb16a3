"""The lexicon: typed vocabularies, their import and export, frequencies and word-list tools."""
