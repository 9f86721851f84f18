#!/usr/bin/env bash
# Installs what the dashboard's browser tests (Tests/Browser/dashboard_browser_test.py) run with: Playwright for
# Python and axe-playwright-python (from PyPI, at pinned versions) in a virtual environment, and Debian's `chromium`,
# the browser Playwright drives. Playwright's own browser builds are never downloaded (`playwright install` is not
# run): the tests point Playwright at /usr/bin/chromium.
#
#   Scripts/install-browser-tests.sh [VENV]   VENV defaults to .build/browser-venv (relative to the repository root);
#                                             the tests then run as
#                                             VENV/bin/python Tests/Browser/dashboard_browser_test.py …
#
# Uses `python3` from PATH, or $PYTHON (3.10 or later). Debian's own python3 needs the package python3-venv for
# `-m venv` (Scripts/install-system-packages.sh installs it). Installing chromium needs root (or sudo). Safe to run
# repeatedly: does nothing when chromium is installed and VENV already has the pinned versions; a VENV that is broken
# or holds other versions is made anew.
set -euo pipefail
cd "$(dirname "$0")/.."

# name==version, as pip takes them; the check below reads each back by its distribution name.
packages=(
    "playwright==1.65.2"
    "axe-playwright-python==0.1.8"
)
venv="${1:-.build/browser-venv}"

# Debian's chromium, at /usr/bin/chromium.
if ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed"; then
    if ! command -v apt-get >/dev/null; then
        echo "error: chromium is missing, and this is not a Debian-based system: install it at /usr/bin/chromium" >&2
        exit 1
    fi
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "installing chromium"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium
fi
if [ ! -x /usr/bin/chromium ]; then
    echo "error: /usr/bin/chromium is missing although the chromium package is installed" >&2
    exit 1
fi

source Scripts/pinned-venv.sh
pinned_venv "$venv" "playwright.sync_api, axe_playwright_python.sync_playwright" "the browser tests" "${packages[@]}"
