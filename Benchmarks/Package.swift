// swift-tools-version: 6.2
//
// Switchyard's benchmarks, apart from the library package (`..`) so that what only measurements need (the anchor
// CSV parsers, the push load generator) never reaches a package that depends on Switchyard.
//
// - `switchyard-bench`: every speed and memory goal, each measured against its anchor in the same run.
// - `switchyard-push-load`: SwitchyardPush's client alone in a process, against Python's aioapns (Anchors/).
//
// The bench depends on the commands its suites run as child processes (`switchyard`, `switchyard-push-load`), so one
// build puts them all in one folder:
//
//     swift run -c release --package-path Benchmarks switchyard-bench [SUITE...] [--json]

import PackageDescription

let package = Package(
    name: "SwitchyardBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "switchyard-bench", targets: ["SwitchyardBench"]),
        .executable(name: "switchyard-push-load", targets: ["SwitchyardPushLoad"]),
    ],
    traits: [
        .trait(name: "Images", description: "the `images` suite, on the system's libvips (Debian: libvips-dev)"),
        .default(enabledTraits: ["Images"]),
    ],
    dependencies: [
        .package(
            name: "Switchyard", path: "..",
            traits: [
                "HTTP", "Postgres", "Push", "CLI", "Dashboard", "Watch",
                .trait(name: "Images", condition: .when(traits: ["Images"])),
            ]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // The durable suite's client and pool (the same versions the library resolves).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The dashboard suite's servers log nothing (a no-op handler), so that standard output stays the report's.
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // The watch suite's paths (`FilePath`, the type FileWatcher takes; the version the library resolves).
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
        // Anchors of the `streams` suite: the CSV parsers Switchyard's CSVRecords is measured against.
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "SwitchyardBench",
            dependencies: [
                .product(name: "Switchyard", package: "Switchyard"),
                .product(name: "SwitchyardTransit", package: "Switchyard"),
                .product(name: "SwitchyardSampleFeeds", package: "Switchyard"),
                .product(name: "SwitchyardHTTP", package: "Switchyard"),
                .product(name: "SwitchyardHTTPTesting", package: "Switchyard"),
                .product(name: "SwitchyardImages", package: "Switchyard"),
                .product(name: "SwitchyardPostgres", package: "Switchyard"),
                // The dashboard suite: the dashboard, its server, and the queues it watches.
                .product(name: "SwitchyardDashboard", package: "Switchyard"),
                // The push suite: the mock APNs both clients send to, and its certificates.
                .product(name: "SwitchyardPush", package: "Switchyard"),
                .product(name: "SwitchyardPushTesting", package: "Switchyard"),
                // The watch suite: the file watcher, and the paths it takes.
                .product(name: "SwitchyardWatch", package: "Switchyard"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftCSV", package: "SwiftCSV"),
                .product(name: "CSV", package: "CSV.swift"),
                // The images suite's generated corpus (photos with EXIF orientations, PNGs with alpha).
                .target(name: "CVipsFixtures", condition: .when(traits: ["Images"])),
                // Commands the http, images, push and watch suites run as child processes: built beside the bench.
                .product(name: "switchyard", package: "Switchyard"),
                "SwitchyardPushLoad",
            ]
        ),
        .executableTarget(
            name: "SwitchyardPushLoad",
            dependencies: [
                .product(name: "SwitchyardPush", package: "Switchyard"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // libvips' flags, for the C target below (Debian's libvips-dev).
        .systemLibrary(name: "CBenchLibVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // The test pictures of the package above (a link to its `Tests/CVipsFixtures`), for the images suite's
        // corpus and its decoding ceiling.
        .target(
            name: "CVipsFixtures",
            dependencies: [.target(name: "CBenchLibVips", condition: .when(traits: ["Images"]))],
            cSettings: [.define("SWITCHYARD_IMAGES", .when(traits: ["Images"]))]),
    ],
    swiftLanguageModes: [.v6]
)
