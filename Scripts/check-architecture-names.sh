#!/usr/bin/env bash
# Checks that every type, module and file name ARCHITECTURE.md mentions in backticks (a capitalised identifier,
# optionally followed by `+Part`, `.member` or `(…)`) still exists: declared in Sources/ or Tools/Sources/, a source file's name,
# or a module folder; or one of the toolchain's names listed below. Exits 1 naming the stale ones.
set -euo pipefail
cd "$(dirname "$0")/.."
external="Atomic Mutex Task DequeModule Synchronization Dispatch Foundation Glibc Darwin Testing XCTest Encodable"
stale=()
for name in $(grep -oE '`[A-Z][A-Za-z0-9]+([+.(][^`]*)?`' ARCHITECTURE.md | sed -E 's/^`([A-Za-z0-9]+).*/\1/' | sort -u); do
    case " $external " in *" $name "*) continue ;; esac
    [ -d "Sources/$name" ] || [ -d "Tools/Sources/$name" ] && continue
    find Sources Tools/Sources -name "$name.swift" -o -name "$name+*.swift" -o -name "*+$name.swift" | grep -q . && continue
    grep -rqE "(struct|class|enum|protocol|actor|typealias|extension)[[:space:]]+$name\b" Sources Tools/Sources && continue
    stale+=("$name")
done
if [ ${#stale[@]} -gt 0 ]; then
    echo "error: ARCHITECTURE.md names what Sources/ no longer has: ${stale[*]}" >&2
    exit 1
fi
echo "ARCHITECTURE.md: every name it mentions exists"
