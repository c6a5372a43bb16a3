#!/usr/bin/env bash
# Create .venv (Python 3.11) and install MPP Studio with its development tools, every package at
# the exact version in requirements-lock.txt (refresh it with scripts/lock.sh), as CI and the
# images do. Safe to run again: when pyproject.toml and the lock are unchanged since the last
# install, it returns at once.
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser test (tests/web/paradigms/test_browser.py) drives Debian's Chromium, and Chinese
# pages need a CJK font. Installed with apt when missing and running as root; otherwise say how.
# Never `playwright install`: it downloads browsers, which this project does not rely on.
system_packages=()
command -v chromium >/dev/null || system_packages+=(chromium)
if ! command -v fc-list >/dev/null || [ -z "$(fc-list :lang=zh family 2>/dev/null)" ]; then
  system_packages+=(fonts-noto-cjk)
fi
if [ ${#system_packages[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing ${system_packages[*]} with apt-get (for the browser test)"
    if ! { apt-get update -qq >/dev/null &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${system_packages[@]}" >/dev/null; }; then
      echo "setup: could not install ${system_packages[*]}; the browser test will be skipped" >&2
    fi
  else
    echo "setup: ${system_packages[*]} missing; the browser test is skipped without them." \
      "Install them with: sudo apt-get install ${system_packages[*]}" >&2
  fi
fi

venv=.venv
stamp="$venv/.pyproject.sha256"
python=${PYTHON:-python3.11}
lock=requirements-lock.txt
wanted=$(cat pyproject.toml "$lock" | sha256sum | cut -d' ' -f1)

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

echo "setup: installing MPP Studio (editable) with its dev tools at the versions of $lock"
"$venv/bin/python" -m pip install --quiet --progress-bar off --constraint "$lock" -e '.[dev]'
"$venv/bin/python" -m pip check

echo "$wanted" >"$stamp"
echo "setup: done"
