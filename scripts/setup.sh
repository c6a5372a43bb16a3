#!/usr/bin/env bash
# Create .venv (Python 3.11) and install MPP Studio with its development tools.
# Safe to run again: when pyproject.toml is unchanged since the last install, it returns at once.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv
stamp="$venv/.pyproject.sha256"
python=${PYTHON:-python3.11}
wanted=$(sha256sum pyproject.toml | cut -d' ' -f1)

if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
  echo "setup: $venv is up to date"
  exit 0
fi

if [ ! -x "$venv/bin/python" ]; then
  if ! command -v "$python" >/dev/null; then
    echo "setup: $python not found; install Python 3.11 or set PYTHON=/path/to/python3.11" >&2
    exit 1
  fi
  echo "setup: creating $venv with $python"
  "$python" -m venv "$venv"
fi

# torch first, pinned exactly as pyproject.toml pins it. With that version already installed,
# installing the project finds the requirement satisfied, so pip never swaps in the registry's
# CUDA build (several GB) on a CPU machine. pip's find-links supply the local CPU wheel.
torch_pin=$(grep -o '"torch==[^"]*"' pyproject.toml | tr -d '"')
if [ -z "$torch_pin" ]; then
  echo "setup: pyproject.toml must pin torch exactly (\"torch==X.Y.Z\")" >&2
  exit 1
fi
echo "setup: installing $torch_pin"
"$venv/bin/python" -m pip install --quiet --progress-bar off "$torch_pin"

echo "setup: installing MPP Studio (editable) with its dev tools"
"$venv/bin/python" -m pip install --quiet --progress-bar off -e '.[dev]'

echo "$wanted" >"$stamp"
echo "setup: done"
