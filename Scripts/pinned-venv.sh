# Sourced by the Scripts/install-*.sh that put Python packages from PyPI into a virtual environment of their own:
# defines `pinned_venv`, which makes (or keeps) a venv holding exactly the pinned versions.
#
#   pinned_venv VENV "IMPORTS" PURPOSE NAME==VERSION…
#
# VENV is the venv's folder; IMPORTS the Python modules to import (comma-separated) to prove the packages load;
# PURPOSE what they are for, in error messages. Uses `python3` from PATH, or $PYTHON (3.10 or later); Debian's own
# python3 needs python3-venv for `-m venv` (Scripts/install-system-packages.sh installs it). Does nothing when VENV
# already holds the pinned versions; a VENV that is broken or holds other versions is made anew; exits with status 1
# and a message when it cannot.
pinned_venv() {
    local venv=$1 imports=$2 purpose=$3
    shift 3
    local packages=("$@")
    local python="${PYTHON:-python3}"
    local wanted
    wanted=$(printf '%s\n' "${packages[@]}")
    # The installed versions in the same form (name==version, one a line), after importing the modules once.
    installed() {
        "$venv/bin/python" - "${packages[@]}" 2>/dev/null <<PYTHON
import importlib.metadata as m, sys
import $imports
for requirement in sys.argv[1:]:
    name = requirement.split("==")[0]
    print(f"{name}=={m.version(name)}")
PYTHON
    }
    if [ -x "$venv/bin/python" ] && [ "$(installed || true)" = "$wanted" ]; then
        return 0
    fi
    if ! command -v "$python" >/dev/null; then
        echo "error: $python not found: install Python 3.10 or later (Debian: python3 python3-venv)" >&2
        exit 1
    fi
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
        echo "error: $python is $("$python" --version 2>&1): $purpose needs Python 3.10 or later (set PYTHON)" >&2
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
}
