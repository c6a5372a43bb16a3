"""Pairs written by hand into a finished paradigm of a dataset (the engine's `written_pair`).

The author types the two sentences; the pair is stored after the paradigm's last pair with the
record a generated pair has (words, critical region found by a word diff, provenance naming who
wrote it), so that exports, scores and reports take it like any other.
"""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max

from generator.written_pair import written_pair_problems, written_pair_record
from mpp_studio.datasets.models import DatasetParadigm, Pair


@transaction.atomic
def written_pair_add(*, paradigm: DatasetParadigm, good: str, bad: str, user: User) -> Pair:
    """Store a hand-written pair as the paradigm's next pair and count it.

    Raises:
        ValidationError: {"good" / "bad": ...} for an empty or multi-line sentence or two
            sentences with the same words; {"uid": ...} for a paradigm still being made or
            that failed (its pairs are not settled).
    """
    locked = DatasetParadigm.objects.select_for_update().get(pk=paradigm.pk)
    if locked.status != DatasetParadigm.Status.DONE:
        raise ValidationError(
            {
                "uid": f"{locked.uid} is {locked.get_status_display().lower()}: "
                "write pairs into it once it is done."
            }
        )
    language = locked.language or "en"
    problems = written_pair_problems(good, bad, language)
    if problems:
        raise ValidationError({problem.key: problem.message for problem in problems})
    last = Pair.objects.filter(paradigm=locked).aggregate(last=Max("index"))["last"]
    index = 0 if last is None else int(last) + 1
    record = written_pair_record(
        good,
        bad,
        uid=locked.uid,
        phenomenon=locked.phenomenon,
        language=language,
        pair_id=index,
        written_by=user.get_username(),
    )
    pair = Pair.objects.create(
        paradigm=locked,
        index=index,
        sentence_good=str(record["sentence_good"]),
        sentence_bad=str(record["sentence_bad"]),
        record=record,
    )
    DatasetParadigm.objects.filter(pk=locked.pk).update(produced=F("produced") + 1)
    return pair
