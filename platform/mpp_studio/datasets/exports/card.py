"""The dataset card (README.md with YAML front matter) and dataset_info.json of the Hugging Face export.

Both list every paradigm with the exact versions it came from: template version number and
hash, vocabulary name and hash, seed, requested and produced counts, and the generator version;
and the pairs a person excluded (left out of the files), each with the reason.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import yaml

from formats.record import record_pair_id
from formats.uid_files import uid_file_stem
from mpp_studio.datasets.models import Dataset, DatasetParadigm
from mpp_studio.datasets.selectors_curation import excluded_counts, excluded_reviews, review_counts
from mpp_studio.datasets.validation_summary import ValidationSummary, read_validation

DATA_FOLDER = "data"
# The card lists this many excluded pairs and says how many more there are.
LISTED_EXCLUSIONS = 200
SPLIT = "train"
ALL_CONFIG = "all"


@dataclass(frozen=True, slots=True)
class ParadigmFile:
    """A paradigm of the export and the Parquet file holding its pairs ("" when it has none)."""

    paradigm: DatasetParadigm
    path: str


def paradigm_file_path(paradigm: DatasetParadigm) -> str:
    """Return the path, inside the export folder, of a paradigm's Parquet file (an imported UID's
    characters other than letters, digits, `._-` replaced)."""
    return f"{DATA_FOLDER}/{uid_file_stem(paradigm.uid)}.parquet"


def _size_category(count: int) -> str:
    for bound, label in (
        (1_000, "n<1K"),
        (10_000, "1K<n<10K"),
        (100_000, "10K<n<100K"),
        (1_000_000, "100K<n<1M"),
    ):
        if count < bound:
            return label
    return "1M<n<10M"


def _paradigm_facts(paradigm: DatasetParadigm) -> dict[str, object]:
    snapshot = paradigm.vocabulary_snapshot
    return {
        "uid": paradigm.uid,
        "phenomenon": paradigm.phenomenon,
        "language": paradigm.language,
        "template_version": paradigm.template_version.number if paradigm.template_version else None,
        "template_hash": paradigm.template_hash,
        "vocabulary": snapshot.name if snapshot else "",
        "vocabulary_hash": snapshot.content_hash if snapshot else "",
        "seed": paradigm.dataset.seed,
        "requested": paradigm.requested,
        "produced": paradigm.produced,
        "status": paradigm.status,
        "generator_version": paradigm.generator_version,
        "problems": [str(p.get("message", "")) for p in paradigm.problems if isinstance(p, dict)],
    }


def _cell(value: object) -> str:
    """Return a value for a Markdown table cell (pipes escaped, one line)."""
    return " ".join(str(value).split()).replace("|", "\\|")


def dataset_card(dataset: Dataset, files: Sequence[ParadigmFile]) -> str:
    """Return README.md: YAML front matter (configs per paradigm and for all) and a description."""
    with_data = [f for f in files if f.path]
    total = exported_total(dataset, files)
    languages = sorted({f.paradigm.language for f in files if f.paradigm.language})
    configs: list[dict[str, object]] = []
    if with_data:
        configs.append(
            {
                "config_name": ALL_CONFIG,
                "data_files": [{"split": SPLIT, "path": f"{DATA_FOLDER}/*.parquet"}],
                "default": True,
            }
        )
        configs += [
            {"config_name": f.paradigm.uid, "data_files": [{"split": SPLIT, "path": f.path}]}
            for f in with_data
        ]
    front: dict[str, object] = {"pretty_name": dataset.name}
    if languages:
        front["language"] = languages
    front["tags"] = ["minimal-pairs", "linguistics", "mpp-studio"]
    front["size_categories"] = [_size_category(total)]
    if configs:
        front["configs"] = configs
    front_text = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1000)

    unique = dataset.get_unique_display() if dataset.unique else "each template's own setting"
    lines = [
        "---",
        front_text.rstrip("\n"),
        "---",
        "",
        f"# {dataset.name}",
        "",
    ]
    if dataset.description:
        lines += [dataset.description.strip(), ""]
    if dataset.is_imported:
        lines += _imported_section(dataset, files, total)
    else:
        lines += _generated_section(dataset, files, total, unique)
    failed = [f.paradigm for f in files if f.paradigm.status == DatasetParadigm.Status.FAILED]
    if failed:
        lines += ["", "### Paradigms that did not finish", ""]
        for paradigm in failed:
            messages = [str(p.get("message", "")) for p in paradigm.problems if isinstance(p, dict)]
            reasons = "; ".join(messages) or "no reason recorded"
            counts = f"{paradigm.produced:,} of {paradigm.requested:,} pairs"
            lines.append(f"- `{paradigm.uid}` ({counts}): {_cell(reasons)}")
    lines += curation_section(dataset)
    lines += validation_section(dataset.validation)
    lines += [
        "",
        "## Loading",
        "",
        "```python",
        "from datasets import load_dataset",
        "",
        'pairs = load_dataset("path/to/this/folder")  # every paradigm (config "all")',
    ]
    if with_data:
        lines.append(
            f'one = load_dataset("path/to/this/folder", "{with_data[0].paradigm.uid}")  # one paradigm'
        )
    lines += [
        "```",
        "",
        "## Fields",
        "",
        "- `sentence_good`, `sentence_bad`: the grammatical and the ungrammatical sentence.",
        "- `UID`, `phenomenon`, `language`: the paradigm; `pairID`: the pair's number in it (from 0).",
        "- `pair_id` (CSV and Parquet): `UID/pairID`, the id every MPP Studio export and page gives the "
        "pair (scores, study analyses), unique within the dataset.",
        "- `item_id`: a stable id of the pair (a hash of template version, vocabulary version, seed "
        "and number).",
        "- `words_good`, `words_bad`: the sentences as words.",
        "- `critical_region`: where the sentences differ, per edit: its `type` and, for each "
        "sentence, the word span (`tokens`), the character span (`chars`, end exclusive) and the "
        "template positions.",
        "- `provenance`: JSON text with the template and its version hash, the vocabulary and its "
        "version hash, the seed, the generator version, the phrase structure and the vocabulary "
        "item that filled each position. For an imported pair: the source format, file and line "
        "it was read from, and the source's other fields (BLiMP's `field`, prefix fields, ...).",
        "",
    ]
    return "\n".join(lines)


def _generated_section(dataset: Dataset, files: Sequence[ParadigmFile], total: int, unique: str) -> list[str]:
    """The card's account of a generated dataset: counts, seed, and the versions per paradigm."""
    lines = [
        f"Minimal pairs generated by MPP Studio from project “{dataset.project.name}”: "
        f"{len(files)} paradigm{'s' if len(files) != 1 else ''}, {total:,} pairs, "
        f"seed {dataset.seed}, {dataset.pairs_per_paradigm:,} pairs asked for per paradigm, "
        f"uniqueness: {unique}. Created {dataset.created_at:%Y-%m-%d %H:%M} UTC."
        + (
            " Only counterbalanced words were used: the items a frequency balance dropped "
            "(vocabulary column `balanced` = 0) were left out."
            if dataset.balanced_words_only
            else ""
        ),
        "",
        "## Paradigms",
        "",
        "Each paradigm was generated from the exact template version and vocabulary snapshot "
        "listed here; the same versions and seed give the same pairs.",
        "",
        "| UID | Phenomenon | Language | Template version | Template hash | Vocabulary | "
        "Vocabulary hash | Seed | Requested | Produced | Status | Generator |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for f in files:
        facts = _paradigm_facts(f.paradigm)
        lines.append(
            "| "
            + " | ".join(
                _cell(v)
                for v in (
                    facts["uid"],
                    facts["phenomenon"],
                    facts["language"],
                    facts["template_version"],
                    facts["template_hash"],
                    facts["vocabulary"],
                    facts["vocabulary_hash"],
                    facts["seed"],
                    f"{f.paradigm.requested:,}",
                    f"{f.paradigm.produced:,}",
                    facts["status"],
                    facts["generator_version"],
                )
            )
            + " |"
        )
    return lines


def _imported_section(dataset: Dataset, files: Sequence[ParadigmFile], total: int) -> list[str]:
    """The card's account of an imported dataset: the files read and what the import skipped."""
    report = [i for i in dataset.import_report if isinstance(i, dict)]
    skipped = sum(1 for i in report if i.get("severity") == "error")
    lines = [
        f"Minimal pairs imported into MPP Studio (project “{dataset.project.name}”) from "
        f"{dataset.get_source_format_display() or 'released files'}: "
        f"{len(files)} paradigm{'s' if len(files) != 1 else ''}, {total:,} pairs. "
        f"Imported {dataset.created_at:%Y-%m-%d %H:%M} UTC; {skipped:,} item(s) could not be imported "
        f"and {len(report) - skipped:,} were imported with a note (the dataset page lists them).",
        "",
        "## Files read",
        "",
        "| File | Format | Pairs | Errors | Warnings |",
        "|---|---|---|---|---|",
    ]
    for read in dataset.source_files:
        if isinstance(read, dict):
            lines.append(
                "| "
                + " | ".join(
                    _cell(read.get(key, "")) for key in ("file", "format", "pairs", "errors", "warnings")
                )
                + " |"
            )
    lines += [
        "",
        "## Paradigms",
        "",
        "| UID | Phenomenon | Language | Pairs |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {_cell(f.paradigm.uid)} | {_cell(f.paradigm.phenomenon)} | {_cell(f.paradigm.language)} "
        f"| {f.paradigm.produced:,} |"
        for f in files
    ]
    return lines


def validation_section(validation: object) -> list[str]:
    """Return the card's "Human validation" section from `Dataset.validation` (empty when none;
    `validation_summary.read_validation` reads it, for the dataset page too)."""
    summary = read_validation(validation)
    if summary is None:
        return []
    if summary.rated:
        return _rating_section(summary)
    lines = [
        "",
        "## Human validation",
        "",
        f"Native speakers judged these pairs in the validation study “{_cell(summary.study)}” "
        f"(published {_cell(summary.date)}): "
        f"{summary.analysed} participants analysed, "
        f"{summary.excluded} excluded by the study's rules. Individual accuracy "
        f"{summary.individual_accuracy}, aggregate (majority-vote) accuracy "
        f"{summary.aggregate_accuracy}; a tie counts as {summary.tie}. "
        f"Inclusion rule ({_cell(summary.rule_text)}).",
        "",
        "| UID | Items | Responses | Micro accuracy | 95% Wilson interval | Majority accuracy | Included |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in summary.paradigms:
        cells = (
            row.uid,
            row.n_items,
            row.n_responses,
            row.micro,
            row.interval,
            row.majority,
            "yes" if row.included else "no (below the rule)",
        )
        lines.append("| " + " | ".join(_cell(v) for v in cells) + " |")
    return lines


def _rating_section(summary: ValidationSummary) -> list[str]:
    """Return the "Human validation" section of a rating study's summary."""
    lines = [
        "",
        "## Human validation",
        "",
        f"Native speakers rated these sentences one at a time on {_cell(summary.task_text)} in the "
        f"validation study “{_cell(summary.study)}” (published {_cell(summary.date)}), no participant "
        f"seeing both sentences of a pair: {summary.analysed} participants analysed, {summary.excluded} "
        "excluded by the study's rules. Ratings were z-scored per participant; each paradigm's value "
        "is the mean over its pairs of the good sentence's mean z minus the bad one's, with a 95% t "
        f"interval. Kept when {_cell(summary.rule_text)}.",
        "",
        "| UID | Items | Ratings | Good − bad (z) | 95% interval | p (Holm) "
        "| Good sentences (z) | Included |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in summary.rated_paradigms:
        cells = (
            row.uid,
            row.n_items,
            row.n_ratings,
            row.difference,
            row.interval,
            row.p_holm,
            row.good_mean_z + (" (odd)" if row.good_unnatural else ""),
            "yes" if row.included else "no (not reliable)",
        )
        lines.append("| " + " | ".join(_cell(v) for v in cells) + " |")
    return lines


def _features() -> dict[str, object]:
    """Return the Parquet columns as `datasets` Features (the JSON layout of datasets 4 and later)."""

    def value(dtype: str) -> dict[str, object]:
        return {"dtype": dtype, "_type": "Value"}

    def listed(feature: dict[str, object]) -> dict[str, object]:
        return {"feature": feature, "_type": "List"}

    side = {
        "tokens": listed(value("int64")),
        "chars": listed(value("int64")),
        "positions": listed(value("string")),
    }
    return {
        **{
            name: value("string") for name in ("sentence_good", "sentence_bad", "UID", "phenomenon", "pairID")
        },
        "pair_id": value("string"),
        "item_id": value("string"),
        "language": value("string"),
        "words_good": listed(value("string")),
        "words_bad": listed(value("string")),
        "critical_region": listed({"type": value("string"), "good": side, "bad": side, "source": side}),
        "provenance": value("string"),
    }


def dataset_info(dataset: Dataset, files: Sequence[ParadigmFile]) -> dict[str, object]:
    """Return dataset_info.json: the card's facts as data, with the features and split sizes."""
    total = exported_total(dataset, files)
    excluded = excluded_counts(dataset=dataset)
    return {
        "dataset_name": dataset.name,
        "description": dataset.description,
        "citation": "",
        "homepage": "",
        "features": _features(),
        "splits": {SPLIT: {"name": SPLIT, "num_examples": total}},
        "mpp_studio": {
            "project": dataset.project.name,
            "origin": dataset.origin,
            "source_format": dataset.source_format,
            "source_files": dataset.source_files,
            "seed": dataset.seed,
            "pairs_per_paradigm": dataset.pairs_per_paradigm,
            "unique": dataset.unique or "template",
            "balanced_words_only": dataset.balanced_words_only,
            "created_at": dataset.created_at.isoformat(),
            "paradigms": [
                {**_paradigm_facts(f.paradigm), "excluded": excluded.get(f.paradigm.pk, 0), "file": f.path}
                for f in files
            ],
            "validation": dataset.validation or None,
        },
    }


def exported_total(dataset: Dataset, files: Sequence[ParadigmFile]) -> int:
    """Return how many pairs the export holds: those stored, less those a person excluded."""
    return sum(f.paradigm.produced for f in files) - sum(excluded_counts(dataset=dataset).values())


def curation_section(dataset: Dataset) -> list[str]:
    """The card's list of the pairs a person excluded, with their reasons (none: no section)."""
    counts = review_counts(dataset=dataset)
    excluded = counts["excluded"]
    if not excluded and not counts["flagged"]:
        return []
    lines = ["", "## Curation", ""]
    if counts["flagged"]:
        lines.append(
            f"{counts['flagged']:,} pair{'s are' if counts['flagged'] != 1 else ' is'} flagged to be looked "
            "at again (and kept in the files)."
        )
    if excluded:
        lines += [
            f"{excluded:,} pair{'s were' if excluded != 1 else ' was'} excluded by hand and "
            f"{'are' if excluded != 1 else 'is'} not in the files:",
            "",
            "| Paradigm | pairID | Good | Bad | Reason |",
            "|---|---|---|---|---|",
        ]
        for review in excluded_reviews(dataset=dataset)[:LISTED_EXCLUSIONS]:
            pair = review.pair
            lines.append(
                f"| `{_cell(pair.paradigm.uid)}` | {_cell(record_pair_id(pair.record))} | "
                f"{_cell(pair.sentence_good)} | {_cell(pair.sentence_bad)} | {_cell(review.reason)} |"
            )
        if excluded > LISTED_EXCLUSIONS:
            lines += ["", f"… and {excluded - LISTED_EXCLUSIONS:,} more (the dataset's page lists them all)."]
    return lines
