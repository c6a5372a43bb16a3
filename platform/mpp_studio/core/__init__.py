"""Shared building blocks of the platform: the base model, the health check, the page layout."""
