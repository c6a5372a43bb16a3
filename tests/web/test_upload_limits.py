"""Every upload path of the platform against bad files: too large, empty, wrong encodings, binary
data, huge lines and fields, a bad line in a good file, the wrong extension, and requests over
Django's own limits. Each must answer 200/400/413 with a message naming the file and the line,
byte or limit (never a 500 or a traceback), and store nothing it does not say it stored.

The upload paths (every `FileField`, `request.FILES`, `MultiPartParser` and raw request body of
`platform/mpp_studio`):

  web pages (multipart forms)
    lexicon   /projects/<id>/vocabularies/import/          file + schema_file, format "ours"
    lexicon   /projects/<id>/vocabularies/import/          file, format blimp/zhoblimp (converted)
    paradigms /projects/<id>/templates/upload/             files (.yaml, .csv/.tsv, .zip), file by file
    paradigms /projects/<id>/templates/import/zhoblimp/    files (template .json, vocab .tsv, .zip)
    datasets  /projects/<id>/datasets/import/              files (BLiMP/ZhoBLiMP .jsonl, Zorro .txt, .zip)
    learner   /projects/<id>/learner/upload/               file (parallel TSV/CSV, or M2) + metadata_file
  API (DRF MultiPartParser)
    /api/projects/<id>/vocabularies/import/                file + schema_file
    /api/projects/<id>/vocabularies/import/converted/      file
    /api/projects/<id>/templates/import/zhoblimp/          files
    /api/projects/<id>/datasets/import/                    files
  request bodies that are not file uploads (Django's DATA_UPLOAD_MAX_MEMORY_SIZE and the
  project's request cap apply): the JSON API (e.g. /api/projects/<id>/templates/, source_text)
  and the participant answer endpoint /s/<slug>/run/<token>/answer/ (`request.body`).

There is no upload for learner corpora in the API, for study items (studies pick datasets) or
for models (registered by a server folder); no model has a FileField.

The limits, all settings: MPP_VOCABULARY_UPLOAD_MAX_BYTES and MPP_VOCABULARY_MAX_ITEMS (vocabulary
tables wherever they come in), MPP_TEMPLATE_UPLOAD_MAX_BYTES / MPP_TEMPLATE_ZIP_MAX_BYTES,
MPP_DATASET_IMPORT_MAX_BYTES (all files of an import), MPP_LEARNER_UPLOAD_MAX_BYTES and
MPP_LEARNER_MAX_PAIRS, MPP_UPLOAD_MAX_REQUEST_BYTES (a whole request, refused before it is read),
and Django's DATA_UPLOAD_MAX_MEMORY_SIZE / _NUMBER_FIELDS / _NUMBER_FILES.

What each path keeps when part of an upload is bad is its own documented rule:
  all or nothing   a file that cannot be used (too large, empty, binary, UTF-16, too many rows)
                   stores nothing anywhere; the MPP vocabulary import refuses a file with any bad
                   row or a bad schema file; the ZhoBLiMP project import stores none of its files
                   when one is refused; a learner corpus or metadata file that is not UTF-8 is
                   refused whole (naming the line of the first bad byte)
  row by row       the BLiMP/ZhoBLiMP vocabulary converters (also inside the ZhoBLiMP project
                   import) skip a bad row and list it, with file and line, in the answer's report
  file by file     template upload page: each file is stored on its own or not at all, and the
                   report says "N of M files stored, K rejected"
  line by line     dataset import and learner corpus rows: bad lines are left out and the import
                   report lists each with its file and line; the good lines (and files) are stored
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings

from tests.web.conftest import REPO_ROOT, SV_AGREEMENT_YAML

pytestmark = pytest.mark.django_db

ZHO = REPO_ROOT / "tests" / "generator" / "importers" / "data" / "zhoblimp"
BLIMP_VOCABULARY = REPO_ROOT / "tests" / "vocab" / "data" / "blimp_vocabulary.csv"
MARK = b"@MARK@"
HUGE_LINE = 5 * 1024 * 1024
HUGE_FIELD = csv.field_size_limit() + 50_000
SMALL_LIMIT = 256 * 1024  # what the tests set configurable file limits to

# -- The files each path reads well; MARK sits on the path's `mark_line` -----------------------------

VOCAB_CSV = (
    b"id,form,lemma,pos,number\nn1,cat,cat,NN,sg\nn2,cats,cat,NN,pl\nn3,@MARK@,dog,NN,sg\nn4,dogs,dog,NN,pl\n"
)
BLIMP_LINE = {
    "sentence_good": "The @MARK@ sleeps.",
    "sentence_bad": "The @MARK@ sleep.",
    "field": "morphology",
    "linguistics_term": "subject_verb_agreement",
    "UID": "sv_agreement_1",
    "simple_LM_method": True,
    "one_prefix_method": False,
    "two_prefix_method": False,
    "lexically_identical": False,
}


def _blimp_jsonl() -> bytes:
    lines = []
    for index, noun in enumerate(["cat", "dog", "@MARK@", "bird", "horse"]):
        record = dict(BLIMP_LINE, pairID=str(index))
        record["sentence_good"] = f"The {noun} sleeps."
        record["sentence_bad"] = f"The {noun} sleep."
        lines.append(json.dumps(record, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode()


LEARNER_TSV = (
    b"sentence_id\tessay_id\tlearner\tcorrected\n"
    b"s1\te1\tShe go to school.\tShe goes to school.\n"
    b"s2\te1\tI has a cat.\tI have a cat.\n"
    b"s3\te1\tHe like @MARK@ very much.\tHe likes @MARK@ very much.\n"
    b"s4\te2\tThey was late.\tThey were late.\n"
)
LEARNER_M2 = (
    b"S She go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"
    b"S I like @MARK@ .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
    b"S They was late .\nA 1 2|||R:VERB:SVA|||were|||REQUIRED|||-NONE-|||0\n\n"
    b"S He have a dog .\nA 1 2|||R:VERB:SVA|||has|||REQUIRED|||-NONE-|||0\n"
)
LEARNER_FORM = {
    "name": "Essays",
    "source_format": "parallel",
    "annotator": "0",
    "learner_column": "learner",
    "corrected_column": "corrected",
    "id_column": "sentence_id",
    "essay_column": "essay_id",
    "join_key": "essay_id",
}
TEMPLATE_YAML = SV_AGREEMENT_YAML.replace(
    "description: The verb agrees in number with its subject.", "description: The verb agrees @MARK@."
).encode()


def _zho_vocab() -> bytes:
    lines = (ZHO / "vocab.tsv").read_bytes().split(b"\n")
    lines[2] = lines[2].replace("李四".encode(), MARK, 1)
    return b"\n".join(lines)


def _blimp_vocab() -> bytes:
    lines = BLIMP_VOCABULARY.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b",dogs,", b",@MARK@,", 1)
    return b"\n".join(lines)


# -- The paths ----------------------------------------------------------------------------------------

Upload = tuple[str, bytes]


@dataclass(frozen=True)
class UploadPath:
    """One way in: where to post, which field holds the file under test, what goes with it."""

    id: str
    url: str  # with {project}
    api: bool
    file_field: str
    file_name: str
    good: Callable[[], bytes]
    mark_word: bytes  # what MARK stands for in a good file
    mark_line: int
    bad_row: bytes  # replaces the whole mark line: a line the reader refuses
    form: dict[str, str] = field(default_factory=dict)
    companions: Callable[[], dict[str, list[Upload]]] = dict
    # What a bad line does: "all-or-nothing" (the file is refused), "report" (the row is skipped
    # and listed in the answer's report, the rest stored), "line-by-line" (skipped and listed in
    # the stored import report), "file-by-file" (the template page: that file is refused).
    lines: str = "all-or-nothing"
    refuses_bad_encoding: bool = True  # a file that is not UTF-8 is refused whole (else: by line)
    multi: bool = False  # the file field takes several files
    limit_setting: str = ""  # the setting that holds its file limit
    text_field: str = "name"  # a plain form field, for the request-body limit


def _zho_companions() -> dict[str, list[Upload]]:
    templates = sorted((ZHO / "templates").glob("*.json"))
    return {
        "files": [(p.name, p.read_bytes()) for p in templates]
        + [("phrases.json", (ZHO / "phrases.json").read_bytes())]
    }


def _paths() -> list[UploadPath]:
    vocab = {
        "file_field": "file",
        "file_name": "nouns.csv",
        "good": lambda: VOCAB_CSV,
        "mark_word": b"dog",
        "mark_line": 4,
        "bad_row": b"n3,dog,dog,NN,sg,extra,cells",
        "limit_setting": "MPP_VOCABULARY_UPLOAD_MAX_BYTES",
    }
    converted = {
        "file_field": "file",
        "file_name": "vocabulary.csv",
        "good": _blimp_vocab,
        "mark_word": b"dogs",
        "mark_line": 3,
        "bad_row": b'1,"dogs,N,N',
        "limit_setting": "MPP_VOCABULARY_UPLOAD_MAX_BYTES",
        "form": {"format": "blimp", "name": "blimp_vocab"},
        "lines": "report",
        "refuses_bad_encoding": False,
    }
    zho = {
        "file_field": "files",
        "file_name": "vocab.tsv",
        "good": _zho_vocab,
        "mark_word": "李四".encode(),
        "mark_line": 3,
        "bad_row": "李四\tNR\tperson\t\t\tmale\t1\t\tsingular\t\t2\textra\tcells".encode(),
        "companions": _zho_companions,
        "multi": True,
        "limit_setting": "MPP_VOCABULARY_UPLOAD_MAX_BYTES",
        "text_field": "vocabulary_name",
        "lines": "report",
        "refuses_bad_encoding": False,
    }
    dataset = {
        "file_field": "files",
        "file_name": "agreement.jsonl",
        "good": _blimp_jsonl,
        "mark_word": b"fish",
        "mark_line": 3,
        "bad_row": b'{"sentence_good": "The fish sleeps.", "sentence_bad": ',
        "form": {"name": "Imported", "source_format": "auto", "zorro_order": "bad-first"},
        "lines": "line-by-line",
        "refuses_bad_encoding": False,
        "multi": True,
        "limit_setting": "MPP_DATASET_IMPORT_MAX_BYTES",
    }
    return [
        UploadPath(
            "vocabulary-page",
            "/projects/{project}/vocabularies/import/",
            False,
            form={"format": "ours"},
            **vocab,
        ),  # type: ignore[arg-type]
        UploadPath("vocabulary-api", "/api/projects/{project}/vocabularies/import/", True, **vocab),  # type: ignore[arg-type]
        UploadPath("converted-page", "/projects/{project}/vocabularies/import/", False, **converted),  # type: ignore[arg-type]
        UploadPath(
            "converted-api", "/api/projects/{project}/vocabularies/import/converted/", True, **converted
        ),  # type: ignore[arg-type]
        UploadPath(
            "templates-page",
            "/projects/{project}/templates/upload/",
            False,
            file_field="files",
            file_name="agreement.yaml",
            good=lambda: TEMPLATE_YAML,
            mark_word=b"in number",
            mark_line=5,
            bad_row=b"\tdescription: a tab cannot indent YAML",
            lines="file-by-file",
            multi=True,
            limit_setting="MPP_TEMPLATE_UPLOAD_MAX_BYTES",
            text_field="note",
        ),
        UploadPath("zhoblimp-page", "/projects/{project}/templates/import/zhoblimp/", False, **zho),  # type: ignore[arg-type]
        UploadPath("zhoblimp-api", "/api/projects/{project}/templates/import/zhoblimp/", True, **zho),  # type: ignore[arg-type]
        UploadPath("datasets-page", "/projects/{project}/datasets/import/", False, **dataset),  # type: ignore[arg-type]
        UploadPath("datasets-api", "/api/projects/{project}/datasets/import/", True, **dataset),  # type: ignore[arg-type]
        UploadPath(
            "learner-page",
            "/projects/{project}/learner/upload/",
            False,
            file_field="file",
            file_name="essays.tsv",
            good=lambda: LEARNER_TSV,
            mark_word=b"cats",
            mark_line=4,
            bad_row=b"s3\te1",
            form=LEARNER_FORM,
            lines="line-by-line",
            limit_setting="MPP_LEARNER_UPLOAD_MAX_BYTES",
        ),
        UploadPath(
            "learner-page-m2",
            "/projects/{project}/learner/upload/",
            False,
            file_field="file",
            file_name="essays.m2",
            good=lambda: LEARNER_M2,
            mark_word=b"cats",
            mark_line=4,
            bad_row=b"S I like cats .\nA 9 x|||R:NOUN|||cat|||REQUIRED|||-NONE-|||0",
            form={**LEARNER_FORM, "source_format": "m2"},
            lines="line-by-line",
            limit_setting="MPP_LEARNER_UPLOAD_MAX_BYTES",
        ),
    ]


PATHS = _paths()
MULTI_PATHS = [p for p in PATHS if p.multi]


def good_bytes(path: UploadPath, mark: bytes | None = None) -> bytes:
    """Return the path's good file with MARK replaced by `mark` (its own word by default)."""
    return path.good().replace(MARK, path.mark_word if mark is None else mark)


def with_line(path: UploadPath, line: bytes) -> bytes:
    """Return the good file with its mark line replaced by `line`."""
    lines = good_bytes(path).split(b"\n")
    lines[path.mark_line - 1] = line
    return b"\n".join(lines)


# -- Posting and checking -----------------------------------------------------------------------------


@pytest.fixture
def post(
    project: object, editor: object, api_client_for: Callable[[object], object]
) -> Callable[..., object]:
    """Return a function posting a file (and the path's companions) the way the path takes it."""
    page = Client()
    page.force_login(editor)  # type: ignore[arg-type]
    api = api_client_for(editor)

    def send(
        path: UploadPath,
        name: str,
        data: bytes,
        content_type: str = "application/octet-stream",
        extra: dict[str, object] | None = None,
        files: list[Upload] | None = None,
        follow: bool = False,
    ) -> object:
        url = path.url.format(project=project.pk)  # type: ignore[attr-defined]
        body: dict[str, object] = dict(path.form)
        uploads = [SimpleUploadedFile(name, data, content_type=content_type)]
        uploads += [SimpleUploadedFile(n, d) for n, d in files or []]
        for key, more in path.companions().items():
            uploads += [SimpleUploadedFile(n, d) for n, d in more] if key == path.file_field else []
            if key != path.file_field:
                body[key] = [SimpleUploadedFile(n, d) for n, d in more]
        body[path.file_field] = uploads if path.multi else uploads[0]
        body.update(extra or {})
        if path.id.startswith("datasets"):
            return _dataset_import_outcome(path, api if path.api else page, url, body, follow)
        if path.id.startswith("learner"):
            return _learner_upload_outcome(path, api if path.api else page, url, body, follow)
        if path.id.startswith(("vocabulary", "converted", "zhoblimp")):
            return _import_job_outcome(path, api if path.api else page, url, body)
        if path.api:
            return api.post(url, body, format="multipart")  # type: ignore[attr-defined]
        return page.post(url, body, follow=follow)

    return send


class JobRefusal:
    """What a linguist reads when a dataset import's (or a learner corpus read's) job ends
    without a usable pair: the job's message and the report, as a refusal (status 400) for the
    checks below. The request itself answered 202/302 at once: the files are read by the job
    (run here, in the request)."""

    def __init__(self, text: str, api: bool) -> None:
        self.status_code = 400
        self.content = text.encode("utf-8")
        self._type = "application/json" if api else "text/html"

    def get(self, key: str, default: str = "") -> str:
        return self._type if key == "Content-Type" else default

    def __getitem__(self, key: str) -> str:
        return self.get(key)


def _dataset_import_outcome(
    path: UploadPath, client: Any, url: str, body: dict[str, object], follow: bool
) -> object:
    from mpp_studio.datasets.models import Dataset
    from mpp_studio.datasets.services import dataset_delete, dataset_import_run
    from mpp_studio.datasets.tasks import import_files

    with mock.patch.object(import_files, "delay_on_commit", lambda pk: dataset_import_run(dataset_id=pk)):
        if path.api:
            response = client.post(url, body, format="multipart")
        else:
            response = client.post(url, body, follow=follow)
    if response.status_code not in (202, 302) and not (follow and response.status_code == 200):
        return response
    dataset = Dataset.objects.order_by("-pk").select_related("job").first()
    if dataset is None or dataset.job is None or dataset.job.status != "failed":
        return response
    report = [{**issue, "where": f"line {issue['line']}"} for issue in dataset.import_report]
    if path.api:
        text = json.dumps({"errors": [{"field": "files", "message": dataset.job.message}, *report]})
    else:
        lines = " ".join(f"{i['file']} line {i['line']} {i['message']}" for i in dataset.import_report)
        text = f"<p>{dataset.job.message}</p><p>{lines}</p>"
    dataset_delete(dataset=dataset)  # what the user does with a failed import; the counts then hold
    return JobRefusal(text, path.api)


def _learner_upload_outcome(
    path: UploadPath, client: Any, url: str, body: dict[str, object], follow: bool
) -> object:
    """Post a learner corpus with its read job run in the request (as a worker would after it);
    a read that fails (no pair, too many) comes back as a JobRefusal with the job's message and
    the read report, the corpus and its job removed so that the counts hold."""
    from mpp_studio.jobs.models import Job
    from mpp_studio.learner.models import LearnerCorpus
    from mpp_studio.learner.services import corpus_read
    from mpp_studio.learner.tasks import read_corpus

    with mock.patch.object(read_corpus, "delay_on_commit", lambda pk: corpus_read(corpus_id=pk)):
        if path.api:
            response = client.post(url, body, format="multipart")
        else:
            response = client.post(url, body, follow=follow)
    if response.status_code not in (202, 302) and not (follow and response.status_code == 200):
        return response
    corpus = LearnerCorpus.objects.order_by("-pk").select_related("job").first()
    if corpus is None or corpus.job is None or corpus.job.status != "failed":
        return response
    if path.api:
        report = [{**issue, "where": f"line {issue['line']}"} for issue in corpus.read_report]
        text = json.dumps({"errors": [{"field": "file", "message": corpus.job.message}, *report]})
    else:
        lines = " ".join(f"{i['file']} line {i['line']} {i['message']}" for i in corpus.read_report)
        text = f"<p>{corpus.job.message}</p><p>{lines}</p>"
    job_id = corpus.job_id
    corpus.delete()  # the failed read keeps its corpus and report; gone here, the counts hold
    Job.objects.filter(pk=job_id).delete()
    return JobRefusal(text, path.api)


def _import_job_outcome(path: UploadPath, client: Any, url: str, body: dict[str, object]) -> object:
    """Post a vocabulary file or a ZhoBLiMP project with its import job run in the request (as a
    worker would after it); return what the user reads then: a refusal given at once (400, 413),
    else the import's page or API answer once the job has run. A job that failed comes back as a
    JobRefusal holding that page or answer (the job's message and every problem or report item),
    the import and its job removed so that the counts hold."""
    from mpp_studio.jobs.models import Job
    from mpp_studio.lexicon.models import VocabularyImport
    from mpp_studio.paradigms.models import ZhoblimpImport
    from tests.web.conftest import import_jobs_run_now

    with import_jobs_run_now():
        response = client.post(url, body, format="multipart") if path.api else client.post(url, body)
    if response.status_code not in (202, 302):
        return response
    model: Any = ZhoblimpImport if path.id.startswith("zhoblimp") else VocabularyImport
    row = model.objects.order_by("-pk").select_related("job").first()
    if path.api:
        detail = (
            f"{url}{row.pk}/" if model is ZhoblimpImport else f"{url.split('/import/')[0]}/imports/{row.pk}/"
        )
        answer = client.get(detail)
    else:
        answer = client.get(response["Location"])
    if row.job.status != "failed":
        return answer
    job_id = row.job_id
    row.delete()  # a failed import keeps its row and report; gone here, the counts hold
    Job.objects.filter(pk=job_id).delete()
    return JobRefusal(answer.content.decode(), path.api)


def project_counts() -> dict[str, int]:
    """Return how many rows every model of the project's apps (and accounts, auth) holds."""
    labels = {
        "accounts",
        "auth",
        "authtoken",
        "jobs",
        "lexicon",
        "paradigms",
        "datasets",
        "evaluation",
        "learner",
        "studies",
    }
    return {
        model._meta.label: model._default_manager.count()
        for model in apps.get_models()
        if model._meta.app_label in labels
    }


def text_of(response: object) -> str:
    """Return what the user reads: the page's text without markup, or the API's messages."""
    content = response.content.decode("utf-8", "replace")  # type: ignore[attr-defined]
    if response.get("Content-Type", "").startswith("application/json"):  # type: ignore[attr-defined]
        return json.dumps(json.loads(content), ensure_ascii=False)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", content)).replace("&#x27;", "'").replace("&quot;", '"')


def assert_refused(
    response: object, *mentions: str | re.Pattern[str], statuses: tuple[int, ...] = (400,)
) -> str:
    """Check the answer is a refusal (no 500, no traceback) that mentions each of `mentions`."""
    text = text_of(response)
    status = response.status_code  # type: ignore[attr-defined]
    assert status in statuses, f"status {status}, expected one of {statuses}: {text[:2000]}"
    assert "Traceback" not in text
    for mention in mentions:
        if isinstance(mention, re.Pattern):
            assert mention.search(text), f"no {mention.pattern!r} in: {text[:3000]}"
        else:
            assert mention in text, f"no {mention!r} in: {text[:3000]}"
    return text


def line_pattern(number: int) -> re.Pattern[str]:
    """Match "line 4" in a message, "line": 4 in JSON, or a report table's "nouns.csv 4"."""
    return re.compile(rf"(?i)(line\W{{1,4}}|\.(csv|tsv|yaml|jsonl|json) ){number}\b")


def refused_statuses(path: UploadPath) -> tuple[int, ...]:
    # The template page answers 200 with a per-file report (rejected files are listed there).
    return (200, 400) if path.id == "templates-page" else (400,)


@pytest.fixture
def counted(project: object, editor: object) -> Iterator[Callable[[], None]]:
    """Return a check that no row of any model was added or removed since the test began."""
    before = project_counts()

    def unchanged() -> None:
        after = project_counts()
        assert after == before, {k: (before[k], after[k]) for k in before if before[k] != after[k]}

    yield unchanged


def assert_nothing_stored(path: UploadPath, response: object, unchanged: Callable[[], None]) -> None:
    unchanged()
    text = text_of(response)
    if path.id == "templates-page" and "rejected" in text:  # a report, not a form error
        assert re.search(r"0 of \d+ files? stored", text), text[:2000]


# -- The good file is read (so the bad cases below fail for the reason they say) ---------------------


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_the_good_file_is_stored(path: UploadPath, post: Callable[..., object]) -> None:
    before = project_counts()
    response = post(path, path.file_name, good_bytes(path))
    assert response.status_code in (200, 201, 202, 302), text_of(response)[:3000]  # type: ignore[attr-defined]
    assert project_counts() != before, text_of(response)[:3000]


# -- Bad files ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_a_file_over_the_size_limit_is_refused_naming_it_and_the_limit(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    data = good_bytes(path)
    data += b"\n" * (SMALL_LIMIT + 1 - len(data))
    with override_settings(**{path.limit_setting: SMALL_LIMIT}):
        response = post(path, path.file_name, data)
    limit_mib = re.compile(r"\b(256\.0 KB|0\.25 MiB)")
    assert_refused(response, path.file_name, limit_mib, statuses=refused_statuses(path))
    assert_nothing_stored(path, response, counted)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_an_empty_file_is_refused(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    response = post(path, path.file_name, b"")
    assert_refused(response, path.file_name, re.compile(r"(?i)empty"), statuses=refused_statuses(path))
    assert_nothing_stored(path, response, counted)


ENCODINGS = {
    # Latin-1 "é" on the mark line: the first byte that is not UTF-8 is there.
    "latin-1": lambda p: good_bytes(p, "café".encode("latin-1")),
    "cp1252-quote": lambda p: good_bytes(p, b"\x93quoted\x94"),
    "invalid-utf8": lambda p: good_bytes(p, b"ab\xc3\x28cd"),
}


@pytest.mark.parametrize("case", ENCODINGS)
@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_text_that_is_not_utf8_is_refused_naming_the_line(
    path: UploadPath, case: str, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    response = post(path, path.file_name, ENCODINGS[case](path))
    if not path.refuses_bad_encoding:
        # The bad line is left out and reported; the other lines are stored.
        assert_line_reported(path, response, path.mark_line, "UTF-8")
        return
    assert_refused(
        response, path.file_name, line_pattern(path.mark_line), "UTF-8", statuses=refused_statuses(path)
    )
    assert_nothing_stored(path, response, counted)


def assert_line_reported(path: UploadPath, response: object, line: int, mention: str) -> None:
    """Check a path that skips bad lines stored the good ones and reports the bad one by file and line."""
    from mpp_studio.datasets.models import Dataset
    from mpp_studio.learner.models import LearnerCorpus

    if path.lines == "report":  # the import's report lists it; the vocabulary has the other rows
        text = text_of(response)
        assert response.status_code == 200, text[:3000]  # type: ignore[attr-defined]
        if path.api:
            notes = json.loads(text)["report"]
            hits = [n for n in notes if n["file"] == path.file_name and n["where"].startswith(f"line {line}")]
            assert hits and mention in str(hits), notes
        else:
            assert re.search(rf"{re.escape(path.file_name)}\W+line {line}\b", text), text[:5000]
            assert mention in text
        return

    assert response.status_code in (201, 202, 302), text_of(response)[:3000]  # type: ignore[attr-defined]
    stored = Dataset.objects.get() if path.id.startswith("datasets") else LearnerCorpus.objects.get()
    report = stored.import_report if isinstance(stored, Dataset) else stored.read_report
    hits = [
        issue
        for issue in report
        if issue["file"].endswith(path.file_name) and issue["line"] == line and issue["severity"] == "error"
    ]
    assert hits and mention in str(hits), report
    if isinstance(stored, Dataset):
        assert sum(stored.paradigms.values_list("produced", flat=True)) == 4, report
    else:
        assert stored.pair_count == 3, (stored.pair_count, report)


UTF16 = {
    "utf-16-bom": lambda p: good_bytes(p).decode().encode("utf-16"),
    "utf-16-le-no-bom": lambda p: good_bytes(p).decode().encode("utf-16-le"),
    "utf-16-be-no-bom": lambda p: good_bytes(p).decode().encode("utf-16-be"),
}


@pytest.mark.parametrize("case", UTF16)
@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_utf16_text_is_refused_saying_so(
    path: UploadPath, case: str, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    response = post(path, path.file_name, UTF16[case](path))
    text = assert_refused(response, path.file_name, statuses=refused_statuses(path))
    assert re.search(r"UTF-16|NUL|binary|not UTF-8", text), text[:3000]
    assert_nothing_stored(path, response, counted)


def _zip_of(name: str, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, data)
    return buffer.getvalue()


BINARY = {
    "png": lambda p: b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8,
    "gzip": lambda p: gzip.compress(good_bytes(p)),
    "damaged-zip": lambda p: _zip_of(p.file_name, good_bytes(p) * 50)[:200],
    "nul-bytes": lambda p: good_bytes(p, b"do\x00g"),
    "random-bytes": lambda p: bytes((i * 7919 + 13) % 256 for i in range(20_000)),
}


@pytest.mark.parametrize("case", BINARY)
@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_binary_data_is_refused(
    path: UploadPath, case: str, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    response = post(path, path.file_name, BINARY[case](path))
    assert_refused(response, path.file_name, statuses=refused_statuses(path))
    assert_nothing_stored(path, response, counted)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_a_huge_line_is_refused_naming_the_line_or_the_limit(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    response = post(path, path.file_name, good_bytes(path, b"x" * HUGE_LINE))
    if path.lines == "line-by-line":
        assert_line_reported(path, response, path.mark_line, "longer")
        return
    assert_refused(response, path.file_name, statuses=refused_statuses(path))
    assert_nothing_stored(path, response, counted)


@pytest.mark.parametrize(
    "path", [p for p in PATHS if p.file_name.endswith((".csv", ".tsv"))], ids=lambda p: p.id
)
def test_a_field_larger_than_the_csv_module_takes_is_refused_naming_the_line(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    """A quoted field over csv.field_size_limit() (131,072 characters) makes Python's csv raise."""
    huge = b'"' + b"y" * HUGE_FIELD + b'"'
    response = post(path, path.file_name, good_bytes(path, huge))
    stored = response.status_code in (201, 202, 302)  # type: ignore[attr-defined]
    if path.lines == "line-by-line" and stored:
        assert_line_reported(path, response, path.mark_line, "")
        return
    text = assert_refused(response, path.file_name, statuses=refused_statuses(path))
    assert line_pattern(path.mark_line).search(text) or "MiB" in text or "characters" in text, text[:3000]
    assert_nothing_stored(path, response, counted)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_a_good_file_with_one_bad_line(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    response = post(path, path.file_name, with_line(path, path.bad_row))
    if path.lines in ("line-by-line", "report"):
        assert_line_reported(path, response, path.mark_line, "")
        return
    assert_refused(response, path.file_name, line_pattern(path.mark_line), statuses=refused_statuses(path))
    assert_nothing_stored(path, response, counted)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_text_named_as_an_image_is_refused_or_read_for_what_it_is(
    path: UploadPath, post: Callable[..., object]
) -> None:
    """A good file with a .png name and type: the paths that go by the name refuse it clearly;
    those that go by the content read it. Never a 500, never half stored."""
    before = project_counts()
    response = post(path, "table.png", good_bytes(path), content_type="image/png")
    status = response.status_code  # type: ignore[attr-defined]
    if status in (200, 201, 202, 302) and project_counts() != before:
        return
    assert_refused(response, "table.png", statuses=refused_statuses(path))
    assert project_counts() == before


# -- Several files: one bad file -----------------------------------------------------------------------


@pytest.mark.parametrize("path", MULTI_PATHS, ids=lambda p: p.id)
def test_one_bad_file_among_good_ones(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    """The all-or-nothing paths store none of the good files; the others say what they kept."""
    bad = ("broken" + Path(path.file_name).suffix, b"\x89PNG\r\n\x1a\n\x00\x00binary")
    response = post(path, path.file_name, good_bytes(path), files=[bad])
    text = text_of(response)
    if path.id.startswith("zhoblimp"):  # a project imports whole or not at all
        assert_refused(response, bad[0])
        counted()
    elif path.lines == "file-by-file":
        assert response.status_code == 200, text[:2000]  # type: ignore[attr-defined]
        assert re.search(r"1 of 2 files stored, 1 rejected", text), text[:3000]
        assert bad[0] in text
    else:
        from mpp_studio.datasets.models import Dataset

        assert response.status_code in (201, 202, 302), text[:2000]  # type: ignore[attr-defined]
        dataset = Dataset.objects.get()
        assert any(issue["file"] == bad[0] for issue in dataset.import_report), dataset.import_report
        # The good file's pairs were kept, and the answer says what was not.
        assert sum(dataset.paradigms.values_list("produced", flat=True)) == 5
        if path.api:
            assert any(issue["file"] == bad[0] for issue in json.loads(text)["import_report"])
        else:
            page = text_of(post(path, path.file_name, good_bytes(path), files=[bad], follow=True))
            assert "1 item could not be imported" in page and bad[0] in page, page[:3000]


def test_a_bad_schema_file_stores_the_good_table_neither(
    post: Callable[..., object], counted: Callable[[], None]
) -> None:
    path = next(p for p in PATHS if p.id == "vocabulary-page")
    response = post(
        path,
        path.file_name,
        good_bytes(path),
        extra={
            "schema_file": SimpleUploadedFile(
                "nouns.schema.yaml", b"language: en\nfeatures:\n\tnumber: {type: category}\n"
            )
        },
    )
    assert_refused(response, "nouns.schema.yaml", line_pattern(3))
    counted()


def test_a_bad_metadata_file_stores_the_good_corpus_neither(
    post: Callable[..., object], counted: Callable[[], None]
) -> None:
    path = next(p for p in PATHS if p.id == "learner-page")
    response = post(
        path,
        path.file_name,
        good_bytes(path),
        extra={"metadata_file": SimpleUploadedFile("meta.tsv", "e1\tdé".encode("latin-1"))},
    )
    assert_refused(response, "meta.tsv", line_pattern(1), "UTF-8")
    counted()


def test_more_pairs_than_one_import_takes_are_refused_naming_the_limit(
    post: Callable[..., object], counted: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mpp_studio.datasets.services import imports

    monkeypatch.setattr(imports, "MAX_IMPORT_PAIRS", 1_000)
    path = next(p for p in PATHS if p.id == "datasets-page")
    line = json.dumps(dict(BLIMP_LINE, sentence_good="A b.", sentence_bad="B a.")).encode()
    response = post(path, path.file_name, b"\n".join([line] * 1_001))
    assert_refused(response, "more than 1,000 pairs")  # it stops reading at the 1,001st
    counted()


VOCABULARY_PATHS = [p for p in PATHS if p.limit_setting == "MPP_VOCABULARY_UPLOAD_MAX_BYTES"]
TEMPLATES_PAGE = next(p for p in PATHS if p.id == "templates-page")


@pytest.mark.parametrize("path", [*VOCABULARY_PATHS, TEMPLATES_PAGE], ids=lambda p: p.id)
def test_more_rows_than_a_vocabulary_takes_are_refused_before_they_are_read(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    """Tiny rows within the size limit: the row count is checked first, not after minutes of work."""
    name = path.file_name if path in VOCABULARY_PATHS else "nouns.csv"  # the template page: a table
    data = (VOCAB_CSV.replace(MARK, b"dog") if name == "nouns.csv" else good_bytes(path)) + b"".join(
        b"w%d,w,NN\n" % i for i in range(1_001)
    )
    with override_settings(MPP_VOCABULARY_MAX_ITEMS=1_000):
        response = post(path, name, data)
    assert_refused(
        response, name, re.compile(r"has 1,0\d\d rows"), "1,000 items", statuses=refused_statuses(path)
    )
    assert_nothing_stored(path, response, counted)


@pytest.mark.parametrize("path", [p for p in PATHS if p.id.startswith("datasets")], ids=lambda p: p.id)
def test_a_zip_that_unpacks_past_the_import_limit_is_refused_before_it_is_read(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    """One good line repeated compresses ~100 times: the limit holds for the data, not the zip."""
    line = good_bytes(path).split(b"\n")[0] + b"\n"
    bomb = _zip_of(path.file_name, line * (2 * SMALL_LIMIT // len(line)))
    assert len(bomb) < SMALL_LIMIT // 4
    with override_settings(MPP_DATASET_IMPORT_MAX_BYTES=SMALL_LIMIT):
        response = post(path, "bundle.zip", bomb)
    assert_refused(response, re.compile(r"bundle\.zip unpacks to 5\d\d\.\d KB"), "256.0 KB")
    counted()


@pytest.mark.parametrize("path", [p for p in PATHS if p.id.startswith("learner")], ids=lambda p: p.id)
def test_more_pairs_than_a_corpus_takes_are_refused_naming_the_limit(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    with override_settings(MPP_LEARNER_MAX_PAIRS=3):
        response = post(path, path.file_name, good_bytes(path))
    # The job stops at the first pair over the limit, naming its line.
    assert_refused(response, f"{path.file_name} holds more than 3 pairs, the most one corpus takes", "line")
    counted()


# -- Requests over Django's own limits ---------------------------------------------------------------


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_a_text_field_over_the_request_body_limit_gets_413_saying_so(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=64 * 1024):
        response = post(path, path.file_name, good_bytes(path), extra={path.text_field: "z" * 100_000})
    assert_refused(response, "64.0 KB", "Nothing was saved", statuses=(413,))
    counted()


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_too_many_fields_get_a_400_saying_so(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    with override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=50):
        response = post(path, path.file_name, good_bytes(path), extra={f"f{i}": "1" for i in range(60)})
    assert_refused(response, "50 fields")
    counted()


@pytest.mark.parametrize("path", MULTI_PATHS, ids=lambda p: p.id)
def test_too_many_files_get_a_400_saying_so(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    with override_settings(DATA_UPLOAD_MAX_NUMBER_FILES=20):
        files = [(f"extra{i}.txt", b"x") for i in range(25)]
        response = post(path, path.file_name, good_bytes(path), files=files)
    assert_refused(response, "20 files")
    counted()


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.id)
def test_a_request_over_the_upload_cap_gets_413_before_it_is_read(
    path: UploadPath, post: Callable[..., object], counted: Callable[[], None]
) -> None:
    with override_settings(MPP_UPLOAD_MAX_REQUEST_BYTES=SMALL_LIMIT):
        response = post(path, path.file_name, good_bytes(path) + b"\n" * SMALL_LIMIT)
    assert_refused(response, "256.0 KB", statuses=(413,))
    counted()


def test_a_json_body_over_the_limit_gets_413_json(
    project: object, editor: object, api_client_for: Callable[[object], object]
) -> None:
    client = api_client_for(editor)
    before = project_counts()
    body = {"source_text": TEMPLATE_YAML.decode() + "#" + "z" * 100_000}
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=64 * 1024):
        response = client.post(f"/api/projects/{project.pk}/templates/", body, format="json")  # type: ignore[attr-defined]
    assert response["Content-Type"].startswith("application/json")
    assert_refused(response, "64.0 KB", "Nothing was saved", statuses=(413,))
    assert project_counts() == before


def test_a_participant_answer_over_the_body_limit_gets_413_json(project: object, editor: object) -> None:
    """The public answer endpoint reads `request.body`: over the limit it answers JSON that says so."""
    from django.urls import reverse

    from mpp_studio.studies.services import study_create, study_open
    from mpp_studio.studies.tokens import participant_token
    from tests.web.studies.conftest import STUDY_DEFAULTS, make_pair_dataset, start

    study = study_create(
        project=project,  # type: ignore[arg-type]
        datasets=[make_pair_dataset(project)],
        created_by=editor,  # type: ignore[arg-type]
        **STUDY_DEFAULTS,
    )
    study_open(study=study)
    url = reverse("studies_public:answer", args=[study.slug, participant_token(start(study))])
    before = project_counts()
    answer = json.dumps(
        {"trial_index": 0, "choice": 0, "confidence": None, "rt_ms": 900, "pad": "z" * 100_000}
    )
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=64 * 1024):
        response = Client().post(url, answer, content_type="application/json")
    assert response["Content-Type"].startswith("application/json")
    assert_refused(response, "64.0 KB", "Nothing was saved", statuses=(413,))
    assert project_counts() == before


def test_the_413_page_carries_the_site_headers(post: Callable[..., object]) -> None:
    """Refused before the session is read, the page still gets the security headers."""
    path = next(p for p in PATHS if p.id == "vocabulary-page")
    with override_settings(MPP_UPLOAD_MAX_REQUEST_BYTES=SMALL_LIMIT):
        response = post(path, path.file_name, good_bytes(path) + b"\n" * SMALL_LIMIT)
    assert response.status_code == 413  # type: ignore[attr-defined]
    assert "Content-Security-Policy" in response  # type: ignore[operator]
    assert "The request is too large" in text_of(response)
