"""Dataset exports, each streamed from the database a chunk at a time: JSONL, CSV, the ZhoBLiMP
and BLiMP JSONL layouts, and a Hugging Face `datasets` folder (Parquet files with a dataset card)
in a zip. Each record's layout comes from the engine (`formats`)."""

from mpp_studio.datasets.exports.blimp import blimp_jsonl_lines
from mpp_studio.datasets.exports.hf import hf_zip
from mpp_studio.datasets.exports.records import jsonl_lines
from mpp_studio.datasets.exports.table import CSV_COLUMNS, csv_lines
from mpp_studio.datasets.exports.zhoblimp import zhoblimp_jsonl_lines

EXPORT_FORMATS = ("jsonl", "csv", "hf", "zhoblimp", "blimp")

__all__ = [
    "CSV_COLUMNS",
    "EXPORT_FORMATS",
    "blimp_jsonl_lines",
    "csv_lines",
    "hf_zip",
    "jsonl_lines",
    "zhoblimp_jsonl_lines",
]
