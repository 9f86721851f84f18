#!/usr/bin/env bash
# Installs the Python APNs client aioapns (from PyPI, at a pinned version) into its own virtual environment, for
# Benchmarks/Anchors/aioapns-anchor.py: the anchor that the push benchmark compares Switchyard's pushes per second with.
# A venv keeps it and its dependencies (h2, PyJWT, cryptography) out of the system's Python.
#
#   Scripts/install-aioapns.sh [VENV]   VENV defaults to Benchmarks/.build/aioapns-venv (relative to the repository root);
#                                       the anchor then runs as VENV/bin/python Benchmarks/Anchors/aioapns-anchor.py …
#
# Uses `python3` from PATH, or $PYTHON (3.10 or later). Debian's own python3 needs the package python3-venv for
# `-m venv` (Scripts/install-system-packages.sh installs it). Safe to run repeatedly: does nothing when VENV already
# has the pinned version; a VENV that is broken or holds another version is made anew (Scripts/pinned-venv.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${1:-Benchmarks/.build/aioapns-venv}"
source Scripts/pinned-venv.sh
pinned_venv "$venv" "aioapns" "the push benchmark's anchor" "aioapns==4.0"
