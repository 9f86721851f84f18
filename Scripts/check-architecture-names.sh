#!/usr/bin/env bash
# Checks ARCHITECTURE.md against the tree, three ways, and exits 1 naming whatever is stale or missing:
#
# 1. Names. Every capitalised identifier it mentions in backticks (optionally followed by `+Part`, `.member` or
#    `(…)`, as in `Cache+Access`, `CVips.h`, `ImportStatus.read(_:)`) exists: declared (struct, class, enum, protocol,
#    actor, typealias, extension) in Sources/, Tests/ or Benchmarks/Sources/; a Swift file's name or a part of one
#    (`Engine+Deadlock.swift` gives `Engine` and `Deadlock`); a module folder; a quoted name in one of the two
#    package manifests (a trait, a product); a path from the repository root; or a toolchain name listed below.
# 2. Paths. Every path it mentions in backticks whose first component is capitalised (`Sources/Switchyard/Work/`,
#    `Examples/apns-faults.json`) exists, relative to the repository root: a folder if it ends in `/`. Paths with a
#    placeholder (`<Module>`, `*`, `…`) are skipped.
# 3. Coverage. Every folder under Sources/ and Benchmarks/Sources/ that holds source files itself (.swift, .c, .h,
#    .modulemap) is mentioned, in backticks, by its path from the repository root with a trailing slash:
#    `Sources/Switchyard/Work/Engine/`.
set -euo pipefail
export LC_ALL=C  # one collation for sort and comm
cd "$(dirname "$0")/.."
doc=ARCHITECTURE.md
roots=(Sources Tests Benchmarks/Sources)
external="Atomic Mutex Task DequeModule Synchronization Dispatch Foundation Glibc Darwin Testing XCTest Encodable NSCache"

# 1. Names.
known=$(
    {
        grep -rhoE --include='*.swift' '(struct|class|enum|protocol|actor|typealias|extension)[[:space:]]+[A-Za-z_][A-Za-z0-9_]*' \
            "${roots[@]}" | awk '{ print $2 }'
        find "${roots[@]}" -name '*.swift' -exec basename {} .swift \; | tr '+' '\n'
        for root in "${roots[@]}"; do
            for folder in "$root"/*; do if [ -d "$folder" ]; then basename "$folder"; fi; done
        done
        grep -ohE '"[A-Z][A-Za-z0-9]*"' Package.swift Benchmarks/Package.swift | tr -d '"'
        printf '%s\n' $external
    } | sort -u
)
wanted=$(
    grep -oE '`[A-Z][A-Za-z0-9]+([+.(][^`]*)?`' "$doc" | tr -d '`' | sort -u | while IFS= read -r token; do
        [ -e "$token" ] && continue  # a file at the root, such as Package.swift
        printf '%s\n' "$token" | sed -E 's/^([A-Za-z0-9]+).*/\1/'
    done | sort -u
)
stale_names=$(comm -23 <(printf '%s\n' "$wanted") <(printf '%s\n' "$known") | grep . || true)

# 2. Paths.
stale_paths=$(
    grep -oE '`[A-Z][A-Za-z0-9_-]*/[^`]*`' "$doc" | tr -d '`' | sort -u | while IFS= read -r path; do
        case "$path" in *'<'* | *'*'* | *'…'* | *' '*) continue ;; esac
        case "$path" in
            */) [ -d "$path" ] || printf '%s\n' "$path" ;;
            *) [ -e "$path" ] || printf '%s\n' "$path" ;;
        esac
    done
)

# 3. Coverage.
unmapped=$(
    find Sources Benchmarks/Sources -type f \( -name '*.swift' -o -name '*.c' -o -name '*.h' -o -name '*.modulemap' \) \
        -exec dirname {} \; | sort -u | while IFS= read -r folder; do
        grep -qF "\`$folder/\`" "$doc" || printf '%s/\n' "$folder"
    done
)

failed=0
if [ -n "$stale_names" ]; then
    echo "error: $doc names what the tree no longer has: $(echo $stale_names)" >&2
    failed=1
fi
if [ -n "$stale_paths" ]; then
    echo "error: $doc mentions paths that do not exist: $(echo $stale_paths)" >&2
    failed=1
fi
if [ -n "$unmapped" ]; then
    echo "error: $doc does not map these source folders (mention each as \`path/from/root/\`): $(echo $unmapped)" >&2
    failed=1
fi
[ "$failed" -eq 0 ] || exit 1
echo "$doc: every name and path it mentions exists, and it maps every source folder"
