#!/usr/bin/env bash
# Installs the Python job queues PgQueuer and procrastinate (from PyPI, at pinned versions, with the PostgreSQL
# driver each uses: asyncpg for PgQueuer, psycopg 3 with its binary build and psycopg_pool for procrastinate) into
# one virtual environment, for Benchmarks/Anchors/pgqueuer-anchor.py and procrastinate-anchor.py: the anchors that
# the durable queue benchmark compares Switchyard's jobs per second with. The two share no pinned package, so one
# venv holds both. A venv keeps them and their dependencies out of the system's Python.
#
#   Scripts/install-durable-anchors.sh [VENV]   VENV defaults to Benchmarks/.build/durable-venv (relative to the
#                                               repository root); the anchors then run as
#                                               VENV/bin/python Benchmarks/Anchors/pgqueuer-anchor.py …
#
# Uses `python3` from PATH, or $PYTHON (3.10 or later, as PgQueuer, procrastinate and psycopg need). Debian's own
# python3 needs the package python3-venv for `-m venv` (Scripts/install-system-packages.sh installs it). Safe to run
# repeatedly: does nothing when VENV already has the pinned versions; a VENV that is broken or holds other versions
# is made anew.
set -euo pipefail
cd "$(dirname "$0")/.."

# name==version, as pip takes them; the check below reads each back by its distribution name.
packages=(
    "pgqueuer==1.6.0"
    "asyncpg==0.32.0"
    "procrastinate==3.10.0"
    "psycopg==3.3.9"
    "psycopg-binary==3.3.9"
    "psycopg-pool==3.3.3"
)
venv="${1:-Benchmarks/.build/durable-venv}"
python="${PYTHON:-python3}"
wanted=$(printf '%s\n' "${packages[@]}")

# The installed versions in the same form (name==version, one a line), after importing each module once.
installed() {
    "$venv/bin/python" - "${packages[@]}" 2>/dev/null <<'EOF'
import importlib.metadata as m, sys
import asyncpg, pgqueuer, procrastinate, psycopg, psycopg_pool
for requirement in sys.argv[1:]:
    name = requirement.split("==")[0]
    print(f"{name}=={m.version(name)}")
EOF
}

if [ -x "$venv/bin/python" ] && [ "$(installed || true)" = "$wanted" ]; then
    exit 0
fi
if ! command -v "$python" >/dev/null; then
    echo "error: $python not found: install Python 3.10 or later (Debian: python3 python3-venv)" >&2
    exit 1
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    echo "error: $python is $("$python" --version 2>&1): the anchors need Python 3.10 or later (set PYTHON)" >&2
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
echo "installing ${packages[*]} into $venv"
mkdir -p "$(dirname "$venv")"
"$python" -m venv --clear "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "${packages[@]}"
if [ "$(installed || true)" != "$wanted" ]; then
    echo "error: ${packages[*]} did not install into $venv" >&2
    exit 1
fi
