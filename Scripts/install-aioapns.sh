#!/usr/bin/env bash
# Installs the Python APNs client aioapns (from PyPI, at a pinned version) into its own virtual environment, for
# Benchmarks/Anchors/aioapns-anchor.py: the anchor that the push benchmark compares Switchyard's pushes per second with.
# A venv keeps it and its dependencies (h2, PyJWT, cryptography) out of the system's Python.
#
#   Scripts/install-aioapns.sh [VENV]   VENV defaults to Benchmarks/.build/aioapns-venv (relative to the repository root);
#                                       the anchor then runs as VENV/bin/python Benchmarks/Anchors/aioapns-anchor.py …
#
# Uses `python3` from PATH, or $PYTHON. Debian's own python3 needs the package python3-venv for `-m venv`
# (Scripts/install-system-packages.sh installs it). Safe to run repeatedly: does nothing when VENV already has the
# pinned version; a VENV that is broken or holds another version is made anew.
set -euo pipefail
cd "$(dirname "$0")/.."

version="4.0"
venv="${1:-Benchmarks/.build/aioapns-venv}"
python="${PYTHON:-python3}"

installed() {
    "$venv/bin/python" -c 'import importlib.metadata as m, aioapns; print(m.version("aioapns"))' 2>/dev/null
}

if [ -x "$venv/bin/python" ] && [ "$(installed || true)" = "$version" ]; then
    exit 0
fi
if ! command -v "$python" >/dev/null; then
    echo "error: $python not found: install Python 3.8 or later (Debian: python3 python3-venv)" >&2
    exit 1
fi
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    echo "error: $python cannot make a virtual environment: install python3-venv (Scripts/install-system-packages.sh)" >&2
    exit 1
fi
if [ -e "$venv" ] && [ ! -f "$venv/pyvenv.cfg" ]; then
    echo "error: $venv exists and is not a virtual environment: choose another folder" >&2
    exit 1
fi
echo "installing aioapns $version into $venv"
mkdir -p "$(dirname "$venv")"
"$python" -m venv --clear "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "aioapns==$version"
if [ "$(installed || true)" != "$version" ]; then
    echo "error: aioapns $version did not install into $venv" >&2
    exit 1
fi
