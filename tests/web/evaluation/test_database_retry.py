"""A scoring chunk that loses the database after its attempt was counted gives the attempt back
(once the database answers), so outages never add up to the limit that stops a chunk which keeps
killing its worker."""

from collections.abc import Callable
from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError

from mpp_studio.evaluation.models import LanguageModel, ScoringChunk, ScoringRun
from mpp_studio.evaluation.services import score_chunk
from mpp_studio.evaluation.services.scoring import MAX_ATTEMPTS
from mpp_studio.jobs import retrying

pytestmark = pytest.mark.django_db


def first_chunk(run: ScoringRun) -> ScoringChunk:
    return ScoringChunk.objects.filter(run=run).order_by("config_id", "dataset_id", "index").first()  # type: ignore[return-value]


def score(chunk: ScoringChunk) -> None:
    score_chunk(
        run_id=chunk.run_id, config_id=chunk.config_id, dataset_id=chunk.dataset_id, chunk_index=chunk.index
    )


@pytest.mark.parametrize(
    "error", [OperationalError("server closed the connection"), InterfaceError("closed")]
)
def test_an_outage_before_scoring_gives_the_attempt_back(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel, error: Exception
) -> None:
    """The progress write right after the count fails: before, only errors inside the scoring
    step gave the attempt back."""
    run = make_run([unigram_en])
    chunk = first_chunk(run)
    with (
        mock.patch("mpp_studio.evaluation.services.scoring.job_progress", side_effect=error),
        pytest.raises(type(error)),
    ):
        score(chunk)
    chunk.refresh_from_db()
    assert (chunk.status, chunk.attempts) == ("pending", 0)


def test_outages_never_add_up_to_the_attempt_limit(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel
) -> None:
    run = make_run([unigram_en])
    chunk = first_chunk(run)
    for _ in range(MAX_ATTEMPTS + 2):
        with (
            mock.patch("mpp_studio.evaluation.services.scoring._store", side_effect=OperationalError("gone")),
            pytest.raises(OperationalError),
        ):
            score(chunk)
    score(chunk)
    chunk.refresh_from_db()
    run.job.refresh_from_db()  # type: ignore[union-attr]
    assert (chunk.status, chunk.attempts) == ("done", 1)
    assert run.job.status != "failed", run.job.message  # type: ignore[union-attr]


def test_the_attempt_is_given_back_once_the_database_answers_again(
    make_run: Callable[..., ScoringRun], unigram_en: LanguageModel
) -> None:
    """The give-back itself meets the outage twice, then the database is back."""
    run = make_run([unigram_en])
    chunk = first_chunk(run)
    original = retrying.when_database_answers
    failures = iter([OperationalError("refused"), OperationalError("refused")])

    def flaky(action: Callable[[], object], **kwargs: object) -> bool:
        def first_fails() -> object:
            error = next(failures, None)
            if error is not None:
                raise error
            return action()

        return original(first_fails, sleep=lambda seconds: None)

    with (
        mock.patch("mpp_studio.evaluation.services.scoring._store", side_effect=OperationalError("gone")),
        mock.patch("mpp_studio.evaluation.services.scoring.when_database_answers", flaky),
        mock.patch.object(retrying, "close_database_connections"),
        pytest.raises(OperationalError),
    ):
        score(chunk)
    chunk.refresh_from_db()
    assert chunk.attempts == 0
