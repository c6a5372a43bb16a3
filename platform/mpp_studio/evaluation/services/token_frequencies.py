"""Token unigram frequencies of a tokenizer (SLOR and MORCELA), stored once per tokenizer in a
project, and each recorded pair's unigram log-probabilities filled from them.

The request keeps the uploaded file and queues the `evaluation.count_token_frequencies` job;
the job loads the model's tokenizer (never its weights), counts the text a batch of lines at a
time (`scoring.token_frequencies.count_token_ids`, progress in KiB read) or reads a counts file
in ZhoBLiMP's layout, stores the frequencies under the tokenizer's key, and fills the unigram
log-probabilities of every pair score recorded with a causal configuration of that tokenizer.
A chunk scored later fills its own pairs (`pair_unigrams_fill`, called by `score_chunk`).
"""

import logging
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from mpp_studio.accounts.models import Project
from mpp_studio.accounts.users import RequestUser, signed_in_or_none
from mpp_studio.core.stored_uploads import (
    StoredUpload,
    upload_root,
    uploads_discard,
    uploads_discarded_on_failure,
    uploads_keep_or_refuse,
)
from mpp_studio.evaluation.models import (
    LanguageModel,
    PairKey,
    PairScore,
    ScoreConfig,
    SentenceScore,
    TokenFrequencyTable,
)
from mpp_studio.jobs.models import Job
from mpp_studio.jobs.services import job_create, job_fail, job_finish, job_progress, job_start
from scoring.errors import ScoringError
from scoring.token_frequencies import (
    FrequencyError,
    TokenFrequencies,
    count_token_ids,
    read_zhoblimp_frequencies,
    tokenizer_key,
)

logger = logging.getLogger(__name__)

JOB_KIND = "token_frequencies"
UPLOAD_KIND = "token-frequencies"
# Lines encoded at once, and pair scores filled per database round trip.
LINE_BATCH = 2_000
FILL_BATCH = 2_000


@transaction.atomic
def token_frequencies_create(
    *,
    project: Project,
    language_model: LanguageModel,
    upload: UploadedFile,
    origin: str,
    created_by: RequestUser | None = None,
) -> TokenFrequencyTable:
    """Keep the uploaded text or counts file and queue the job that makes the frequencies of
    the model's tokenizer from it.

    Raises:
        ValidationError: keyed by field (`language_model`: not a causal LM of the project;
            `origin`; `file`: empty, or the disk refused it).
    """
    errors: dict[str, list[str]] = {}
    if language_model.project_id != project.pk:
        errors["language_model"] = [f"'{language_model.name}' is not a model of this project."]
    elif language_model.kind != LanguageModel.Kind.CAUSAL:
        errors["language_model"] = [
            f"'{language_model.name}' is a {language_model.get_kind_display()}: SLOR and MORCELA "
            "compare a causal LM's log-probabilities, so token frequencies are made with a causal "
            "LM's tokenizer."
        ]
    if origin not in TokenFrequencyTable.Origin.values:
        errors["origin"] = [f"Unknown origin '{origin}': use text or zhoblimp."]
    if not upload.size:
        errors["file"] = [f"'{upload.name}' is empty."]
    if errors:
        raise ValidationError(errors)
    [kept] = uploads_keep_or_refuse(
        UPLOAD_KIND, [(str(upload.name), upload)], field="file", noun="file", outcome="counted"
    )
    with uploads_discarded_on_failure([kept]):
        job = job_create(
            project=project,
            kind=JOB_KIND,
            created_by=created_by,
            total=max(1, kept.size // 1024),
            unit=Job.ProgressUnit.KIB,
            message=f"Waiting to read '{kept.name}' with the tokenizer of {language_model.name}.",
        )
        table = TokenFrequencyTable.objects.create(
            project=project,
            language_model=language_model,
            tokenizer_source=language_model.source,
            tokenizer_revision=language_model.revision,
            origin=origin,
            file_name=kept.name[:255],
            upload=kept.to_dict(),
            job=job,
            created_by=signed_in_or_none(created_by),
        )
        from mpp_studio.evaluation.tasks import count_token_frequencies

        count_token_frequencies.delay_on_commit(table.pk)
    return table


def token_frequencies_make(*, table_id: int) -> None:
    """The job: read the kept file with the tokenizer, store the frequencies under the
    tokenizer's key, and fill the unigram log-probabilities of the pair scores recorded with
    its causal configurations. Safe to run twice: a finished table is left as it is.

    Fails the job in words (never raises) for a tokenizer that cannot be loaded, a file that is
    not what its origin says, or a tokenizer whose frequencies the project has already.
    """
    table = TokenFrequencyTable.objects.filter(pk=table_id).select_related("job").first()
    if table is None or table.job_id is None:
        return
    if not job_start(job_id=table.job_id, message=f"Loading the tokenizer of {table.tokenizer_source}."):
        return  # cancelled, or ended
    if table.ready:  # stored by an attempt that stopped while filling: fill what is left
        _fill_and_finish(table, cached_tokenizer(table.tokenizer_source, table.tokenizer_revision))
        return
    try:
        tokenizer = cached_tokenizer(table.tokenizer_source, table.tokenizer_revision)
        key = tokenizer_key(tokenizer.get_vocab())
        taken = (
            TokenFrequencyTable.objects.filter(project_id=table.project_id, tokenizer_key=key)
            .exclude(pk=table.pk)
            .first()
        )
        if taken is not None:
            raise FrequencyError(
                f"this project has the frequencies of this tokenizer already ('{taken.file_name}', "
                f"{taken.created_at:%Y-%m-%d}); delete them first to replace them"
            )
        upload = StoredUpload.from_dict(table.upload)
        frequencies, n_tokens = _read(table, upload, tokenizer)
    except (ScoringError, FrequencyError) as exc:
        job_fail(job_id=table.job_id, message=f"No token frequencies were stored: {exc}.")
        return
    table.tokenizer_key = key
    table.frequencies = frequencies.to_json()
    table.n_tokens = n_tokens
    table.save(update_fields=["tokenizer_key", "frequencies", "n_tokens", "updated_at"])
    uploads_discard([upload])
    _fill_and_finish(table, tokenizer)


def _fill_and_finish(table: TokenFrequencyTable, tokenizer: Any) -> None:
    """Fill the pair scores of the table's tokenizer and end its job, saying what was done."""
    assert table.job_id is not None
    filled, configs = unigrams_apply(table, tokenizer)
    counted = f"{table.n_tokens:,} tokens counted" if table.n_tokens is not None else "read"
    plural = "s" if configs != 1 else ""
    job_finish(
        job_id=table.job_id,
        message=f"{len(table.frequencies):,} token frequencies stored ({counted}); the unigram "
        f"log-probabilities of {filled:,} pair scores of {configs} configuration{plural} filled.",
    )


def _read(
    table: TokenFrequencyTable, upload: StoredUpload, tokenizer: Any
) -> tuple[TokenFrequencies, int | None]:
    """Return the frequencies the kept file holds and how many tokens were counted (None for a
    counts file)."""
    assert table.job_id is not None
    job_id = table.job_id
    if table.origin == TokenFrequencyTable.Origin.ZHOBLIMP:
        frequencies = read_zhoblimp_frequencies(Path(upload_root() / upload.path))
        size = len(tokenizer.get_vocab())
        beyond = [token for token in frequencies.probabilities if token >= size]
        if beyond:
            raise FrequencyError(
                f"'{upload.name}' lists token id {min(beyond)}, but the tokenizer of "
                f"{table.tokenizer_source} has {size:,} tokens: the counts are of another tokenizer"
            )
        return frequencies, None

    def encode(lines: list[str]) -> Sequence[Sequence[int]]:
        ids: Sequence[Sequence[int]] = tokenizer(lines, add_special_tokens=False)["input_ids"]
        return ids

    read = [0]  # bytes read so far, for the job's progress

    def progress(_lines: int) -> None:
        job_progress(job_id=job_id, done=read[0] // 1024, message=f"Counting the tokens of '{upload.name}'.")

    def lines() -> Iterator[str]:
        with upload.open() as raw:
            for number, line in enumerate(raw, start=1):
                read[0] += len(line)
                try:
                    yield line.decode("utf-8")
                except UnicodeDecodeError:
                    raise FrequencyError(f"'{upload.name}', line {number}: not UTF-8 text") from None

    counts = count_token_ids(lines(), encode, batch=LINE_BATCH, progress=progress)
    n_tokens = sum(counts.values())
    return TokenFrequencies.from_counts(counts, f"{upload.name} ({n_tokens:,} tokens)"), n_tokens


@lru_cache(maxsize=4)
def cached_tokenizer(source: str, revision: str) -> Any:
    """Return a model's tokenizer, loaded once per worker process (`ModelLoadError` in words)."""
    from scoring.torch_support import load_tokenizer

    return load_tokenizer(source, revision)


@transaction.atomic
def config_tokenizer_key(config: ScoreConfig) -> str:
    """Return the key of a scored causal configuration's tokenizer: the one its worker
    recorded, or, for one scored before keys were recorded, its tokenizer's, then added to the
    description the worker stored.

    Raises:
        ModelLoadError: when that tokenizer cannot be loaded any more.
    """
    recorded = str((config.describe or {}).get("tokenizer_key", ""))
    if recorded:
        return recorded
    key = tokenizer_key(cached_tokenizer(config.source, config.revision).get_vocab())
    rows = ScoreConfig.objects.select_for_update().filter(pk=config.pk)
    current = rows.values_list("describe", flat=True).first()
    rows.update(describe={**(current or {}), "tokenizer_key": key})
    return key


def unigrams_apply(table: TokenFrequencyTable, tokenizer: Any) -> tuple[int, int]:
    """Fill the unigram log-probabilities of every pair score recorded with a causal
    configuration of the table's tokenizer (`tokenizer`, loaded by the job: the same key is the
    same vocabulary) in its project; return (pair scores filled, configurations). A
    configuration never scored has nothing to fill (its chunks fill their own); one whose
    tokenizer's key cannot be known any more is skipped."""
    filled = configs = 0
    frequencies = table_frequencies(table)
    causal = ScoreConfig.objects.filter(
        language_model__project_id=table.project_id,
        method=ScoreConfig.Method.CAUSAL,
        pk__in=PairScore.objects.values("config_id"),
    ).order_by("pk")
    for config in causal:
        try:
            if config_tokenizer_key(config) != table.tokenizer_key:
                continue
        except ScoringError:
            logger.warning("the tokenizer of configuration %s could not be loaded", config.pk)
            continue
        configs += 1
        filled += pair_unigrams_fill(config, frequencies, tokenizer.convert_tokens_to_ids)
    return filled, configs


def table_frequencies(table: TokenFrequencyTable) -> TokenFrequencies:
    """Return the engine's frequencies of a stored table."""
    return TokenFrequencies.of({int(k): float(v) for k, v in table.frequencies.items()}, table.file_name)


def pair_unigrams_fill(
    config: ScoreConfig,
    frequencies: TokenFrequencies,
    token_ids: Callable[[list[str]], Sequence[int]],
    pair_ids: Sequence[int] | None = None,
) -> int:
    """Fill the unigram log-probability of both sentences of the configuration's pair scores
    that have none (of `pair_ids` only, when given), from each stored sentence's tokens;
    return how many were filled."""
    rows = PairScore.objects.filter(config=config, good_unigram__isnull=True)
    if pair_ids is not None:
        rows = rows.filter(pair_id__in=list(pair_ids))
    filled = 0
    last = 0
    while True:
        batch = list(rows.filter(pk__gt=last).order_by("pk")[:FILL_BATCH])
        if not batch:
            return filled
        last = batch[-1].pk
        keys = dict(
            (pair, (good, bad))
            for pair, good, bad in PairKey.objects.filter(pair_id__in=[r.pair_id for r in batch]).values_list(
                "pair_id", "good_key", "bad_key"
            )
        )
        wanted = {k for pair in keys.values() for k in pair}
        tokens = dict(
            SentenceScore.objects.filter(config=config, sentence_key__in=wanted).values_list(
                "sentence_key", "data__tokens"
            )
        )
        done = []
        for row in batch:
            good, bad = keys.get(row.pair_id, ("", ""))
            if good not in tokens or bad not in tokens:
                continue
            row.good_unigram = frequencies.log_prob(list(token_ids(list(tokens[good]))))
            row.bad_unigram = frequencies.log_prob(list(token_ids(list(tokens[bad]))))
            done.append(row)
        PairScore.objects.bulk_update(done, ["good_unigram", "bad_unigram"], batch_size=FILL_BATCH)
        filled += len(done)  # a row whose sentences are gone stays empty and is passed over


def chunk_unigrams_fill(config: ScoreConfig, pair_ids: Sequence[int]) -> int:
    """Fill the unigram log-probabilities of a scored chunk's pairs when the project has the
    frequencies of the configuration's tokenizer (`score_chunk`); return how many."""
    if config.method != ScoreConfig.Method.CAUSAL:
        return 0
    config.refresh_from_db(fields=["describe"])
    key = str((config.describe or {}).get("tokenizer_key", ""))
    table = (
        TokenFrequencyTable.objects.filter(
            project_id=config.language_model.project_id, tokenizer_key=key
        ).first()
        if key
        else None
    )
    if table is None or not table.ready:
        return 0
    tokenizer = cached_tokenizer(config.source, config.revision)
    return pair_unigrams_fill(config, table_frequencies(table), tokenizer.convert_tokens_to_ids, pair_ids)


def token_frequencies_give_up(*, table_id: int, message: str) -> None:
    """Fail the job of a table whose task gave up (retries spent, time limit, a worker error)
    in words, and let go of its kept file when the frequencies were never stored."""
    table = TokenFrequencyTable.objects.filter(pk=table_id).first()
    if table is None or table.job_id is None:
        return
    job_fail(job_id=table.job_id, message=f"The token frequencies could not be made: {message}")
    if table.upload and not table.ready:
        uploads_discard([StoredUpload.from_dict(table.upload)])


@transaction.atomic
def token_frequencies_delete(*, table: TokenFrequencyTable) -> int:
    """Delete a table and empty the unigram log-probabilities filled from it (SLOR and MORCELA
    then count those pairs as unscored); return how many pair scores were emptied."""
    emptied = 0
    if table.tokenizer_key:
        configs = [
            c.pk
            for c in ScoreConfig.objects.filter(language_model__project_id=table.project_id, method="causal")
            if str((c.describe or {}).get("tokenizer_key", "")) == table.tokenizer_key
        ]
        emptied = PairScore.objects.filter(config_id__in=configs, good_unigram__isnull=False).update(
            good_unigram=None, bad_unigram=None
        )
    if table.upload and not table.ready:
        uploads_discard([StoredUpload.from_dict(table.upload)])
    job_id = table.job_id
    table.delete()
    if job_id is not None:
        Job.objects.filter(pk=job_id).delete()
    return emptied
