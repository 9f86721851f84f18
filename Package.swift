// swift-tools-version: 6.2
//
// Switchyard: background work for Swift 6, Linux first.
//
// Layers (see ARCHITECTURE.md): the core `Switchyard` module depends on the toolchain and on single
// swift-collections modules only; `SwitchyardTesting` is test support; the `switchyard` CLI and
// `switchyard-bench` sit on top. Nothing below imports anything above it.

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
        .executable(name: "switchyard", targets: ["SwitchyardCLI"]),
        .executable(name: "switchyard-bench", targets: ["SwitchyardBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Benchmark anchors only (suite `streams`): the CSV parsers Switchyard's CSVRecords is measured against.
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    ],
    targets: [
        .target(
            name: "Switchyard",
            dependencies: [.product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: testHooks
        ),
        .target(name: "SwitchyardTesting"),
        // System C libraries (Debian: libsqlite3-dev, zlib1g-dev; `Scripts/install-system-packages.sh`).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // GTFS transit feeds into SQLite: the `switchyard import` job's library (zip reading, the GTFS model,
        // the SQLite writer, the import pipeline on the work engine, sample feeds).
        .target(name: "SwitchyardTransit", dependencies: ["Switchyard", "CSQLite", "CZlib"], swiftSettings: testHooks),
        .executableTarget(
            name: "SwitchyardCLI",
            dependencies: [
                "Switchyard",
                "SwitchyardTransit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "SwitchyardBench",
            dependencies: [
                "Switchyard",
                "SwitchyardTransit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SwiftCSV", package: "SwiftCSV"),
                .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
        .testTarget(name: "SwitchyardTests", dependencies: ["Switchyard", "SwitchyardTesting"], swiftSettings: testHooks),
        .testTarget(name: "SwitchyardTestingTests", dependencies: ["SwitchyardTesting"]),
        .testTarget(
            name: "SwitchyardTransitTests", dependencies: ["SwitchyardTransit", "SwitchyardTesting"],
            swiftSettings: testHooks
        ),
        .testTarget(name: "SwitchyardCLITests", dependencies: ["SwitchyardCLI", "SwitchyardTransit"]),
    ],
    swiftLanguageModes: [.v6]
)

// DocC, for CI's documentation step (`SWITCHYARD_DOCC=1 swift package generate-documentation --target NAME`). Off by
// default, so that a package depending on Switchyard resolves no documentation tooling.
if Context.environment["SWITCHYARD_DOCC"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}

