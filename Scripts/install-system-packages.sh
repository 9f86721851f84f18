#!/usr/bin/env bash
# Installs the Debian packages Switchyard builds and benchmarks with, if they are missing:
#   libsqlite3-dev  SQLite for `switchyard import` (the CSwitchyardSQLite system library target)
#   zlib1g-dev      zlib for reading and writing zip archives (the CSwitchyardZlib system library target)
#   libvips-dev     libvips for SwitchyardImages (the CVips target loads it; the default `Images` trait)
#   libjpeg-dev     libjpeg's headers, for CVips' direct JPEG path (it loads the libjpeg libvips decodes with);
#                   libjpeg62-turbo-dev on Debian, libjpeg-turbo8-dev on Ubuntu
#   openssl         the `openssl` command: SwitchyardHTTPTesting's StubCertificates makes test certificates with it,
#                   Scripts/postgres-dev.sh its server's
#   sqlite3         the `sqlite3` command, the anchor of `switchyard-bench import`, read by the CLI tests
#   nginx-light     the local server of `switchyard-bench http`
#   curl, aria2     the anchors of `switchyard-bench http` (`curl --parallel`, `aria2c`)
#   libvips-tools, imagemagick, python3-pil
#                   the anchors of `switchyard-bench images` (`vipsthumbnail`, `convert -thumbnail`, Pillow)
#   python3-venv    `python3 -m venv` with Debian's python3, for the venvs of the Python anchors of the push and
#                   durable benchmarks (Scripts/install-aioapns.sh, Scripts/install-durable-anchors.sh)
#   time            GNU time, which reports the anchors' and `switchyard fetch`'s peak memory
#   postgresql      the server and `psql`, for a throwaway local server (Scripts/postgres-dev.sh, which CI starts)
#   inotify-tools, entr
#                   the anchors of `switchyard-bench watch` (`inotifywait`, `entr`)
#   gdb             the thread stacks CI prints of a test process past its deadline (.ci/deadline)
# Safe to run repeatedly; does nothing when everything is installed. Needs root (or sudo) only to install.
set -euo pipefail

packages=(libsqlite3-dev zlib1g-dev libvips-dev libjpeg-dev openssl sqlite3 nginx-light curl aria2 time libvips-tools imagemagick python3-pil python3-venv postgresql inotify-tools entr gdb)
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null; then
    echo "error: missing ${missing[*]}, and this is not a Debian-based system: install SQLite 3, zlib and libvips development files" >&2
    exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
