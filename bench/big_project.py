"""Big projects stay fast: every page and API list or detail of a project of millions of pairs,
timed, with the number of SQL queries each makes.

What it does:
1. Makes a throwaway database on the `--postgres` server (dropped afterwards) and migrates it.
2. Builds one project with every kind of object a URL can name (`tests/web/authorization_world`:
   vocabularies, templates, phrases, a dataset, a learner corpus and triplet run, a scoring run,
   a study with a participant, an invitation), then makes it big with bulk inserts
   (`INSERT ... SELECT` over `generate_series`, copying real records of that world):
   - `--templates` more templates (two versions each) and a vocabulary of `--items` items;
   - a generated dataset of 60% of `--pairs` and another of 20% (`--per-paradigm` pairs a
     paradigm, one template version each, the world's vocabulary snapshot and job, done);
   - an imported BLiMP-style dataset of 13% (67 paradigms, records with their provenance);
   - a learner triplet dataset of 7% as the world's triplet run left it finished (three
     triplets of different ERRANT types from each source pair, one paradigm per type, a done
     chunk per 500 source pairs with its report), its corpus grown to that many source pairs;
   - a scoring run of the unigram baseline over the 20% dataset, whose first `--scored` pairs
     are scored by the real chunk service (sentence scores and pair keys stored; the run is
     left running, as one is while it scores); `--participants` participations with every
     answer in the world's study; then VACUUM ANALYZE, as autovacuum would.
3. Walks every URL pattern of the project (as tests/web/test_authorization_matrix.py does) and
   requests each one a signed-in owner can GET (pages with a session, API routes with a token,
   participant pages with the participant's token), in-process with Django's test client, with
   the ids of the big objects: each dataset route once per dataset kind (generated, imported,
   learner), the pair lists also on a deep page and filtered by paradigm. Each is requested once
   untimed (counting its SQL queries and keeping the slowest), then `--repeat` times timed.
   Streamed downloads are timed to the response (the first bytes), not to the last byte.
4. Prints, per route: status, queries, p50 and p95 in ms; flags every route whose p95 is over
   `--limit-ms` (1,000) and shows its slowest SQL statement. `--json FILE` keeps the figures.

Bounded: a route slower than `--slow-s` on its untimed request is timed once, not `--repeat`
times, and timing stops after `--budget-s` (the routes left are listed as not timed).

Run: PYTHONPATH=platform:. .venv/bin/python bench/big_project.py [--pairs 5000000]
     [--postgres postgres://postgres@127.0.0.1:5432/test] [--repeat 5] [--only REGEX]
     (quick check: --pairs 200000)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from bench.server_stack import percentile, throwaway_database  # noqa: E402

PHENOMENA = (
    "agreement", "anaphor", "argument_structure", "binding", "control_raising", "determiner_noun",
    "ellipsis", "filler_gap", "irregular_forms", "island_effects", "npi_licensing", "quantifiers",
)  # fmt: skip
ERRANT_TYPES = (
    "M:ADV", "M:DET", "M:PREP", "M:PRON", "M:VERB", "R:ADJ", "R:DET", "R:MORPH", "R:NOUN:INFL",
    "R:NOUN:NUM", "R:NOUN:POSS", "R:PREP", "R:PRON", "R:VERB:FORM", "R:VERB:SVA", "R:VERB:TENSE",
    "R:WO", "U:ADV", "U:CONJ", "U:DET", "U:PREP", "U:PRON", "U:VERB", "U:VERB:FORM",
)  # fmt: skip
L1S = ("Spanish", "German", "Chinese", "Japanese", "Arabic", "French", "Korean", "Russian")
CEFRS = ("A2", "B1", "B2", "C1")


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


# -- Building the project --------------------------------------------------------------------


@dataclass
class Built:
    """The ids the routes are filled from, per dataset kind, and what was built."""

    args: dict[str, Any]
    datasets: dict[str, dict[str, Any]]  # kind -> dataset_id, pair_id, uid, job_id
    participant_token: str
    owner: Any
    sizes: dict[str, int] = field(default_factory=dict)


def _people() -> tuple[Any, Any, Any, Any, Any]:
    from django.contrib.auth import get_user_model

    from mpp_studio.accounts.models import Membership, Project
    from mpp_studio.accounts.roles import Role

    make = get_user_model().objects.create_user
    owner, editor, viewer, outsider = (
        make(n, password="bench-pass-1") for n in ("olga", "ed", "vic", "otto")
    )
    project = Project.objects.create(name="Big project", created_by=owner)
    for user, role in ((owner, Role.OWNER), (editor, Role.EDITOR), (viewer, Role.VIEWER)):
        Membership.objects.create(project=project, user=user, role=role)
    other = Project.objects.create(name="Someone else's", created_by=outsider)
    Membership.objects.create(project=other, user=outsider, role=Role.OWNER)
    return owner, editor, viewer, outsider, project


def _execute(sql: str, params: Any = None) -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def _templates(project: Any, editor: Any, count: int) -> list[Any]:
    """Add `count` templates of two versions each (the world's English template's text, its uid
    changed); return their newest versions."""
    from mpp_studio.paradigms.models import Template, TemplateVersion

    base = TemplateVersion.objects.filter(template__project=project, problems=[]).order_by("pk").first()
    old_uid = base.template.uid
    templates = Template.objects.bulk_create(
        Template(
            project=project,
            uid=f"big_{i:04d}",
            phenomenon=PHENOMENA[i % len(PHENOMENA)],
            language="en",
            description=f"Bench paradigm {i}",
        )
        for i in range(count)
    )
    versions = []
    for template in templates:
        text = base.source_text.replace(old_uid, template.uid)
        for number in (1, 2):
            versions.append(
                TemplateVersion(
                    template=template,
                    number=number,
                    source_text=text,
                    engine_hash=base.engine_hash,
                    problems=[],
                    capacity_text=base.capacity_text,
                    created_by=editor,
                    note="bench",
                )
            )
    TemplateVersion.objects.bulk_create(versions, batch_size=2000)
    return [v for v in versions if v.number == 2]


def _vocabulary(project: Any, items: int) -> None:
    from mpp_studio.lexicon.models import Vocabulary, VocabularyItem

    base = Vocabulary.objects.filter(project=project).order_by("pk").first()
    vocabulary = Vocabulary.objects.create(
        project=project, name="big_vocabulary", language="en", schema=base.schema
    )
    VocabularyItem.objects.bulk_create(
        (
            VocabularyItem(
                vocabulary=vocabulary,
                item_id=f"w{i}",
                form=f"word{i}",
                lemma=f"word{i}",
                pos=("NN", "VB", "JJ")[i % 3],
                features={"number": ["sg" if i % 2 else "pl"]},
            )
            for i in range(items)
        ),
        batch_size=5000,
    )


def _seed_table(kind: str, records: list[dict[str, Any]]) -> None:
    from psycopg.types.json import Jsonb

    _execute("CREATE TABLE IF NOT EXISTS bench_seed (kind text, k int, good text, bad text, record jsonb)")
    for k, record in enumerate(records):
        _execute(
            "INSERT INTO bench_seed VALUES (%s, %s, %s, %s, %s)",
            [kind, k, record["good"], record["bad"], Jsonb(record["record"])],
        )


def _dataset(
    project: Any,
    editor: Any,
    *,
    name: str,
    origin: str,
    uids: list[str],
    per_paradigm: int,
    seed_kind: str,
    versions: list[Any] | None = None,
    snapshot: Any = None,
) -> Any:
    """Create a finished dataset of `len(uids)` paradigms of `per_paradigm` pairs each, the pairs
    inserted by the database from the seed records of `seed_kind`."""
    from django.utils import timezone

    from mpp_studio.datasets.models import Dataset, DatasetParadigm
    from mpp_studio.jobs.models import Job

    total = per_paradigm * len(uids)
    now = timezone.now()
    job = Job.objects.create(
        project=project,
        kind="dataset_generate" if origin == "generated" else "dataset_import",
        status=Job.Status.DONE,
        progress_done=total,
        progress_total=total,
        created_by=editor,
        started_at=now,
        finished_at=now,
        message="Done.",
    )
    dataset = Dataset.objects.create(
        project=project,
        name=name,
        origin=origin,
        seed=7,
        pairs_per_paradigm=per_paradigm,
        job=job,
        created_by=editor,
        source_format="blimp" if origin == "imported" else "",
        source_files=[
            {"file": f"{u}.jsonl", "format": "blimp", "pairs": per_paradigm, "errors": 0, "warnings": 0}
            for u in uids
        ]
        if origin == "imported"
        else [],
    )
    paradigms = DatasetParadigm.objects.bulk_create(
        DatasetParadigm(
            dataset=dataset,
            template_version=versions[i] if versions else None,
            vocabulary_snapshot=snapshot,
            template_hash="0" * 64 if versions else "",
            generator_version="bench" if versions else "",
            uid=uid,
            phenomenon=PHENOMENA[i % len(PHENOMENA)],
            language="en",
            requested=per_paradigm,
            produced=per_paradigm,
            status=DatasetParadigm.Status.DONE,
        )
        for i, uid in enumerate(uids)
    )
    seeds = _execute("SELECT 1 FROM bench_seed WHERE kind = %s", [seed_kind])
    # Each sentence made unique (paradigm and pair number), as generated sentences mostly are:
    # the same text in two pairs is scored once, which would make a scored subset look bigger.
    numbered = "s.{0} || ' ' || dp.id::text || '.' || (g.i + 1)::text"
    step = max(1, 200_000 // per_paradigm)
    started = time.perf_counter()
    for start in range(0, len(paradigms), step):
        ids = [p.pk for p in paradigms[start : start + step]]
        _execute(
            f"""
            INSERT INTO datasets_pair (paradigm_id, "index", sentence_good, sentence_bad, record)
            SELECT dp.id, g.i, {numbered.format("good")}, {numbered.format("bad")},
                   s.record || jsonb_build_object(
                       'sentence_good', {numbered.format("good")},
                       'sentence_bad', {numbered.format("bad")},
                       'UID', dp.uid, 'pairID', g.i::text)
            FROM datasets_datasetparadigm dp
            CROSS JOIN generate_series(0, %(n)s - 1) AS g(i)
            JOIN bench_seed s ON s.kind = %(kind)s AND s.k = (g.i + dp.id) %% %(seeds)s
            WHERE dp.id = ANY(%(ids)s)
            """,
            {"n": per_paradigm, "kind": seed_kind, "seeds": seeds, "ids": ids},
        )
        done = (start + len(ids)) * per_paradigm
        rate = done / max(1e-9, time.perf_counter() - started)
        log(f"  {name}: {done:,} / {total:,} pairs ({rate:,.0f} pairs/s)")
    return dataset


def _learner_triplets(run: Any, sources: int) -> None:
    """Fill the triplet run's dataset as a finished run leaves it: three triplets of different
    ERRANT types from each of `sources` source pairs (Pair index source x 64 + k), one paradigm
    per type with its count, one done chunk per 500 source pairs whose report counts the
    triplets it made by type, and the run's merged report."""
    from mpp_studio.datasets.models import Dataset, DatasetParadigm
    from mpp_studio.learner.models import TripletChunk, TripletRun
    from triplets.report import YieldReport

    dataset = run.dataset
    DatasetParadigm.objects.bulk_create(
        DatasetParadigm(dataset=dataset, uid=t, phenomenon=t.partition(":")[2], language="en", requested=0,
                        status=DatasetParadigm.Status.DONE)
        for t in ERRANT_TYPES
    )  # fmt: skip
    seeds = _execute("SELECT 1 FROM bench_seed WHERE kind = 'learner'")
    numbered = "t.{0} || ' ' || s.i::text || '.' || k.k::text"
    started, step, slots, chunk = time.perf_counter(), 50_000, 64, 500
    for first in range(0, sources, step):
        _execute(
            f"""
            INSERT INTO datasets_pair (paradigm_id, "index", sentence_good, sentence_bad, record)
            SELECT dp.id, s.i * {slots} + k.k, {numbered.format("good")}, {numbered.format("bad")},
                   t.record || jsonb_build_object(
                       'corrected', {numbered.format("good")}, 'learner_error', {numbered.format("bad")},
                       'artificial_error', {numbered.format("good")} || ' too',
                       'error_type', dp.uid, 'UID', s.i::text || '#' || k.k::text,
                       'L1', (%(l1s)s::text[])[1 + s.i %% %(n_l1)s],
                       'cefr', (%(cefrs)s::text[])[1 + s.i %% %(n_cefr)s], 'chunk', s.i / {chunk})
            FROM generate_series(%(first)s, %(last)s) AS s(i)
            CROSS JOIN generate_series(0, 2) AS k(k)
            JOIN datasets_datasetparadigm dp ON dp.dataset_id = %(dataset)s
             AND dp.uid = (%(types)s::text[])[1 + (s.i * 5 + k.k * 7) %% %(n_types)s]
            JOIN bench_seed t ON t.kind = 'learner' AND t.k = (s.i + k.k) %% %(seeds)s
            """,
            {
                "first": first, "last": min(sources, first + step) - 1, "dataset": dataset.pk,
                "types": list(ERRANT_TYPES), "n_types": len(ERRANT_TYPES), "seeds": seeds,
                "l1s": list(L1S), "n_l1": len(L1S), "cefrs": list(CEFRS), "n_cefr": len(CEFRS),
            },
        )  # fmt: skip
        done = 3 * min(sources, first + step)
        rate = done / max(1e-9, time.perf_counter() - started)
        log(f"  {dataset.name}: {done:,} / {3 * sources:,} triplets ({rate:,.0f} pairs/s)")
    _execute(
        """UPDATE datasets_datasetparadigm dp SET produced = c.n, requested = c.n * 2
           FROM (SELECT paradigm_id, count(*) AS n FROM datasets_pair p
                 JOIN datasets_datasetparadigm d ON d.id = p.paradigm_id AND d.dataset_id = %s
                 GROUP BY paradigm_id) c
           WHERE dp.id = c.paradigm_id""",
        [dataset.pk],
    )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT p."index" / {slots * chunk}, d.uid, count(*) FROM datasets_pair p
                JOIN datasets_datasetparadigm d ON d.id = p.paradigm_id AND d.dataset_id = %s
                GROUP BY 1, 2""",
            [dataset.pk],
        )
        made: dict[int, dict[str, int]] = {}
        for number, uid, n in cursor.fetchall():
            made.setdefault(int(number), {})[uid] = int(n)
    TripletChunk.objects.filter(run=run).delete()
    TripletChunk.objects.bulk_create(
        TripletChunk(run=run, index=i, first_index=i * chunk, last_index=min(sources, (i + 1) * chunk) - 1,
                     status=TripletChunk.Status.DONE, report={"pairs_in": chunk, "triplets": made.get(i, {})})
        for i in range((sources + chunk - 1) // chunk)
    )  # fmt: skip
    report = YieldReport(pairs_in=sources)
    for counts in made.values():
        for uid, n in counts.items():
            report.single_edit_pairs[uid] += 2 * n
            report.triplets[uid] += n
    TripletRun.objects.filter(pk=run.pk).update(report=report.to_dict())
    Dataset.objects.filter(pk=dataset.pk).update(pairs_per_paradigm=0)
    run.job.status, run.job.progress_done = "done", run.job.progress_total
    run.job.save()


def _pick(dataset: Any) -> dict[str, Any]:
    """Return the ids of a dataset's routes: a paradigm in the middle and a pair in its middle."""
    paradigms = list(dataset.paradigms.order_by("uid").values_list("pk", "uid", "produced"))
    pk, uid, produced = paradigms[len(paradigms) // 2]
    from mpp_studio.datasets.models import Pair

    pairs = Pair.objects.filter(paradigm_id=pk).order_by("index")
    pair = pairs.values_list("pk", flat=True)[produced // 2 : produced // 2 + 1].first()
    total = sum(n for _, _, n in paradigms)
    return {"dataset_id": dataset.pk, "uid": uid, "pair_id": pair, "job_id": dataset.job_id, "pairs": total}


def build(options: argparse.Namespace) -> Built:
    """Build the big project (see the module docstring); return the ids its routes need."""
    from mpp_studio.datasets.models import Dataset, DatasetParadigm, Pair
    from mpp_studio.evaluation.services import run_create, score_chunk
    from mpp_studio.learner.models import LearnerCorpus, LearnerPairRecord, TripletRun
    from mpp_studio.studies.models import Participation, Response
    from mpp_studio.studies.services import schedule_of
    from tests.web.authorization_world import build_world

    started = time.perf_counter()
    owner, editor, viewer, _, project = _people()
    with tempfile.TemporaryDirectory() as tmp, mock.patch("celery.app.task.Task.apply_async"):
        world = build_world(
            project=project, owner=owner, editor=editor, viewer=viewer, library_dir=Path(tmp) / "lib"
        )
    log(f"world built ({time.perf_counter() - started:.0f} s)")
    args = dict(world.args)
    small = Dataset.objects.get(pk=args["dataset_id"])
    snapshot = small.paradigms.exclude(vocabulary_snapshot=None).first().vocabulary_snapshot
    generated = [
        {"good": p.sentence_good, "bad": p.sentence_bad, "record": p.record}
        for p in Pair.objects.filter(paradigm__dataset=small).order_by("pk")
    ]
    _seed_table("generated", generated)
    imported = [
        {
            "good": r["good"],
            "bad": r["bad"],
            "record": {
                "sentence_good": r["good"],
                "sentence_bad": r["bad"],
                "UID": "",
                "phenomenon": "agreement",
                "pairID": "0",
                "language": "en",
                "provenance": {
                    "source_format": "blimp",
                    "source_file": "blimp.jsonl",
                    "source_line": 1,
                    "fields": {
                        "field": "morphology",
                        "linguistics_term": "subject_verb_agreement",
                        "simple_LM_method": True,
                        "one_prefix_method": False,
                        "two_prefix_method": False,
                        "lexically_identical": True,
                    },
                },
            },
        }
        for r in generated
    ]
    _seed_table("imported", imported)
    triplets = Pair.objects.filter(paradigm__dataset__origin="learner").order_by("pk")
    _seed_table(
        "learner", [{"good": p.sentence_good, "bad": p.sentence_bad, "record": p.record} for p in triplets]
    )

    versions = _templates(project, editor, options.templates)
    _vocabulary(project, options.items)
    log(f"{options.templates} templates, a vocabulary of {options.items:,} items")

    per = options.per_paradigm

    def paradigms_for(share: float) -> int:
        return max(1, round(options.pairs * share / per))

    n_main, n_second = paradigms_for(0.60), paradigms_for(0.20)
    n_versions = len(versions)
    main = _dataset(
        project, editor, name="Big generated", origin="generated", per_paradigm=per, seed_kind="generated",
        uids=[f"big_{i % n_versions:04d}_{i // n_versions}" for i in range(n_main)],
        versions=[versions[i % n_versions] for i in range(n_main)], snapshot=snapshot,
    )  # fmt: skip
    second = _dataset(
        project, editor, name="Second generated", origin="generated", per_paradigm=per,
        seed_kind="generated", uids=[f"big_{i % n_versions:04d}" for i in range(n_second)],
        versions=[versions[i % n_versions] for i in range(n_second)], snapshot=snapshot,
    )  # fmt: skip
    n_imported = 67
    imported_set = _dataset(
        project, editor, name="BLiMP (imported)", origin="imported", seed_kind="imported",
        per_paradigm=max(1, round(options.pairs * 0.13 / n_imported)),
        uids=[f"blimp_{PHENOMENA[i % len(PHENOMENA)]}_{i}" for i in range(n_imported)],
    )  # fmt: skip
    run = TripletRun.objects.select_related("dataset", "corpus", "job").get(pk=args["learner_run_id"])
    sources = max(len(ERRANT_TYPES), round(options.pairs * 0.07 / 3))
    _learner_triplets(run, sources)
    corpus = run.corpus
    records = list(LearnerPairRecord.objects.filter(corpus=corpus).order_by("index"))
    wanted = sources
    extra = []
    for n in range(len(records), wanted):
        source = records[n % len(records)]
        extra.append(
            LearnerPairRecord(
                corpus=corpus,
                index=n,
                pair_id=f"{source.pair_id}-{n}",
                source_file=source.source_file,
                line=n + 1,
                learner=source.learner,
                learner_key=source.learner_key,
                corrected=source.corrected,
                edits=source.edits,
                learner_id=f"learner-{n % 5000}",
                essay_id=f"essay-{n % 20000}",
                l1=L1S[n % len(L1S)],
                cefr=CEFRS[n % len(CEFRS)],
                topic=source.topic,
                corpus_name=source.corpus_name,
                metadata=source.metadata,
            )
        )
    LearnerPairRecord.objects.bulk_create(extra, batch_size=5000)
    LearnerCorpus.objects.filter(pk=corpus.pk).update(pair_count=max(wanted, len(records)))
    log(f"learner corpus of {max(wanted, len(records)):,} pairs")

    _execute("DROP TABLE bench_seed")
    from mpp_studio.evaluation.models import LanguageModel

    model = LanguageModel.objects.get(pk=args["model_id"])
    with mock.patch("celery.app.task.Task.apply_async"):
        scoring = run_create(
            project=project, name="Big run", language_models=[model], datasets=[second], created_by=editor
        )
    config = scoring.configs.get()
    chunks = scoring.chunks.filter(dataset=second).order_by("index")
    n_chunks = 0
    scored_started = time.perf_counter()
    for chunk in chunks.values_list("index", "n_sentences"):
        if n_chunks * chunk[1] // 2 >= options.scored:
            break
        score_chunk(run_id=scoring.pk, config_id=config.pk, dataset_id=second.pk, chunk_index=chunk[0])
        n_chunks += 1
    log(f"scored {n_chunks} chunks of the second dataset ({time.perf_counter() - scored_started:.0f} s)")

    participation = Participation.objects.get(study_id=args["study_id"])
    trials = schedule_of(participation).trials
    from django.utils import timezone

    now = timezone.now()
    clones = Participation.objects.bulk_create(
        Participation(
            study_id=participation.study_id,
            list_index=n % 2,
            schedule=participation.schedule,
            trial_count=participation.trial_count,
            consent_version=participation.consent_version,
            consented_at=now,
            started_at=now,
            lease_started_at=now,
            last_seen_at=now,
            completed_at=now,
            status=Participation.Status.COMPLETED,
            pid_hash=f"{n:064x}",
        )
        for n in range(options.participants)
    )
    Response.objects.bulk_create(
        (
            Response(
                participation=clone,
                trial_index=i,
                item_id=trial.item_id,
                comparison=trial.comparison,
                trial_kind=trial.kind,
                choice=int(trial.gold_index or 0) if (n + i) % 5 else 1 - int(trial.gold_index or 0),
                correct=bool((n + i) % 5),
                rt_ms=1200 + 10 * i,
                received_at=now,
            )
            for n, clone in enumerate(clones)
            for i, trial in enumerate(trials)
        ),
        batch_size=5000,
    )
    log(f"{options.participants} participations with {len(trials)} answers each")
    _execute("VACUUM ANALYZE")  # as autovacuum does after bulk inserts: visibility map, statistics
    total = Pair.objects.count()
    log(f"built {total:,} pairs in {time.perf_counter() - started:.0f} s")
    datasets = {
        "generated": _pick(main),
        "imported": _pick(imported_set),
        "learner": _pick(Dataset.objects.get(pk=run.dataset_id)),
        "scored": _pick(second),
    }
    args.update(run_id=scoring.pk, config_id=config.pk, scoring_job_id=scoring.job_id)
    sizes = {
        "pairs": total,
        "paradigms": DatasetParadigm.objects.filter(dataset__project=project).count(),
        "scored_pairs": n_chunks * 500,
    }
    return Built(args, datasets, world.participant_token, owner, sizes)


# -- Timing the routes -----------------------------------------------------------------------


@dataclass
class Request:
    """One URL to time: the route, which variant of its ids, the path and how to send it."""

    route: str
    variant: str
    path: str
    api: bool
    anonymous: bool = False


# Query strings that make a route do its real work (the matrix sends none, and gets a 400).
EXTRA_QUERY = {
    "projects/<id:project_id>/datasets/<id:dataset_id>/export/": "?format=csv",
    "api/projects/<id:project_id>/datasets/<id:dataset_id>/export/": "?format=csv",
    "projects/<id:project_id>/learner/runs/<id:run_id>/export/": "?format=jsonl",
    "projects/<id:project_id>/scoring/results/<id:dataset_id>/export/": "?what=metrics&format=csv",
    "api/projects/<id:project_id>/results/<id:dataset_id>/compare/": "?configs={config_id}",
    "api/projects/<id:project_id>/results/<id:dataset_id>/export/": "?configs={config_id}&format=csv",
}
# Routes whose pages are lists of pairs: also a deep page and one paradigm.
PAIR_LISTS = (
    "projects/<id:project_id>/datasets/<id:dataset_id>/pairs/",
    "api/projects/<id:project_id>/datasets/<id:dataset_id>/pairs/",
    "projects/<id:project_id>/learner/runs/<id:run_id>/triplets/",
    "api/projects/<id:project_id>/learner/runs/<id:run_id>/triplets/",
)
DEEP_PAGE = 2000
# A configuration's items (page and API): filtered by outcome, deep in the unscored pairs, and
# searched for a word (a text search reads every pair of the dataset).
RESULT_ITEMS = (
    "projects/<id:project_id>/scoring/results/<id:dataset_id>/configs/<id:config_id>/items/",
    "api/projects/<id:project_id>/results/<id:dataset_id>/configs/<id:config_id>/items/",
)
ITEM_VARIANTS = (
    ("wrong", "outcome=wrong"),
    ("unscored, page 2000", "outcome=unscored&page=2000"),
    ("page 2000", "page=2000"),
    ("search", "q=cat"),  # the API's parameter is `search`
)


def requests_to_time(built: Built) -> Iterator[Request]:
    """Yield every GET of the project a signed-in owner (or the participant) can open."""
    from tests.web import test_authorization_matrix as matrix

    for route in matrix.url_routes():
        text = route.route
        if text.startswith(matrix.ADMIN_PREFIX) or "GET" not in matrix.MATRIX[text]:
            continue
        rule = matrix.MATRIX[text]["GET"]
        api = matrix.is_api(text)
        scoring = "/results/" in text
        kinds = [""]
        if "<id:dataset_id>" in text and not scoring:
            kinds = ["generated", "imported", "learner"]
        for kind in kinds:
            args = dict(built.args)
            ids = built.datasets[
                "scored" if scoring else kind or ("learner" if "learner" in text else "generated")
            ]
            if "<id:dataset_id>" in text or "<str:uid>" in text or "<id:pair_id>" in text:
                args.update(dataset_id=ids["dataset_id"], uid=ids["uid"], pair_id=ids["pair_id"])
            if text.startswith("projects/<id:project_id>/jobs/"):
                args["job_id"] = built.datasets["generated"]["job_id"]
            world = _World(args, built.participant_token)
            try:
                path = matrix.build_url(text, world, "participant" if rule == "participant" else "owner")
            except KeyError as missing:  # a route newer than the kept database's ids
                log(f"not timed: {text} (no id for {missing})")
                continue
            path = path.split("?")[0] + EXTRA_QUERY.get(text, "").format(**args)
            yield Request(text, kind, path, api, anonymous=rule in ("visitor", "participant"))
            if text in PAIR_LISTS:
                joiner = "&" if "?" in path else "?"
                page = min(DEEP_PAGE, max(2, ids["pairs"] // 100))  # at most the middle page
                yield Request(text, f"{kind or 'learner'} page {page}", f"{path}{joiner}page={page}", api)
                if "learner" in text:
                    query = f"type={ERRANT_TYPES[len(ERRANT_TYPES) // 2]}&l1=German"
                    yield Request(text, "type + L1", f"{path}{joiner}{query}", api)
                else:
                    yield Request(text, f"{kind} one paradigm", f"{path}{joiner}uid={ids['uid']}", api)
            if text in RESULT_ITEMS:
                joiner = "&" if "?" in path else "?"
                for variant, query in ITEM_VARIANTS:
                    query = query.replace("q=", "search=") if api else query
                    yield Request(text, variant, f"{path}{joiner}{query}", api)


@dataclass
class _World:
    args: dict[str, Any]
    participant_token: str


@dataclass
class Timing:
    route: str
    variant: str
    path: str
    status: int
    queries: int
    seconds: list[float]
    slowest_sql: str = ""
    slowest_sql_s: float = 0.0

    @property
    def p50(self) -> float:
        return percentile(self.seconds, 0.50)

    @property
    def p95(self) -> float:
        return percentile(self.seconds, 0.95)


def _send(client: Any, path: str) -> tuple[int, float]:
    started = time.perf_counter()
    response = client.get(path)
    seconds = time.perf_counter() - started
    response.close()
    return response.status_code, seconds


def time_routes(built: Built, options: argparse.Namespace) -> tuple[list[Timing], list[Request]]:
    """Time every request (see the module docstring); return the timings and the requests left."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    page_client = Client(raise_request_exception=False)
    page_client.force_login(built.owner)
    token = Token.objects.get_or_create(user=built.owner)[0].key
    api_client = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {token}")
    anonymous = Client(raise_request_exception=False)
    only = re.compile(options.only) if options.only else None
    timings: list[Timing] = []
    left: list[Request] = []
    deadline = time.perf_counter() + options.budget_s
    with mock.patch("celery.app.task.Task.apply_async"):
        for request in requests_to_time(built):
            if only and not only.search(f"{request.route} {request.variant}"):
                continue
            if time.perf_counter() > deadline:
                left.append(request)
                continue
            client = anonymous if request.anonymous else api_client if request.api else page_client
            with CaptureQueriesContext(connection) as captured:
                status, first = _send(client, request.path)
            queries = list(captured.captured_queries)  # the next requests clear the log
            slowest = max(queries, key=lambda q: float(q["time"]), default=None)
            seconds = [first]
            if first < options.slow_s:
                seconds = [_send(client, request.path)[1] for _ in range(options.repeat)]
            timing = Timing(
                request.route,
                request.variant,
                request.path,
                status,
                len(queries),
                seconds,
                slowest_sql=" ".join(slowest["sql"].split())[:400] if slowest else "",
                slowest_sql_s=float(slowest["time"]) if slowest else 0.0,
            )
            timings.append(timing)
            flag = "  SLOW" if timing.p95 * 1000 > options.limit_ms else ""
            log(
                f"{timing.status} {timing.p50 * 1000:8.0f} {timing.p95 * 1000:8.0f} ms "
                f"{timing.queries:4d} q  {request.path}{flag}"
            )
    return timings, left


def report(built: Built, timings: list[Timing], left: list[Request], options: argparse.Namespace) -> int:
    """Print the table and the slow routes; return how many routes are over the limit."""
    print()
    sizes = built.sizes
    print(f"Project: {sizes['pairs']:,} pairs in {sizes['paradigms']:,} paradigms; ", end="")
    print(f"scored pairs: {sizes['scored_pairs']:,}; repeat {options.repeat}; ", end="")
    print(f"limit {options.limit_ms:.0f} ms p95")
    print()
    print("| route | variant | status | queries | p50 ms | p95 ms | |")
    print("|---|---|---|---|---|---|---|")
    slow = [t for t in timings if t.p95 * 1000 > options.limit_ms]
    for t in timings:
        mark = "**over**" if t in slow else ""
        print(
            f"| `{t.route}` | {t.variant} | {t.status} | {t.queries} | {t.p50 * 1000:,.0f} | "
            f"{t.p95 * 1000:,.0f} | {mark} |"
        )
    bad = [t for t in timings if t.status >= 400 and t.status not in (400,)]
    if bad:
        print("\nAnswered with an error status:")
        for t in bad:
            print(f"  {t.status} {t.path}")
    if slow:
        print(f"\n{len(slow)} route(s) over {options.limit_ms} ms p95; the slowest SQL of each:")
        for t in slow:
            print(f"  {t.p95:.2f} s {t.path}\n     {t.slowest_sql_s:.2f} s: {t.slowest_sql}")
    if left:
        print(f"\nNot timed (the --budget-s of {options.budget_s} s ran out): {len(left)} requests")
        for request in left:
            print(f"  {request.path}")
    print(f"\n{len(timings)} requests timed, {len(slow)} over {options.limit_ms} ms p95.")
    return len(slow)


def _setup(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "mpp_studio.settings.test"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _kept(path: Path) -> tuple[str, Built]:
    from django.contrib.auth import get_user_model

    data = json.loads(path.read_text())
    _setup(data["url"])
    owner = get_user_model().objects.get(pk=data["owner"])
    return data["url"], Built(data["args"], data["datasets"], data["participant_token"], owner, data["sizes"])


def _keep(path: Path, url: str, built: Built) -> None:
    kept = {
        "url": url,
        "args": built.args,
        "datasets": built.datasets,
        "participant_token": built.participant_token,
        "owner": built.owner.pk,
        "sizes": built.sizes,
    }
    path.write_text(json.dumps(kept, indent=1))
    log(f"database kept: {url} (ids in {path}; --reuse {path} times it again, --drop {path} drops it)")


@contextlib.contextmanager
def _database(options: argparse.Namespace) -> Iterator[str]:
    """Yield the URL of a new database: dropped afterwards unless `--keep` was given."""
    if not options.keep:
        with throwaway_database(options.postgres) as url:
            yield url
        return
    import psycopg
    from psycopg import sql

    name = f"mpp_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(options.postgres, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield options.postgres.rsplit("/", 1)[0] + "/" + name


def _drop(path: Path, server: str) -> None:
    import psycopg
    from psycopg import sql

    name = json.loads(path.read_text())["url"].rsplit("/", 1)[1]
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
    log(f"dropped {name}")


def _time_and_report(built: Built, options: argparse.Namespace) -> int:
    timings, left = time_routes(built, options)
    slow = report(built, timings, left, options)
    if options.json:
        figures = {
            "sizes": built.sizes,
            "options": {k: str(v) for k, v in vars(options).items()},
            "timings": [{**t.__dict__, "p50": t.p50, "p95": t.p95} for t in timings],
        }
        options.json.write_text(json.dumps(figures, indent=1))
    return slow


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/test")
    parser.add_argument("--pairs", type=int, default=5_000_000, help="pairs in the project (about)")
    parser.add_argument("--per-paradigm", type=int, default=20_000, help="pairs per generated paradigm")
    parser.add_argument("--templates", type=int, default=150)
    parser.add_argument("--items", type=int, default=3_000, help="items of the big vocabulary (BLiMP's size)")
    parser.add_argument("--scored", type=int, default=20_000, help="pairs scored by the scoring run")
    parser.add_argument("--participants", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5, help="timed requests per route")
    parser.add_argument("--limit-ms", type=float, default=1000.0)
    parser.add_argument("--slow-s", type=float, default=10.0, help="time slower routes once")
    parser.add_argument("--budget-s", type=float, default=1800.0, help="stop timing after this")
    parser.add_argument("--only", default="", help="time only routes (and variants) matching this")
    parser.add_argument("--json", type=Path, help="write the timings to this file")
    parser.add_argument("--keep", type=Path, help="keep the database; write its URL and ids here")
    parser.add_argument("--reuse", type=Path, help="time a database kept by --keep (migrated first)")
    parser.add_argument("--drop", type=Path, help="drop a database kept by --keep, and stop")
    options = parser.parse_args(argv)
    options.per_paradigm = min(options.per_paradigm, max(100, options.pairs // 100))
    if options.drop:
        _drop(options.drop, options.postgres)
        return 0
    if options.reuse:
        try:
            _, built = _kept(options.reuse)
            return 1 if _time_and_report(built, options) else 0
        finally:
            from django.db import connections

            connections.close_all()
    with _database(options) as url:
        try:
            _setup(url)
            built = build(options)
            if options.keep:
                _keep(options.keep, url, built)
            slow = _time_and_report(built, options)
        finally:
            from django.db import connections

            connections.close_all()
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
