// swift-tools-version: 6.2
//
// Switchyard's command-line tools, apart from the library package (`..`) so that the packages only they need
// (swift-argument-parser; the benchmark's anchor CSV parsers) never reach a package that depends on Switchyard.
//
// - `switchyard`: the GTFS import (`switchyard import`), its status, sample feeds and stream commands.
// - `switchyard-bench`: every speed and memory goal, each measured against its anchor in the same run.

import PackageDescription

let package = Package(
    name: "SwitchyardTools",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SwitchyardHTTP", targets: ["SwitchyardHTTP"]),
        .library(name: "SwitchyardHTTPTesting", targets: ["SwitchyardHTTPTesting"]),
        .library(name: "SwitchyardImages", targets: ["SwitchyardImages"]),
        .library(name: "SwitchyardPostgres", targets: ["SwitchyardPostgres"]),
        .library(name: "SwitchyardPush", targets: ["SwitchyardPush"]),
        .library(name: "SwitchyardPushTesting", targets: ["SwitchyardPushTesting"]),
        .executable(name: "switchyard", targets: ["SwitchyardCLI"]),
        .executable(name: "switchyard-bench", targets: ["SwitchyardBench"]),
        .executable(name: "switchyard-mock-apns", targets: ["SwitchyardMockAPNs"]),
        .executable(name: "switchyard-push-load", targets: ["SwitchyardPushLoad"]),
    ],
    traits: [
        .trait(
            name: "Images",
            description: "SwitchyardImages and `switchyard thumbnails`, on the system's libvips (Debian: libvips-dev)"),
        .default(enabledTraits: ["Images"]),
    ],
    dependencies: [
        .package(name: "Switchyard", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // SwitchyardHTTP's client, and the stub server of SwitchyardHTTPTesting.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        // SwitchyardHTTP: to tell AsyncHTTPClient's default tracer (which discards every span) from a real one.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
        // SwitchyardPush: the FIFO of senders waiting for a stream (the core's own dependency).
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // SwitchyardPush: provider tokens (ES256) and encrypted key files (scrypt, AES-GCM).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // SwitchyardPostgres: `switchyard import --database postgres://…` (COPY FROM STDIN, transactions).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Benchmark anchors only (suite `streams`): the CSV parsers Switchyard's CSVRecords is measured against.
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        // Tests only: archives written and read by another implementation, to cross-check Switchyard's zip code.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // OpenSSL's libcrypto (Debian's libssl-dev, installed by Scripts/install-system-packages.sh): SHA-256 of
        // downloads on Linux (Apple platforms use CryptoKit).
        .systemLibrary(
            name: "CLibCrypto", path: "Sources/CLibCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]),
        .target(
            name: "SwitchyardHTTP",
            dependencies: [
                .product(name: "Switchyard", package: "Switchyard"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .target(name: "CLibCrypto", condition: .when(platforms: [.linux])),
            ]
        ),
        // The compiler flags for libvips' headers (Debian's libvips-dev 8.14, in /usr/include, installed by
        // Scripts/install-system-packages.sh): glib's, whose pkg-config file links glib and gobject only. libvips'
        // own would link libvips and the hundred libraries it needs into every program using SwitchyardImages.
        .systemLibrary(
            name: "CLibVips", path: "Sources/CLibVips", pkgConfig: "gobject-2.0",
            providers: [.apt(["libvips-dev"])]),
        // Apple platforms: libvips' own flags (Homebrew's headers are not on the default paths); libvips linked.
        .systemLibrary(
            name: "CLibVipsApple", path: "Sources/CLibVipsApple", pkgConfig: "vips", providers: [.brew(["vips"])]),
        // SwitchyardImages' calls into libvips: fixed-argument wrappers of its variadic operations, through pointers
        // resolved when libvips is loaded on first use (a program linking SwitchyardImages does not load libvips
        // and its libraries until it makes an image). Built only with the `Images` trait.
        .target(
            name: "CVips",
            dependencies: [
                .target(name: "CLibVips", condition: .when(platforms: [.linux], traits: ["Images"])),
                .target(
                    name: "CLibVipsApple",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS], traits: ["Images"])),
            ],
            path: "Sources/CVips", cSettings: [.define("SWITCHYARD_IMAGES", .when(traits: ["Images"]))]),
        // Without the `Images` trait the module is empty (its sources are inside `#if Images`) and links no libvips.
        .target(
            name: "SwitchyardImages",
            dependencies: [
                .product(name: "Switchyard", package: "Switchyard"),
                "SwitchyardHTTP",
                // Its locks (Thread Sanitizer sees them; it does not see the toolchain's Mutex on Linux).
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .target(name: "CVips", condition: .when(traits: ["Images"])),
            ]
        ),
        .target(
            name: "SwitchyardHTTPTesting",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // GTFS imports into PostgreSQL: a second destination of SwitchyardTransit's import pipeline.
        .target(
            name: "SwitchyardPostgres",
            dependencies: [
                .product(name: "Switchyard", package: "Switchyard"),
                .product(name: "SwitchyardTransit", package: "Switchyard"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // Push notifications through APNs: payloads, the checks APNs would make, signing keys and provider tokens.
        .target(
            name: "SwitchyardPush",
            dependencies: [
                .product(name: "Switchyard", package: "Switchyard"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // A local APNs for tests and the benchmark: HTTP/2 over TLS, APNs's checks and answers, scripted faults.
        .target(
            name: "SwitchyardPushTesting",
            dependencies: [
                "SwitchyardPush", "SwitchyardHTTPTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "SwitchyardCLI",
            dependencies: [
                .product(name: "Switchyard", package: "Switchyard"),
                .product(name: "SwitchyardTransit", package: "Switchyard"),
                .product(name: "SwitchyardSampleFeeds", package: "Switchyard"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "SwitchyardHTTP", "SwitchyardImages", "SwitchyardPostgres", "SwitchyardPush",
                // `switchyard push --ca-file`: the client's TLS trust roots.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // `switchyard fetch`: the event loop group its connections run on.
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // A local APNs to try `switchyard push` against: writes a key, tokens and the authority to trust.
        .executableTarget(
            name: "SwitchyardMockAPNs",
            dependencies: [
                "SwitchyardPush", "SwitchyardPushTesting", "SwitchyardHTTPTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // SwitchyardPush's client alone in a process, for the push benchmark's comparison with aioapns.
        .executableTarget(
            name: "SwitchyardPushLoad",
            dependencies: [
                "SwitchyardPush",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "SwitchyardBench",
            dependencies: [
                .product(name: "Switchyard", package: "Switchyard"),
                .product(name: "SwitchyardTransit", package: "Switchyard"),
                .product(name: "SwitchyardSampleFeeds", package: "Switchyard"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SwiftCSV", package: "SwiftCSV"),
                .product(name: "CSV", package: "CSV.swift"),
                "SwitchyardHTTP", "SwitchyardImages", "SwitchyardPostgres",
                // The push suite: the mock APNs both clients send to, and its certificates.
                "SwitchyardPush", "SwitchyardPushTesting", "SwitchyardHTTPTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // The images suite's generated corpus (photos with EXIF orientations, PNGs with alpha).
                .target(name: "CVipsFixtures", condition: .when(traits: ["Images"])),
            ]
        ),
        .testTarget(
            name: "SwitchyardCLITests",
            dependencies: [
                "SwitchyardCLI", "SwitchyardHTTPTesting", "SwitchyardImages", "SwitchyardPostgres",
                "SwitchyardPushTesting", .product(name: "Crypto", package: "swift-crypto"),
                .target(name: "CVipsFixtures", condition: .when(traits: ["Images"])),
                .product(name: "SwitchyardTransit", package: "Switchyard"),
                .product(name: "SwitchyardSampleFeeds", package: "Switchyard"),
                .product(name: "SwitchyardTesting", package: "Switchyard"),
            ]
        ),
        .testTarget(
            name: "SwitchyardHTTPTests",
            dependencies: [
                "SwitchyardHTTP", "SwitchyardHTTPTesting",
                .product(name: "SwitchyardTesting", package: "Switchyard"),
            ]
        ),
        // Test pictures made with libvips (EXIF orientations, every format), for SwitchyardImagesTests only.
        .target(
            name: "CVipsFixtures", dependencies: [.target(name: "CVips", condition: .when(traits: ["Images"]))],
            path: "Tests/CVipsFixtures", cSettings: [.define("SWITCHYARD_IMAGES", .when(traits: ["Images"]))],
            linkerSettings: ["vips", "gobject-2.0", "glib-2.0"].map { .linkedLibrary($0, .when(traits: ["Images"])) }),
        .testTarget(
            name: "SwitchyardImagesTests",
            dependencies: [
                "SwitchyardImages", "SwitchyardHTTP", "SwitchyardHTTPTesting",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .target(name: "CVipsFixtures", condition: .when(traits: ["Images"])),
                .product(name: "SwitchyardTesting", package: "Switchyard"),
            ]
        ),
        .testTarget(
            name: "SwitchyardPushTests",
            dependencies: [
                "SwitchyardPush", "SwitchyardPushTesting", "SwitchyardHTTPTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "SwitchyardTesting", package: "Switchyard"),
            ]
        ),
        .testTarget(
            name: "SwitchyardPostgresTests",
            dependencies: [
                "SwitchyardPostgres"
            ]
        ),
        .testTarget(
            name: "ZipInteropTests",
            dependencies: [
                .product(name: "SwitchyardTransit", package: "Switchyard"),
                .product(name: "SwitchyardSampleFeeds", package: "Switchyard"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// DocC, for CI's documentation step (`SWITCHYARD_DOCC=1 swift package --package-path Tools generate-documentation
// --target NAME`). Off by default: the tools' everyday builds resolve no documentation tooling.
if Context.environment["SWITCHYARD_DOCC"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
