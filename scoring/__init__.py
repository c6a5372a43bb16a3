"""Language-model scorers and metrics (later issue); importing it never imports torch."""
