"""Uploading learner corpora: M2 and parallel tables with metadata, every issue with its file
and line, and bad files refused with a message naming them, nothing stored."""

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.test import override_settings

from mpp_studio.learner.models import LearnerCorpus, LearnerPairRecord
from mpp_studio.learner.services import CorpusRejected
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


def test_too_big_file_without_a_size_is_caught_while_copying(project: object, editor: object) -> None:
    from mpp_studio.learner.services import Upload, corpus_upload

    with (
        override_settings(MPP_LEARNER_UPLOAD_MAX_BYTES=2_000),
        DEMO_TSV.open("rb") as stream,
        pytest.raises(ValidationError) as caught,
    ):
        corpus_upload(
            project=project,  # type: ignore[arg-type]
            name="Big",
            source_format="parallel",
            file=Upload("big.tsv", stream),  # no size given: counted while copying
        )
    assert "big.tsv is larger than" in caught.value.message_dict["file"][0]
    _nothing_stored()


def test_missing_columns_refuse_the_upload_with_the_reason(
    project: object, editor: object, tmp_path: Path
) -> None:
    path = tmp_path / "pairs.tsv"
    path.write_text("original\tfixed\nHe go .\tHe goes .\n", encoding="utf-8")
    with pytest.raises(CorpusRejected) as caught:
        upload(project, editor, path)
    assert "nothing was stored" in caught.value.message
    issue = caught.value.issues[0]
    assert issue["file"] == "pairs.tsv" and issue["line"] == 1
    assert "no column 'learner', 'corrected'" in str(issue["message"])
    _nothing_stored()


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


def test_zero_readable_pairs_is_refused(project: object, editor: object, tmp_path: Path) -> None:
    path = tmp_path / "empty.m2"
    path.write_text("A 0 1|||R:DET|||the|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    with pytest.raises(CorpusRejected) as caught:
        upload(project, editor, path)
    assert caught.value.issues and caught.value.issues[0]["line"] == 1
    _nothing_stored()


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


def test_a_failing_write_stores_nothing(
    project: object, editor: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mpp_studio.learner import services

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("disk full")

    calls = {"n": 0}
    real = LearnerPairRecord.objects.bulk_create

    def second_batch_fails(objs: object, *args: object, **kwargs: object) -> object:
        calls["n"] += 1
        if calls["n"] == 2:
            broken()
        return real(objs, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(services, "WRITE_BATCH", 100)
    monkeypatch.setattr(LearnerPairRecord.objects, "bulk_create", second_batch_fails)
    with pytest.raises(RuntimeError):
        upload(project, editor, DEMO_TSV, DEMO_META)
    _nothing_stored()
