#!/usr/bin/env bash
# Checks what a package depending on Switchyard by URL gets and pays for. The checkout (its working tree, committed
# or not: every file git tracks or does not ignore) is copied into a throwaway git repository tagged 1.0.0, which two
# throwaway client packages depend on by `file://` URL, as a user would by https:
#
#   core    `traits: []`, the `Switchyard` product: its Package.resolved must hold switchyard and swift-collections
#           only, and its build must compile no SwiftNIO (nor any other package).
#   full    the default traits, a program importing Switchyard, SwitchyardObservability, SwitchyardHTTP,
#           SwitchyardImages, SwitchyardPostgres and SwitchyardPush: it must build and run, and resolve SwiftNIO,
#           AsyncHTTPClient, postgres-nio and swift-crypto.
#   plan    the same client, resolved and planned (`swift build --print-manifest-job-graph`) but not compiled: the
#           products, their traits and flags as a dependency sees them, and the same resolution check. CI runs this
#           one: the benchmark package's release build compiles every library as another package's dependency.
#
#   Scripts/check-client-dependencies.sh [core|full|plan]...   (core and full when none is named)
#
# Everything lives in a temporary folder, removed on exit. The full client compiles SwiftNIO, AsyncHTTPClient,
# postgres-nio and swift-crypto in debug: minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
checks=("$@")
if [ ${#checks[@]} -eq 0 ]; then checks=(core full); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The repository a client resolves: this working tree as one commit, tagged.
mkdir "$work/switchyard"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
    if [ -e "$file" ] || [ -L "$file" ]; then printf '%s\0' "$file"; fi
done | tar --null -T - -cf - | tar -xf - -C "$work/switchyard"
git -C "$work/switchyard" init -q
git -C "$work/switchyard" add -A
git -C "$work/switchyard" -c user.name=check -c user.email=check@localhost commit -qm "the checkout under test"
git -C "$work/switchyard" tag 1.0.0
export SWITCHYARD_URL="file://$work/switchyard"

# A client package in $work/NAME with the given dependency arguments, products and main.swift.
client() {
    local name=$1 traits=$2 products=$3
    mkdir -p "$work/$name/Sources/Client"
    cat >"$work/$name/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "Client",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: Context.environment["SWITCHYARD_URL"]!, from: "1.0.0"$traits)],
    targets: [.executableTarget(name: "Client", dependencies: [$products])]
)
MANIFEST
    cat >"$work/$name/Sources/Client/main.swift"
}

# Builds and runs the client in $work/NAME (with `plan` as $2, plans its build only); prints its resolved packages.
build_and_run() {
    local name=$1 mode=${2:-run}
    # A cache of its own: the throwaway repository is not kept in SwiftPM's shared one.
    local build=(swift build --cache-path "$work/cache")
    if [ "$mode" = plan ]; then build+=(--print-manifest-job-graph); fi
    if ! (cd "$work/$name" && "${build[@]}" >"$work/$name/build.log" 2>&1); then
        cat "$work/$name/build.log"
        echo "error: the $name client did not build against this checkout" >&2
        exit 1
    fi
    if [ "$mode" = plan ]; then
        modules=$(grep -oE '/Modules/[A-Za-z0-9_]+\.swiftmodule' "$work/$name/build.log" | sort -u | wc -l)
        echo "the $name client's build plan compiles $modules Swift modules (not built here)"
    else
        (cd "$work/$name" && swift run --skip-build --cache-path "$work/cache" Client)
    fi
    if [ ! -f "$work/$name/Package.resolved" ]; then
        echo "error: the $name client's build wrote no Package.resolved" >&2
        exit 1
    fi
    pins=$(grep -oE '"identity" : "[^"]+"' "$work/$name/Package.resolved" | sed -E 's/.*: "(.*)"/\1/' | sort | tr '\n' ' ')
    echo "the $name client resolves: ${pins}"
}

for check in "${checks[@]}"; do
    case $check in
    core)
        client core ", traits: []" '.product(name: "Switchyard", package: "switchyard")' <<'SOURCE'
import Switchyard

let counter = Isolated(0, label: "client")
counter.withValueBlocking { $0 += 1 }
print("core client built against Switchyard: \(counter.withValueBlocking { $0 })")
SOURCE
        build_and_run core
        if [ "$pins" != "swift-collections switchyard " ]; then
            echo "error: a client with traits: [] should resolve switchyard and swift-collections only" >&2
            exit 1
        fi
        compiled=$(find "$work/core/.build" -name '*.swiftmodule' -path '*Modules*' -exec basename {} \; | sort -u |
            tr '\n' ' ')
        echo "the core client compiled: ${compiled}"
        if grep -qiE 'NIO' <<<"$compiled"; then
            echo "error: a client with traits: [] compiled SwiftNIO" >&2
            exit 1
        fi
        ;;
    full | plan)
        products=$(printf '.product(name: "%s", package: "switchyard"), ' \
            Switchyard SwitchyardObservability SwitchyardHTTP SwitchyardImages SwitchyardPostgres SwitchyardPush)
        client full "" "$products" <<'SOURCE'
import Switchyard
import SwitchyardHTTP
import SwitchyardImages
import SwitchyardObservability
import SwitchyardPostgres
import SwitchyardPush

let queue = WorkQueue(name: "client", width: 2)
let service = WorkQueueService(queue)
let session = HTTPSession(configuration: .init(name: "client"))
try await session.shutdown()
let url = try PostgresURL("postgres://user@127.0.0.1:5432/feeds?schema=vbb")
let payload = PushPayload(alert: .init(title: "Platform change", body: "The 17:42 leaves from platform 4"))
let images = await ImagePipeline.libvipsProblem() ?? "libvips loads"
let answer = try await queue.submit("answer") { 42 }.value
print("full client built against every library: \(answer), \(url.host), \(type(of: payload)), \(images), \(service.queue.name)")
SOURCE
        build_and_run full "$check"
        for package in swift-nio async-http-client postgres-nio swift-crypto; do
            if ! grep -q "$package " <<<"$pins"; then
                echo "error: the full client should resolve $package" >&2
                exit 1
            fi
        done
        ;;
    *)
        echo "usage: Scripts/check-client-dependencies.sh [core|full|plan]..." >&2
        exit 2
        ;;
    esac
done
