"""Uploading learner corpora: the request checks the files' bytes and keeps them, the read job
stores M2 and parallel tables with metadata, every issue with its file and line. Bad files are
refused with a message naming them, nothing stored; a read that finds no pair, or too many,
fails in words with its report kept and no pair left. The job is safe to run twice and leaves
no kept file behind."""

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.test import override_settings

from mpp_studio.jobs.models import Job
from mpp_studio.learner.models import LearnerCorpus, LearnerPairRecord
from tests.web.learner.conftest import DEMO_M2, DEMO_META, DEMO_TSV, upload

pytestmark = pytest.mark.django_db

M2_WITH_BAD_LINE = """\
S My father is engineer .
A 3 3|||M:DET|||an|||REQUIRED|||-NONE-|||0

S She go to school every day .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED

S I have two brother .
A 3 4|||R:NOUN:NUM|||brothers|||REQUIRED|||-NONE-|||0
"""


def _nothing_stored() -> None:
    assert not LearnerCorpus.objects.exists()
    assert not LearnerPairRecord.objects.exists()
    assert not Job.objects.exists()
    _no_kept_file()


def _no_kept_file() -> None:
    from mpp_studio.core.stored_uploads import upload_root

    assert not [p for p in upload_root().rglob("*") if p.is_file()]


def _failed(corpus: LearnerCorpus) -> str:
    """Check the read failed with no pair kept; return the job's message."""
    assert corpus.job.status == "failed" and corpus.read_failed and not corpus.is_read
    assert corpus.pair_count == 0 and not LearnerPairRecord.objects.filter(corpus=corpus).exists()
    assert corpus.uploads == {}
    _no_kept_file()
    return corpus.job.message


def test_tsv_with_metadata_stores_every_pair_with_its_metadata(project: object, editor: object) -> None:
    outcome = upload(project, editor, DEMO_TSV, DEMO_META, name="Demo")
    corpus = outcome.corpus  # type: ignore[attr-defined]
    rows = DEMO_TSV.read_text(encoding="utf-8").strip().splitlines()
    assert corpus.pair_count == len(rows) - 1 == LearnerPairRecord.objects.filter(corpus=corpus).count()
    assert corpus.source_format == "parallel" and corpus.file_name == DEMO_TSV.name
    assert corpus.metadata_file_name == DEMO_META.name
    indexes = list(LearnerPairRecord.objects.filter(corpus=corpus).values_list("index", flat=True))
    assert indexes == list(range(corpus.pair_count))
    first = LearnerPairRecord.objects.get(corpus=corpus, index=0)
    header, line = rows[0].split("\t"), rows[1].split("\t")
    cells = dict(zip(header, line, strict=True))
    assert first.pair_id == cells["sentence_id"] and first.essay_id == cells["essay_id"]
    assert first.learner == cells["learner"] and first.corrected == cells["corrected"]
    assert first.source_file == DEMO_TSV.name and first.line == 2
    # The metadata's "L1" column (capital L) fills l1; every pair of the demo has one.
    meta = {r.split("\t")[0]: r.split("\t") for r in DEMO_META.read_text(encoding="utf-8").splitlines()[1:]}
    assert first.l1 == meta[first.essay_id][2] and first.cefr == meta[first.essay_id][3]
    assert not LearnerPairRecord.objects.filter(corpus=corpus, l1="").exists()
    # The report names files by the names given, never a temporary folder.
    assert all("/tmp" not in str(issue["file"]) + str(issue["message"]) for issue in corpus.read_report)


def test_m2_upload_keeps_the_edits_and_applies_them(project: object, editor: object) -> None:
    corpus = upload(project, editor, DEMO_M2, name="M2").corpus  # type: ignore[attr-defined]
    sentences = DEMO_M2.read_text(encoding="utf-8").count("\nS ") + 1
    assert corpus.source_format == "m2" and corpus.pair_count == sentences
    second = LearnerPairRecord.objects.get(corpus=corpus, index=1)
    assert second.learner == "My father is engineer and he works in a big company ."
    assert second.corrected == "My father is an engineer and he works in a big company ."
    assert second.edits == [{"start": 3, "end": 3, "type": "M:DET", "correction": "an", "annotator": 0}]
    assert LearnerPairRecord.objects.get(corpus=corpus, index=0).edits == []  # a noop


def test_bad_m2_line_is_reported_with_its_line_and_the_rest_kept(
    project: object, editor: object, tmp_path: Path
) -> None:
    path = tmp_path / "essays.m2"
    path.write_text(M2_WITH_BAD_LINE, encoding="utf-8")
    outcome = upload(project, editor, path)
    corpus = outcome.corpus  # type: ignore[attr-defined]
    assert corpus.pair_count == 2
    learners = list(LearnerPairRecord.objects.filter(corpus=corpus).values_list("learner", flat=True))
    assert learners == ["My father is engineer .", "I have two brother ."]
    lines = {(i["file"], i["line"]) for i in corpus.read_report if i["severity"] == "error"}
    assert ("essays.m2", 5) in lines  # the bad A line
    assert ("essays.m2", 4) in lines  # its sentence, skipped
    bad = next(i for i in corpus.read_report if i["line"] == 5)
    assert "expected 6 fields" in str(bad["message"])


def test_binary_file_is_refused_naming_it(project: object, editor: object, tmp_path: Path) -> None:
    path = tmp_path / "corpus.tsv"
    path.write_bytes(b"PK\x03\x04\x00\x00binary\x00data" * 10)
    with pytest.raises(ValidationError) as caught:
        upload(project, editor, path)
    message = caught.value.message_dict["file"][0]
    assert "corpus.tsv" in message and "binary" in message
    _nothing_stored()


def test_file_not_in_utf8_is_refused_naming_the_file_and_line(
    project: object, editor: object, tmp_path: Path
) -> None:
    path = tmp_path / "latin.tsv"
    text = "learner\tcorrected\nHe go home .\tHe goes home .\nThe café are open .\tThe café is open .\n"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(ValidationError) as caught:
        upload(project, editor, path)
    message = caught.value.message_dict["file"][0]
    assert "latin.tsv is not UTF-8" in message and "line 3" in message and "0xe9" in message
    _nothing_stored()


def test_metadata_file_in_another_encoding_is_refused_naming_it(
    project: object, editor: object, tmp_path: Path
) -> None:
    meta = tmp_path / "meta.tsv"
    meta.write_bytes("essay_id\tL1\nmpp-e01\tFrançais\n".encode("utf-16"))
    with pytest.raises(ValidationError) as caught:
        upload(project, editor, DEMO_TSV, meta)
    assert "meta.tsv" in caught.value.message_dict["metadata_file"][0]
    assert "UTF-16" in caught.value.message_dict["metadata_file"][0]
    _nothing_stored()


@override_settings(MPP_LEARNER_UPLOAD_MAX_BYTES=1_000)
def test_too_big_file_is_refused_with_the_limit(project: object, editor: object) -> None:
    with pytest.raises(ValidationError) as caught:
        upload(project, editor, DEMO_TSV, DEMO_META)
    message = caught.value.message_dict["file"][0]
    size = DEMO_TSV.stat().st_size / 1024
    assert message.startswith(f"{DEMO_TSV.name} is {size:.1f} KB; files up to 1,000 bytes can be uploaded")
    _nothing_stored()


def test_too_big_file_without_a_size_is_caught_while_checking(project: object, editor: object) -> None:
    from mpp_studio.learner.services import Upload, corpus_upload_start

    with (
        override_settings(MPP_LEARNER_UPLOAD_MAX_BYTES=2_000),
        DEMO_TSV.open("rb") as stream,
        pytest.raises(ValidationError) as caught,
    ):
        corpus_upload_start(
            project=project,  # type: ignore[arg-type]
            name="Big",
            source_format="parallel",
            file=Upload("big.tsv", stream),  # no size given: counted while checking
        )
    assert "big.tsv is larger than" in caught.value.message_dict["file"][0]
    _nothing_stored()


def test_missing_columns_fail_the_read_with_the_reason(
    project: object, editor: object, tmp_path: Path
) -> None:
    path = tmp_path / "pairs.tsv"
    path.write_text("original\tfixed\nHe go .\tHe goes .\n", encoding="utf-8")
    outcome = upload(project, editor, path)
    message = _failed(outcome.corpus)
    assert message.startswith("No pair could be read from pairs.tsv, so nothing was stored.")
    issue = outcome.issues[0]
    assert issue["file"] == "pairs.tsv" and issue["line"] == 1
    assert "no column 'learner', 'corrected'" in str(issue["message"])


def test_column_names_can_be_chosen(project: object, editor: object, tmp_path: Path) -> None:
    path = tmp_path / "pairs.csv"
    path.write_text("id,original,fixed\nx1,He go .,He goes .\nx2,She have .,She has .\n", encoding="utf-8")
    corpus = upload(
        project, editor, path, learner_column="original", corrected_column="fixed", id_column="id"
    ).corpus  # type: ignore[attr-defined]
    assert list(LearnerPairRecord.objects.filter(corpus=corpus).values_list("pair_id", "corrected")) == [
        ("x1", "He goes ."),
        ("x2", "She has ."),
    ]


def test_bad_rows_are_reported_and_good_ones_kept(project: object, editor: object, tmp_path: Path) -> None:
    path = tmp_path / "rows.tsv"
    path.write_text(
        "sentence_id\tlearner\tcorrected\ns1\tHe go .\tHe goes .\ns2\t\tShe has .\ns3\tOne\ttoo\tmany\n"
        "s1\tAgain .\tAgain !\ns4\tThey is .\tThey are .\n",
        encoding="utf-8",
    )
    corpus = upload(project, editor, path).corpus  # type: ignore[attr-defined]
    assert corpus.pair_count == 2
    errors = sorted(i["line"] for i in corpus.read_report if i["severity"] == "error")
    assert errors == [3, 4, 5]


def test_zero_readable_pairs_fail_the_read(project: object, editor: object, tmp_path: Path) -> None:
    path = tmp_path / "empty.m2"
    path.write_text("A 0 1|||R:DET|||the|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    outcome = upload(project, editor, path)
    assert "No pair could be read from empty.m2" in _failed(outcome.corpus)
    assert outcome.issues and outcome.issues[0]["line"] == 1


def test_metadata_join_reports_unmatched_rows(project: object, editor: object, tmp_path: Path) -> None:
    meta = tmp_path / "meta.tsv"
    meta.write_text("essay_id\tl1\tcefr\nmpp-e01\tChinese\tA2\nnobody\tFrench\tB2\n", encoding="utf-8")
    corpus = upload(project, editor, DEMO_TSV, meta).corpus  # type: ignore[attr-defined]
    assert LearnerPairRecord.objects.filter(corpus=corpus, l1="Chinese").exists()
    unused = [i for i in corpus.read_report if i["file"] == "meta.tsv" and i["line"] == 3]
    assert unused and "not used" in str(unused[0]["message"])
    kept_without = [
        i
        for i in corpus.read_report
        if i["file"] == DEMO_TSV.name and "without metadata" in str(i["message"])
    ]
    assert kept_without and "meta.tsv" in str(kept_without[0]["message"])


def test_bad_choices_are_refused_per_field(project: object, editor: object) -> None:
    with pytest.raises(ValidationError) as caught:
        upload(project, editor, DEMO_TSV, name=" ", source_format="xml", join_key="learner")
    assert set(caught.value.message_dict) == {"name", "source_format", "join_key"}
    _nothing_stored()


def test_more_pairs_than_a_corpus_takes_fail_at_the_first_one_over(
    project: object, editor: object, tmp_path: Path
) -> None:
    path = tmp_path / "many.tsv"
    rows = "".join(f"He go {n} .\tHe goes {n} .\n" for n in range(30))
    path.write_text("learner\tcorrected\n" + rows, encoding="utf-8")
    with override_settings(MPP_LEARNER_MAX_PAIRS=25):
        outcome = upload(project, editor, path)
    message = _failed(outcome.corpus)
    assert message.startswith("many.tsv holds more than 25 pairs, the most one corpus takes")
    assert "(pair 26 is on line 27)" in message


def test_a_metadata_table_with_more_rows_than_a_corpus_takes_pairs_fails_naming_the_line(
    project: object, editor: object, tmp_path: Path
) -> None:
    meta = tmp_path / "meta.tsv"
    meta.write_text("essay_id\tl1\n" + "".join(f"e{n}\tGreek\n" for n in range(12)), encoding="utf-8")
    with override_settings(MPP_LEARNER_MAX_PAIRS=10):
        outcome = upload(project, editor, DEMO_M2, meta)
    message = _failed(outcome.corpus)
    assert message.startswith("meta.tsv has more than 10 rows (line 12 is row 11)")


def test_pairs_are_written_in_short_chunks_and_a_second_run_adds_nothing(
    project: object, editor: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mpp_studio.learner import services

    monkeypatch.setattr(services, "WRITE_BATCH", 50)
    writes: list[int] = []
    real = LearnerPairRecord.objects.bulk_create

    def counted(objs: list[LearnerPairRecord], *args: object, **kwargs: object) -> object:
        writes.append(len(objs))
        assert kwargs.get("ignore_conflicts") is True
        return real(objs, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(LearnerPairRecord.objects, "bulk_create", counted)
    corpus = upload(project, editor, DEMO_TSV, DEMO_META).corpus
    assert writes[:-1] == [50] * (len(writes) - 1) and sum(writes) == corpus.pair_count
    assert "pairs stored so far" not in corpus.job.message  # the outcome replaced the progress
    assert corpus.job.progress_done == corpus.job.progress_total > 0
    # A message delivered again once the job has finished changes nothing.
    stored, written = (
        list(LearnerPairRecord.objects.filter(corpus=corpus).values_list("index", "pair_id")),
        len(writes),
    )
    services.corpus_read(corpus_id=corpus.pk)
    assert list(LearnerPairRecord.objects.filter(corpus=corpus).values_list("index", "pair_id")) == stored
    assert len(writes) == written


def test_a_read_that_died_part_way_is_read_again_to_the_end(
    project: object, editor: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mpp_studio.learner import services
    from mpp_studio.learner.services import ReadOptions, Upload, corpus_read, corpus_upload_start

    monkeypatch.setattr(services, "WRITE_BATCH", 40)
    with DEMO_TSV.open("rb") as main:
        corpus = corpus_upload_start(
            project=project,  # type: ignore[arg-type]
            name="Twice",
            source_format="parallel",
            file=Upload(DEMO_TSV.name, main),
            options=ReadOptions(),
            dispatch=False,
        )
    real = services._write_pending
    calls = {"n": 0}

    def dies_on_the_third_write(reading: object) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt  # the worker process is killed
        real(reading)  # type: ignore[arg-type]

    monkeypatch.setattr(services, "_write_pending", dies_on_the_third_write)
    with pytest.raises(KeyboardInterrupt):
        corpus_read(corpus_id=corpus.pk)
    assert LearnerPairRecord.objects.filter(corpus=corpus).count() == 80
    monkeypatch.setattr(services, "_write_pending", real)
    corpus_read(corpus_id=corpus.pk)  # the message comes back: the job runs again
    corpus.refresh_from_db()
    rows = DEMO_TSV.read_text(encoding="utf-8").strip().splitlines()
    assert corpus.job.status == "done" and corpus.pair_count == len(rows) - 1
    indexes = list(LearnerPairRecord.objects.filter(corpus=corpus).values_list("index", flat=True))
    assert indexes == list(range(corpus.pair_count))
    _no_kept_file()


def test_the_request_keeps_the_files_until_the_job_has_read_them(project: object, editor: object) -> None:
    from mpp_studio.core.stored_uploads import StoredUpload
    from mpp_studio.learner.services import ReadOptions, Upload, corpus_read, corpus_upload_start

    with DEMO_TSV.open("rb") as main, DEMO_META.open("rb") as meta:
        corpus = corpus_upload_start(
            project=project,  # type: ignore[arg-type]
            name="Kept",
            source_format="parallel",
            file=Upload(DEMO_TSV.name, main),
            metadata_file=Upload(DEMO_META.name, meta),
            options=ReadOptions(),
            dispatch=False,
        )
    assert corpus.job.status == "queued" and not corpus.is_read and not corpus.read_failed
    assert corpus.job.progress_unit == "kib"  # the page says "… of … read" in sizes
    kept = {key: StoredUpload.from_dict(record) for key, record in corpus.uploads.items()}
    assert {key: upload.name for key, upload in kept.items()} == {
        "file": DEMO_TSV.name,
        "metadata_file": DEMO_META.name,
    }
    with kept["file"].open() as stream:
        assert stream.read() == DEMO_TSV.read_bytes()
    assert not LearnerPairRecord.objects.exists()
    corpus_read(corpus_id=corpus.pk)
    corpus.refresh_from_db()
    assert corpus.is_read and corpus.uploads == {}
    _no_kept_file()


def test_a_task_that_gives_up_fails_the_read_and_removes_what_it_kept(
    project: object, editor: object
) -> None:
    from mpp_studio.learner.services import ReadOptions, Upload, corpus_upload_start
    from mpp_studio.learner.tasks import read_corpus

    with DEMO_M2.open("rb") as main:
        corpus = corpus_upload_start(
            project=project,  # type: ignore[arg-type]
            name="Given up",
            source_format="m2",
            file=Upload(DEMO_M2.name, main),
            options=ReadOptions(),
            dispatch=False,
        )
    read_corpus.on_failure(TimeoutError("time limit"), "task-id", (corpus.pk,), {}, None)
    corpus.refresh_from_db()
    assert "The worker could not finish reading the files (TimeoutError: time limit)" in _failed(corpus)


def test_a_run_waits_for_the_corpus_to_be_read(project: object, editor: object, tmp_path: Path) -> None:
    from mpp_studio.learner.services import ReadOptions, Upload, corpus_upload_start, run_create

    with DEMO_M2.open("rb") as main:
        reading = corpus_upload_start(
            project=project,  # type: ignore[arg-type]
            name="Reading",
            source_format="m2",
            file=Upload(DEMO_M2.name, main),
            options=ReadOptions(),
            dispatch=False,
        )
    with pytest.raises(ValidationError) as caught:
        run_create(corpus=reading, dispatch=False)
    assert caught.value.message_dict["corpus"] == [
        "“Reading” is still being read: start a run once all its pairs are stored."
    ]
    path = tmp_path / "none.tsv"
    path.write_text("a\tb\nx\ty\n", encoding="utf-8")
    failed = upload(project, editor, path, name="Unusable").corpus
    with pytest.raises(ValidationError) as caught:
        run_create(corpus=failed, dispatch=False)
    assert "could not be stored as a corpus" in caught.value.message_dict["corpus"][0]


def test_a_late_give_up_leaves_a_read_corpus_as_it_is(project: object, editor: object) -> None:
    """A task that gives up after another delivery of its message finished the read changes nothing."""
    from mpp_studio.learner.services import corpus_read_give_up

    corpus = upload(project, editor, DEMO_M2).corpus
    pairs = corpus.pair_count
    corpus_read_give_up(corpus_id=corpus.pk, message="the worker could not finish")
    corpus.refresh_from_db()
    corpus.job.refresh_from_db()
    assert corpus.job.status == "done" and corpus.pair_count == pairs > 0
    assert LearnerPairRecord.objects.filter(corpus=corpus).count() == pairs
