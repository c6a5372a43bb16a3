#!/bin/sh
# Install MPP Studio's runtime (no dev tools) into a Python environment: the one install step of
# both images (docker/Dockerfile, docker/Dockerfile.cuda) and of CI's image check
# (docker/check-image-steps.sh), so what CI exercises is what the images run.
#
#   docker/install.sh PYTHON [EXTRAS]      e.g. docker/install.sh python3 flower
#
# Like scripts/setup.sh: torch first, at the exact version pyproject.toml pins, so that installing
# the project finds it satisfied and never swaps in another build. TORCH_INDEX_URL, when set, is
# the index torch comes from (the CPU image: PyTorch's CPU-only index, no CUDA libraries); unset,
# pip's own configuration decides (the CUDA image: PyPI's Linux build, which brings CUDA).
# Every other package is held at the version in requirements-lock.txt, the lock scripts/setup.sh
# and CI install from too (refresh it with scripts/lock.sh), so an image built next month has
# the versions CI tested.
set -eu
cd "$(dirname "$0")/.."

python=${1:?usage: docker/install.sh PYTHON [EXTRAS]}
extras=${2:-}

torch_pin=$(grep -o '"torch==[^"]*"' pyproject.toml | tr -d '"')
if [ -z "$torch_pin" ]; then
  echo "install: pyproject.toml must pin torch exactly (\"torch==X.Y.Z\")" >&2
  exit 1
fi

pip() { "$python" -m pip install --progress-bar off --disable-pip-version-check "$@"; }

echo "install: $torch_pin${TORCH_INDEX_URL:+ from $TORCH_INDEX_URL}"
if [ -n "${TORCH_INDEX_URL:-}" ]; then
  pip "$torch_pin" --index-url "$TORCH_INDEX_URL"
else
  pip "$torch_pin"
fi

# The images install before copying the code (a dependency layer that survives code changes):
# then only the install files are here, and an empty package stands in for each real one, so that
# the editable install resolves. The code copied in afterwards replaces them.
for package in platform/mpp_studio mpp generator triplets study scoring formats vocab; do
  if [ ! -f "$package/__init__.py" ]; then
    mkdir -p "$package" && : >"$package/__init__.py"
  fi
done

# Editable: the code runs from the source tree (/app in the images), because settings find the
# grammar library (templates/) beside platform/, and templates/ is data, not a package.
target=.
[ -n "$extras" ] && target=".[$extras]"
echo "install: MPP Studio $target with requirements-lock.txt"
pip --constraint requirements-lock.txt -e "$target"
"$python" -m pip check
