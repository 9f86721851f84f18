#!/usr/bin/env bash
# Checks what a package depending on Switchyard pays for: builds a throwaway client package whose one target depends
# on the `Switchyard` product of this checkout, and fails if its resolved dependencies are anything other than
# swift-collections (no argument parser, no CSV parser, no documentation tooling: those belong to `Tools/` and CI).
# The client lives in a temporary folder, removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
client=$(mktemp -d)
trap 'rm -rf "$client"' EXIT
mkdir -p "$client/Sources/Client"
# The checkout's path reaches the manifest through the environment, so that any folder name or character works.
cat >"$client/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "Client",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Switchyard", path: Context.environment["SWITCHYARD_CHECKOUT"]!)],
    targets: [.executableTarget(name: "Client", dependencies: [.product(name: "Switchyard", package: "Switchyard")])]
)
MANIFEST
cat >"$client/Sources/Client/main.swift" <<'SOURCE'
import Switchyard

let counter = Isolated(0, label: "client")
counter.withValueBlocking { $0 += 1 }
print("client built against Switchyard: \(counter.withValueBlocking { $0 })")
SOURCE
export SWITCHYARD_CHECKOUT=$(pwd)
if ! (cd "$client" && swift build >"$client/build.log" 2>&1); then
    cat "$client/build.log"
    echo "error: the client package did not build against this checkout" >&2
    exit 1
fi
(cd "$client" && swift run --skip-build Client)
if [ ! -f "$client/Package.resolved" ]; then
    echo "error: the client's build wrote no Package.resolved" >&2
    exit 1
fi
pins=$(grep -oE '"identity" : "[^"]+"' "$client/Package.resolved" | sed -E 's/.*: "(.*)"/\1/' | sort | tr '\n' ' ')
echo "a client of the Switchyard product resolves: ${pins}"
if [ "$pins" != "swift-collections " ]; then
    echo "error: a client of the Switchyard product should resolve swift-collections only" >&2
    exit 1
fi
