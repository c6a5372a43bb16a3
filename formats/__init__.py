"""Released minimal-pair datasets in and out: BLiMP, ZhoBLiMP and Zorro readers that report every
problem by file and line, and BLiMP JSONL, ZhoBLiMP JSONL, CSV and Hugging Face Parquet writers.
`docs/formats.md` describes the formats and the import rules."""
