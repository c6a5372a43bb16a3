"""Fixtures for learner triplets: the shipped demo corpus uploaded, a finished run over it, and a
rule that makes sure at least one ERRANT type has a generator (the real rules are written
alongside; the tests assert relations between counts, never how many triplets a rule makes)."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import REPO_ROOT

DEMO = REPO_ROOT / "templates" / "learner"
DEMO_TSV = DEMO / "mpp_learner_corpus.tsv"
DEMO_META = DEMO / "mpp_learner_corpus.meta.tsv"
DEMO_M2 = DEMO / "mpp_learner_corpus.m2"
BLISS_KEYS = {
    "UID",
    "learnerID",
    "L1",
    "cefr",
    "topic",
    "corpus",
    "corrected",
    "learner_error",
    "artificial_error",
    "error_type",
    "errant_edits",
    "all_error_types",
    "artificial_edit",
    "learner_error_position",
    "artificial_error_position",
    "source",
    "generator",
}
TEST_RULE_TYPE = "M:DET"


def _delete_determiners(doc: object) -> Iterable[object]:
    """Delete each article: the artificial sentence misses a determiner (ERRANT: M:DET)."""
    from triplets.candidates import Candidate

    for token in doc:  # type: ignore[attr-defined]
        if token.lower_ in {"a", "an", "the"}:
            yield Candidate(token.i, token.i + 1, (), "test_delete_article", True)


@pytest.fixture(autouse=True)
def a_rule(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Give M:DET a generator when the registry has none yet, so runs make triplets."""
    from triplets import rules

    if not rules.generators_for(TEST_RULE_TYPE):
        monkeypatch.setitem(rules.GENERATORS, TEST_RULE_TYPE, (_delete_determiners,))
    yield


@dataclass(frozen=True)
class Uploaded:
    """A corpus read by its job (run here, in this process) and the issues of its read report."""

    corpus: Any
    issues: list[dict[str, object]]


def upload(
    project: object, user: object, path: Path, meta: Path | None = None, **options: object
) -> Uploaded:
    """Upload a corpus file (and metadata) through the services: keep the files, then run the
    read job here, as a worker would; return the corpus (refreshed) with its read report.

    Raises:
        ValidationError: what the upload request refuses (fields, a file's bytes).
    """
    from mpp_studio.learner.services import ReadOptions, Upload, corpus_read, corpus_upload_start

    fmt = str(options.pop("source_format", "m2" if path.suffix == ".m2" else "parallel"))
    with path.open("rb") as main:
        meta_stream = meta.open("rb") if meta is not None else None
        try:
            corpus = corpus_upload_start(
                project=project,  # type: ignore[arg-type]
                name=str(options.pop("name", path.stem)),
                source_format=fmt,
                file=Upload(path.name, main, path.stat().st_size),
                metadata_file=Upload(meta.name, meta_stream, meta.stat().st_size)
                if meta and meta_stream
                else None,
                options=ReadOptions(**options),  # type: ignore[arg-type]
                created_by=user,  # type: ignore[arg-type]
                dispatch=False,
            )
        finally:
            if meta_stream is not None:
                meta_stream.close()
    corpus_read(corpus_id=corpus.pk)
    corpus.refresh_from_db()
    corpus.job.refresh_from_db()
    return Uploaded(corpus, list(corpus.read_report))


@pytest.fixture
def corpus(project: object, editor: object) -> object:
    """The demo corpus (TSV + metadata) uploaded into `project`."""
    return upload(project, editor, DEMO_TSV, DEMO_META, name="Demo learners").corpus


def make_run(corpus: object, **options: object) -> object:
    """Create a run (no tasks queued) and make every chunk in this process; return it refreshed."""
    from mpp_studio.learner.services import run_all_chunks, run_create

    run = run_create(corpus=corpus, dispatch=False, **options)  # type: ignore[arg-type]
    run_all_chunks(run=run)
    run.refresh_from_db()
    return run


@pytest.fixture
def finished_run(corpus: object) -> object:
    """A finished run over the demo corpus (chunks of 100 pairs)."""
    return make_run(corpus, chunk_size=100)


@pytest.fixture
def small_run(project: object, editor: object, tmp_path: Path) -> object:
    """A finished run over the demo corpus's first 30 pairs (with their metadata): fast."""
    lines = DEMO_TSV.read_text(encoding="utf-8").splitlines()[:31]
    path = tmp_path / "small.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    corpus = upload(project, editor, path, DEMO_META, name="Small").corpus
    return make_run(corpus, chunk_size=10)
