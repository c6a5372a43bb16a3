"""What a corpus' learners do, learnt while it is read and used by every run: the table is kept
on the corpus, learnt from the stored pairs for a corpus read before, the same either way; each
triplet's page line and CSV row say where its artificial error comes from."""

import csv
import io

from django.test import Client
from django.urls import reverse

from mpp_studio.datasets.models import Pair
from mpp_studio.learner.models import CorpusConfusions, LearnerCorpus, TripletRun
from mpp_studio.learner.services import corpus_confusions, learner_pair
from tests.web.conftest import PASSWORD
from tests.web.learner.conftest import make_run
from triplets.confusions import learn


def _stored(corpus: LearnerCorpus) -> object:
    return CorpusConfusions.objects.filter(corpus=corpus).values_list("table", flat=True).first()


def test_the_read_job_keeps_the_corpus_confusions(corpus: LearnerCorpus) -> None:
    corpus.refresh_from_db()
    stored = _stored(corpus)
    assert isinstance(stored, dict)
    assert stored["pairs"] == corpus.pair_count
    assert stored["seen"]  # the demo's learners leave out articles, swap prepositions...
    # What the job counted while reading is what the engine learns from the stored pairs.
    pairs = [learner_pair(record) for record in corpus.pairs.order_by("index")]
    assert learn(pairs).to_dict() == stored
    # Loading a corpus never loads its table (a few megabytes for a big corpus).
    assert "confusions" not in {f.name for f in LearnerCorpus._meta.concrete_fields}


def test_a_corpus_read_before_learns_its_confusions_on_its_first_run(corpus: LearnerCorpus) -> None:
    kept = _stored(corpus)
    reference = make_run(corpus, chunk_size=100)
    CorpusConfusions.objects.filter(corpus=corpus).delete()  # as read before learner 0005
    again = make_run(corpus, chunk_size=50)
    assert _stored(corpus) == kept
    assert corpus_confusions(corpus).to_dict() == kept
    # A table an older version learnt is learnt again.
    CorpusConfusions.objects.filter(corpus=corpus).update(table={**kept, "version": 1, "seen": {}})
    assert corpus_confusions(corpus).to_dict() == kept
    assert _stored(corpus) == kept

    def records(run: TripletRun) -> list[object]:
        rows = (
            Pair.objects.filter(paradigm__dataset=run.dataset)
            .order_by("index")
            .values_list("record", flat=True)
        )
        return [{k: v for k, v in record.items() if k != "chunk"} for record in rows]

    assert records(again) == records(reference)  # chunks of 50 or 100: the same triplets


def test_each_triplet_says_where_its_artificial_error_comes_from(
    finished_run: TripletRun, editor: object
) -> None:
    client = Client()
    assert client.login(username=editor.username, password=PASSWORD)  # type: ignore[attr-defined]
    project_id = finished_run.corpus.project_id
    records = list(
        Pair.objects.filter(paradigm__dataset=finished_run.dataset).values_list("record", flat=True)
    )
    sources = {r["artificial_edit"]["source"] for r in records}
    assert "corpus" in sources  # the demo corpus teaches at least one strict confusion
    learnt = next(r for r in records if r["artificial_edit"]["source"] == "corpus")
    assert (
        learnt["artificial_edit"]["confusion"] and learnt["artificial_edit"]["learners_made"]["anywhere"] >= 2
    )

    page = client.get(
        reverse("learner:triplets", args=(project_id, finished_run.pk)), {"type": learnt["error_type"]}
    ).content.decode()
    assert "learnt from the corpus (its learners made it" in page

    response = client.get(reverse("learner:export", args=(project_id, finished_run.pk)), {"format": "csv"})
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode("utf-8"))))
    by_uid = {row["UID"]: row for row in rows}
    row = by_uid[learnt["UID"]]
    assert row["artificial_source"] == "corpus"
    assert int(row["learners_made"]) == learnt["artificial_edit"]["learners_made"]["anywhere"]
    assert int(row["learners_made_in_context"]) == learnt["artificial_edit"]["learners_made"]["in_context"]
