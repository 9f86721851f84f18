// swift-tools-version: 6.2
//
// Switchyard: background work for Swift 6, Linux first.
//
// Layers (see ARCHITECTURE.md): the core `Switchyard` module depends on the toolchain and on single
// swift-collections modules only; `SwitchyardTesting` is test support; `SwitchyardTransit` is the GTFS import's
// library and `SwitchyardSampleFeeds` the synthetic feeds its tests and demos use. The command-line tools
// (`switchyard`, `switchyard-bench`) and the packages only they need live in the nested package `Tools/`, so that
// a package depending on Switchyard resolves swift-collections and nothing else.

import PackageDescription

// Test hooks (a refused thread start, a Ctrl-C at a known import step, counters of started tasks) exist in debug
// builds only: release builds carry none of them. The tests that use them are compiled under the same condition.
let testHooks: [SwiftSetting] = [.define("SWITCHYARD_TEST_HOOKS", .when(configuration: .debug))]

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Switchyard", targets: ["Switchyard"]),
        .library(name: "SwitchyardTesting", targets: ["SwitchyardTesting"]),
        .library(name: "SwitchyardTransit", targets: ["SwitchyardTransit"]),
        .library(name: "SwitchyardSampleFeeds", targets: ["SwitchyardSampleFeeds"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0")
    ],
    targets: [
        .target(
            name: "Switchyard",
            dependencies: [.product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: testHooks
        ),
        .target(name: "SwitchyardTesting"),
        // System C libraries (Debian: libsqlite3-dev, zlib1g-dev; `Scripts/install-system-packages.sh`).
        .systemLibrary(name: "CSwitchyardSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CSwitchyardZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // GTFS transit feeds into SQLite: the `switchyard import` job's library (zip reading, the GTFS model,
        // the SQLite writer, the import pipeline on the work engine).
        .target(
            name: "SwitchyardTransit", dependencies: ["Switchyard", "CSwitchyardSQLite", "CSwitchyardZlib"],
            swiftSettings: testHooks),
        // Synthetic GTFS feeds shaped like real ones (and the zip writer that packs them): fixtures for tests,
        // benchmarks and `switchyard import --sample`, kept out of the import library.
        .target(name: "SwitchyardSampleFeeds", dependencies: ["SwitchyardTransit", "CSwitchyardZlib"]),
        .testTarget(
            name: "SwitchyardTests", dependencies: ["Switchyard", "SwitchyardTesting"], swiftSettings: testHooks),
        .testTarget(name: "SwitchyardTestingTests", dependencies: ["SwitchyardTesting"]),
        .testTarget(
            name: "SwitchyardTransitTests",
            dependencies: ["SwitchyardTransit", "SwitchyardSampleFeeds", "SwitchyardTesting"],
            exclude: ["Zip/Fixtures"],  // archives written by Python's zipfile, and their generator
            swiftSettings: testHooks
        ),
        .testTarget(name: "SwitchyardSampleFeedsTests", dependencies: ["SwitchyardSampleFeeds", "SwitchyardTransit"]),
    ],
    swiftLanguageModes: [.v6]
)

// DocC, for CI's documentation step (`SWITCHYARD_DOCC=1 swift package generate-documentation --target NAME`). Off by
// default, so that a package depending on Switchyard resolves no documentation tooling.
if Context.environment["SWITCHYARD_DOCC"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
