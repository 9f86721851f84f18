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

source Scripts/pinned-venv.sh
pinned_venv "$venv" "asyncpg, pgqueuer, procrastinate, psycopg, psycopg_pool" "the durable anchors" "${packages[@]}"
