"""Memory of a released-dataset import: what reading and storing costs beyond the process itself.

Each case runs in a fresh Python process on a fresh SQLite database (a temporary folder): Django
is set up, a project made and the import started as the web request starts it
(`dataset_import_start`: the files kept on disk); the process's peak resident memory is read
(`ru_maxrss`), then the job runs (`dataset_import_run`, as the worker runs it) and the peak is
read again. The difference is what the import cost. Cases:

- accepted: `--pairs` (500,000) BLiMP-format pairs in one JSONL file, all stored;
- refused: a 6.4 MiB zip that unpacks to 2,400,000 pairs (the issue's probe), refused by the job
  at the 500,001st pair, nothing kept.

Targets (issue 14): an accepted 500,000-pair import at most ~400 MB more, a refused one ~100 MB.

Run: PYTHONPATH=platform:. .venv/bin/python bench/import_memory.py [--pairs 500000]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.server_stack import run  # noqa: E402

CASE = """
import django, json, resource, sys, time
django.setup()
from django.contrib.auth import get_user_model
from mpp_studio.accounts.models import Project
from mpp_studio.datasets.models import Dataset, Pair
from mpp_studio.datasets.services import UploadedFile, dataset_import_run, dataset_import_start

def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

user = get_user_model().objects.create_user("bench")
project = Project.objects.create(name="Memory", created_by=user)
path = sys.argv[1]
name = path.rsplit("/", 1)[-1]
with open(path, "rb") as stream:
    dataset = dataset_import_start(project=project, name="Memory", files=[UploadedFile(name, stream)])
before = peak_mb()
began = time.perf_counter()
dataset_import_run(dataset_id=dataset.pk)
seconds = time.perf_counter() - began
dataset.refresh_from_db()
print(json.dumps({"before_mb": before, "after_mb": peak_mb(), "seconds": seconds,
                  "status": dataset.job.status, "message": dataset.job.message,
                  "pairs": Pair.objects.filter(paradigm__dataset=dataset).count()}))
"""


def blimp_line(n: int) -> bytes:
    """Return BLiMP's JSONL line of pair `n` (20 paradigms)."""
    line = {
        "sentence_good": f"the cat number {n} sleeps .",
        "sentence_bad": f"the cat number {n} sleep .",
        "UID": f"u{n % 20}",
        "linguistics_term": "agreement",
        "pairID": str(n),
    }
    return json.dumps(line).encode() + b"\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=500_000)
    parser.add_argument("--zip-pairs", type=int, default=2_400_000)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="mpp-bench-import-memory-"))
    accepted = folder / "release.jsonl"
    with accepted.open("wb") as out:
        for n in range(args.pairs):
            out.write(blimp_line(n))
    refused = folder / "bomb.zip"
    with (
        zipfile.ZipFile(refused, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open("data.jsonl", "w") as member,
    ):
        # Short lines, as in the probe (207 MiB for 2.4 M pairs): under the 256 MiB the request
        # checks by the zip's directory, so the job is what must refuse it.
        line = (
            json.dumps(
                {"sentence_good": "A b.", "sentence_bad": "B a.", "field": "s", "UID": "u", "pairID": "7"},
                separators=(",", ":"),
            ).encode()
            + b"\n"
        )
        for _ in range(args.zip_pairs):
            member.write(line)
    try:
        return measure_cases([("accepted", accepted), ("refused (zip)", refused)], folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def measure_cases(cases: list[tuple[str, Path]], folder: Path) -> int:
    """Run each case in a fresh process on a fresh database; print its memory; 1 on a failure."""
    print(f"{os.cpu_count()} CPUs; SQLite file; each case a fresh process")
    for name, path in cases:
        var = folder / name.split()[0]
        env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        env.update(
            PYTHONPATH=os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
            DJANGO_SETTINGS_MODULE="mpp_studio.settings.local",
            DJANGO_DEBUG="false",  # as scripts/start.sh runs it
            MPP_VAR_DIR=str(var),
        )
        run(env, "migrate", "--noinput")
        done = subprocess.run(
            [sys.executable, "-c", CASE, str(path)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=3600,
        )
        if done.returncode != 0:
            print(f"{name}: failed\n{done.stderr[-3000:]}")
            return 1
        result = json.loads(done.stdout.strip().splitlines()[-1])
        size = path.stat().st_size / 1024 / 1024
        extra = result["after_mb"] - result["before_mb"]
        print(
            f"{name}: file {size:.1f} MiB; job {result['status']} in {result['seconds']:.0f} s, "
            f"{result['pairs']:,} pairs kept; peak RSS {result['before_mb']:.0f} MB before the job, "
            f"{result['after_mb']:.0f} MB after: +{extra:.0f} MB"
        )
        print(f"  {result['message']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
