// swift-tools-version: 6.2
//
// Switchyard: background work for Swift 6, Linux first.
//
// One package, every library a product. The core (`Switchyard`), its test support (`SwitchyardTesting`), the GTFS
// import (`SwitchyardTransit`) and its synthetic feeds (`SwitchyardSampleFeeds`) need swift-collections and the
// system's SQLite and zlib only. The parts with heavy or system dependencies sit behind package traits (SE-0450):
//
//   Observability  SwitchyardObservability                     swift-log, swift-metrics, swift-service-lifecycle
//   HTTP      SwitchyardHTTP, SwitchyardHTTPTesting            AsyncHTTPClient, SwiftNIO (+SSL, HTTP/2), swift-crypto
//   Images    SwitchyardImages (implies HTTP)                  the system's libvips, loaded on first use
//   Postgres  SwitchyardPostgres                               postgres-nio
//   Push      SwitchyardPush, SwitchyardPushTesting            swift-crypto, SwiftNIO (+SSL, HTTP/2), swift-log,
//                                                              swift-metrics, swift-service-lifecycle
//   Dashboard SwitchyardDashboard (its durable source with Postgres) Hummingbird, swift-log,
//                                                              swift-service-lifecycle
//   Watch     SwitchyardWatch                                   swift-system
//   CLI       `switchyard`, `switchyard-mock-apns` (implies HTTP, Postgres, Push, Dashboard, Watch)
//                                                              swift-argument-parser
//
// Every package that only an optional part uses is referenced under `.when(traits:)` only, so a client that turns
// the traits off resolves and builds none of it: `traits: []` gives swift-collections alone. A module whose trait is
// off compiles empty (its sources are inside `#if TRAIT`) and links nothing. The default traits are all of them, so
// that `swift run` and `swift test` here build the whole project. `switchyard-bench` and what only measurements need
// live in the nested package `Benchmarks/`.

import PackageDescription

// Test hooks (a refused thread start, a Ctrl-C at a known import step, counters of started tasks, waits for joined
// callers and received bytes, a render's reads) exist in debug builds only: release builds carry none of them. The
// tests that use them are compiled under the same condition.
let testHooks: [SwiftSetting] = [.define("SWITCHYARD_TEST_HOOKS", .when(configuration: .debug))]

let applePlatforms: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS]

/// A product of another package, used only when one of `traits` is enabled.
func product(_ name: String, _ package: String, when traits: Set<String>) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: traits))
}

// MARK: - The core, the GTFS import and their tests (no trait: always built)

let coreTargets: [Target] = {
    [
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
            name: "SwitchyardTransit",
            dependencies: [
                "Switchyard", "CSwitchyardSQLite", "CSwitchyardZlib",
                // The import's metrics (ImportMetrics), with the traits that build swift-metrics.
                product("CoreMetrics", "swift-metrics", when: ["Observability", "Postgres"]),
            ],
            swiftSettings: testHooks),
        // Synthetic GTFS feeds shaped like real ones (and the zip writer that packs them): fixtures for tests,
        // benchmarks and `switchyard import --sample`, kept out of the import library.
        .target(name: "SwitchyardSampleFeeds", dependencies: ["Switchyard", "SwitchyardTransit", "CSwitchyardZlib"]),
        .testTarget(
            name: "SwitchyardTests", dependencies: ["Switchyard", "SwitchyardTesting"], swiftSettings: testHooks),
        .testTarget(name: "SwitchyardTestingTests", dependencies: ["SwitchyardTesting"]),
        .testTarget(
            name: "SwitchyardTransitTests",
            dependencies: [
                "SwitchyardTransit", "SwitchyardSampleFeeds", "SwitchyardTesting",
                product("MetricsTestKit", "swift-metrics", when: ["Observability"]),
            ],
            exclude: ["Zip/Fixtures"],  // archives written by Python's zipfile, and their generator
            swiftSettings: testHooks
        ),
        .testTarget(
            name: "SwitchyardSampleFeedsTests",
            dependencies: ["Switchyard", "SwitchyardSampleFeeds", "SwitchyardTransit"]),
        // Archives written and read by ZIPFoundation, cross-checking the zip reader and writer.
        .testTarget(
            name: "ZipInteropTests",
            dependencies: [
                "SwitchyardTransit", "SwitchyardSampleFeeds",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]),
    ]
}()

// MARK: - Trait Observability

let observabilityTargets: [Target] = {
    [
        // Work queues as swift-service-lifecycle services, reported to swift-metrics and swift-log.
        .target(
            name: "SwitchyardObservability",
            dependencies: [
                "Switchyard",
                product("Logging", "swift-log", when: ["Observability"]),
                product("CoreMetrics", "swift-metrics", when: ["Observability"]),
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["Observability"]),
            ]
        ),
        .testTarget(
            name: "SwitchyardObservabilityTests",
            dependencies: [
                "SwitchyardObservability", "SwitchyardTesting",
                product("MetricsTestKit", "swift-metrics", when: ["Observability"]),
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["Observability"]),
                product("Logging", "swift-log", when: ["Observability"]),
            ]),
    ]
}()

// MARK: - Shared by the traits HTTP, Postgres and Push

let networkingTargets: [Target] = {
    [
        // A connection's failure in words (refused, reset, no such host, TLS), for the package's SwiftNIO clients;
        // in no product of its own.
        .target(
            name: "SwitchyardNetworking",
            dependencies: [
                product("NIOCore", "swift-nio", when: ["HTTP", "Postgres", "Push"]),
                product("NIOPosix", "swift-nio", when: ["HTTP", "Postgres", "Push"]),
                product("NIOSSL", "swift-nio-ssl", when: ["HTTP", "Postgres", "Push"]),
            ])
    ]
}()

// MARK: - Trait HTTP

let httpTargets: [Target] = {
    [
        .target(
            name: "SwitchyardHTTP",
            dependencies: [
                "Switchyard", "SwitchyardNetworking",
                product("AsyncHTTPClient", "async-http-client", when: ["HTTP"]),
                product("NIOCore", "swift-nio", when: ["HTTP"]),
                product("NIOPosix", "swift-nio", when: ["HTTP"]),
                product("NIOConcurrencyHelpers", "swift-nio", when: ["HTTP"]),
                product("NIOHTTP1", "swift-nio", when: ["HTTP"]),
                product("NIOHPACK", "swift-nio-http2", when: ["HTTP"]),
                product("NIOHTTP2", "swift-nio-http2", when: ["HTTP"]),
                product("NIOSSL", "swift-nio-ssl", when: ["HTTP"]),
                product("Tracing", "swift-distributed-tracing", when: ["HTTP"]),
                // SHA-256 of downloads (BoringSSL on Linux, CryptoKit on Apple platforms).
                product("Crypto", "swift-crypto", when: ["HTTP"]),
                // The session's logs, metrics and `Service` conformance.
                product("Logging", "swift-log", when: ["HTTP"]),
                product("CoreMetrics", "swift-metrics", when: ["HTTP"]),
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["HTTP"]),
            ],
            swiftSettings: testHooks
        ),
        // The scripted loopback server of HTTP tests; its certificates also serve the mock APNs (trait Push).
        .target(
            name: "SwitchyardHTTPTesting",
            dependencies: [
                product("NIOCore", "swift-nio", when: ["HTTP", "Push"]),
                product("NIOPosix", "swift-nio", when: ["HTTP", "Push"]),
                product("NIOHTTP1", "swift-nio", when: ["HTTP", "Push"]),
                product("NIOConcurrencyHelpers", "swift-nio", when: ["HTTP", "Push"]),
                product("NIOHTTP2", "swift-nio-http2", when: ["HTTP", "Push"]),
                product("NIOSSL", "swift-nio-ssl", when: ["HTTP", "Push"]),
                // `StubServer` as a `Service`.
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["HTTP", "Push"]),
            ]
        ),
        .testTarget(
            name: "SwitchyardHTTPTests",
            dependencies: [
                "SwitchyardHTTP", "SwitchyardHTTPTesting", "SwitchyardTesting", "SwitchyardNetworking",
                .target(name: "SwitchyardObservability", condition: .when(traits: ["Observability"])),
                product("NIOCore", "swift-nio", when: ["HTTP"]), product("NIOPosix", "swift-nio", when: ["HTTP"]),
                // ObservabilityTests: the session's metrics, logs and service.
                product("MetricsTestKit", "swift-metrics", when: ["HTTP"]),
                product("Logging", "swift-log", when: ["HTTP"]),
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["HTTP"]),
            ],
            swiftSettings: testHooks
        ),
    ]
}()

// MARK: - Trait Images

let imageTargets: [Target] = {
    [
        // The compiler flags for libvips' headers (Debian's libvips-dev, in /usr/include): glib's, whose pkg-config
        // file links glib and gobject only. libvips' own would link libvips and the hundred libraries it needs into
        // every program using SwitchyardImages.
        .systemLibrary(name: "CLibVips", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
        // Apple platforms: libvips' own flags (Homebrew's headers are not on the default paths); libvips linked.
        .systemLibrary(name: "CLibVipsApple", pkgConfig: "vips", providers: [.brew(["vips"])]),
        // SwitchyardImages' calls into libvips: fixed-argument wrappers of its variadic operations, through pointers
        // resolved when libvips is loaded on first use (a program linking SwitchyardImages does not load libvips
        // and its libraries until it makes an image).
        .target(
            name: "CVips",
            dependencies: [
                .target(name: "CLibVips", condition: .when(platforms: [.linux], traits: ["Images"])),
                .target(name: "CLibVipsApple", condition: .when(platforms: applePlatforms, traits: ["Images"])),
            ],
            cSettings: [
                .define("SWITCHYARD_IMAGES", .when(traits: ["Images"])),
                .define("SWITCHYARD_TEST_HOOKS", .when(configuration: .debug)),
            ]),
        .target(
            name: "SwitchyardImages",
            dependencies: [
                "Switchyard",
                .target(name: "SwitchyardHTTP", condition: .when(traits: ["Images"])),
                // Its locks (Thread Sanitizer sees them; it does not see the toolchain's Mutex on Linux).
                product("NIOConcurrencyHelpers", "swift-nio", when: ["Images"]),
                // SHA-256 of in-memory sources (their identity: `ImageSource.bytes`).
                product("Crypto", "swift-crypto", when: ["Images"]),
                .target(name: "CVips", condition: .when(traits: ["Images"])),
                // The pipeline's logs, metrics and `Service` conformance.
                product("Logging", "swift-log", when: ["Images"]),
                product("CoreMetrics", "swift-metrics", when: ["Images"]),
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["Images"]),
            ],
            swiftSettings: testHooks
        ),
        // Test pictures made with libvips (EXIF orientations, every format), for the image and CLI tests; the
        // benchmark's corpus is made by the same file (`Benchmarks/`).
        .target(
            name: "CVipsFixtures", dependencies: [.target(name: "CVips", condition: .when(traits: ["Images"]))],
            path: "Tests/CVipsFixtures", cSettings: [.define("SWITCHYARD_IMAGES", .when(traits: ["Images"]))],
            linkerSettings: ["vips", "gobject-2.0", "glib-2.0"].map { .linkedLibrary($0, .when(traits: ["Images"])) }),
        .testTarget(
            name: "SwitchyardImagesTests",
            dependencies: [
                "SwitchyardImages", "SwitchyardHTTP", "SwitchyardHTTPTesting", "SwitchyardTesting",
                product("NIOConcurrencyHelpers", "swift-nio", when: ["Images"]),
                .target(name: "CVipsFixtures", condition: .when(traits: ["Images"])),
                // ImageObservabilityTests: the pipeline's metrics, logs and service.
                product("MetricsTestKit", "swift-metrics", when: ["Images"]),
                product("Logging", "swift-log", when: ["Images"]),
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["Images"]),
            ],
            swiftSettings: testHooks
        ),
    ]
}()

// MARK: - Trait Dashboard

let dashboardTargets: [Target] = {
    [
        // A live dashboard of work queues and durable queues: a Hummingbird router group and a standalone server.
        .target(
            name: "SwitchyardDashboard",
            dependencies: [
                "Switchyard",
                // The durable queue's source, with the trait Postgres.
                .target(name: "SwitchyardPostgres", condition: .when(traits: ["Postgres"])),
                product("Hummingbird", "hummingbird", when: ["Dashboard"]),
                product("HTTPTypes", "swift-http-types", when: ["Dashboard"]),
                product("NIOCore", "swift-nio", when: ["Dashboard"]),
                product("NIOConcurrencyHelpers", "swift-nio", when: ["Dashboard"]),
                product("Logging", "swift-log", when: ["Dashboard"]),
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["Dashboard"]),
            ],
            swiftSettings: testHooks
        ),
        .testTarget(
            name: "SwitchyardDashboardTests",
            dependencies: [
                "SwitchyardDashboard", "SwitchyardTesting", "PostgresTestServer",
                .target(name: "SwitchyardPostgres", condition: .when(traits: ["Postgres"])),
                product("Hummingbird", "hummingbird", when: ["Dashboard"]),
                product("HummingbirdTesting", "hummingbird", when: ["Dashboard"]),
                product("NIOCore", "swift-nio", when: ["Dashboard"]),
                product("NIOPosix", "swift-nio", when: ["Dashboard"]),
                product("Logging", "swift-log", when: ["Dashboard"]),
                product("PostgresNIO", "postgres-nio", when: ["Postgres"]),
            ],
            swiftSettings: testHooks),
    ]
}()

// MARK: - Trait Watch

let watchTargets: [Target] = {
    [
        // File watching (inotify, or polling), child processes in their own process group, and signals.
        .target(
            name: "SwitchyardWatch",
            dependencies: [
                "Switchyard",
                .product(name: "DequeModule", package: "swift-collections"),
                product("SystemPackage", "swift-system", when: ["Watch"]),
            ],
            swiftSettings: testHooks
        ),
        // Waits for a folder's changes and a process's exit, for the watch and command-line tests.
        .target(
            name: "WatchTestSupport",
            dependencies: [
                "Switchyard", "SwitchyardTesting", "SwitchyardWatch",
                product("SystemPackage", "swift-system", when: ["Watch"]),
            ],
            path: "Tests/WatchTestSupport"),
        .testTarget(
            name: "SwitchyardWatchTests",
            dependencies: [
                "SwitchyardWatch", "SwitchyardTesting", "WatchTestSupport",
                product("SystemPackage", "swift-system", when: ["Watch"]),
            ],
            swiftSettings: testHooks),
    ]
}()

// MARK: - Trait Postgres

let postgresTargets: [Target] = {
    [
        // GTFS imports into PostgreSQL: a second destination of SwitchyardTransit's import pipeline.
        .target(
            name: "SwitchyardPostgres",
            dependencies: [
                "Switchyard", "SwitchyardTransit", "SwitchyardNetworking",
                product("PostgresNIO", "postgres-nio", when: ["Postgres"]),
                product("NIOConcurrencyHelpers", "swift-nio", when: ["Postgres"]),
                product("NIOCore", "swift-nio", when: ["Postgres"]),
                product("NIOPosix", "swift-nio", when: ["Postgres"]),
                product("NIOSSL", "swift-nio-ssl", when: ["Postgres"]),
                product("Logging", "swift-log", when: ["Postgres"]),
                product("CoreMetrics", "swift-metrics", when: ["Postgres"]),
                // The durable queue's worker as a `Service`.
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["Postgres"]),
            ]
        ),
        // The throwaway PostgreSQL cluster of the tests (`Scripts/postgres-dev.sh`, TLS only), for the library's and
        // the commands' tests.
        .target(name: "PostgresTestServer", dependencies: ["Switchyard"], path: "Tests/PostgresTestServer"),
        .testTarget(
            name: "SwitchyardPostgresTests",
            dependencies: [
                "SwitchyardPostgres", "SwitchyardTransit", "SwitchyardSampleFeeds", "SwitchyardTesting",
                "PostgresTestServer", product("PostgresNIO", "postgres-nio", when: ["Postgres"]),
                product("MetricsTestKit", "swift-metrics", when: ["Postgres"]),
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["Postgres"]),
                product("Logging", "swift-log", when: ["Postgres"]),
                product("NIOCore", "swift-nio", when: ["Postgres"]),
                product("NIOPosix", "swift-nio", when: ["Postgres"]),
            ]),
    ]
}()

// MARK: - Trait Push

let pushTargets: [Target] = {
    let nio = [
        product("NIOCore", "swift-nio", when: ["Push"]),
        product("NIOPosix", "swift-nio", when: ["Push"]),
        product("NIOConcurrencyHelpers", "swift-nio", when: ["Push"]),
        product("NIOHPACK", "swift-nio-http2", when: ["Push"]),
        product("NIOHTTP2", "swift-nio-http2", when: ["Push"]),
        product("NIOSSL", "swift-nio-ssl", when: ["Push"]),
    ]
    return [
        // Push notifications through APNs: payloads, the checks APNs would make, signing keys and provider tokens;
        // the client's logs, metrics, and its life as a service.
        .target(
            name: "SwitchyardPush",
            dependencies: [
                "Switchyard", "SwitchyardNetworking",
                .product(name: "DequeModule", package: "swift-collections"),
                product("Crypto", "swift-crypto", when: ["Push"]),
                product("CryptoExtras", "swift-crypto", when: ["Push"]),
                product("Logging", "swift-log", when: ["Push"]),
                product("CoreMetrics", "swift-metrics", when: ["Push"]),
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["Push"]),
            ] + nio
        ),
        // A local APNs for tests and the benchmark: HTTP/2 over TLS, APNs's checks and answers, scripted faults.
        .target(
            name: "SwitchyardPushTesting",
            dependencies: [
                "SwitchyardPush", "SwitchyardHTTPTesting", product("Crypto", "swift-crypto", when: ["Push"]),
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["Push"]),
            ] + nio
        ),
        .testTarget(
            name: "SwitchyardPushTests",
            dependencies: [
                "SwitchyardPush", "SwitchyardPushTesting", "SwitchyardHTTPTesting", "SwitchyardTesting",
                product("Crypto", "swift-crypto", when: ["Push"]),
                product("NIOCore", "swift-nio", when: ["Push"]),
                product("NIOSSL", "swift-nio-ssl", when: ["Push"]),
                // PushObservabilityTests: the client's metrics, logs and service.
                product("MetricsTestKit", "swift-metrics", when: ["Push"]),
                product("Logging", "swift-log", when: ["Push"]),
                product("ServiceLifecycle", "swift-service-lifecycle", when: ["Push"]),
                // MockAPNsTests: a second, independent HTTP/2 client.
                product("AsyncHTTPClient", "async-http-client", when: ["HTTP"]),
            ]
        ),
    ]
}()

// MARK: - Trait CLI

let commandTargets: [Target] = {
    [
        // `switchyard`: import, status, fetch, thumbnails, push, sample feeds and the stream commands.
        .executableTarget(
            name: "SwitchyardCLI",
            dependencies: [
                "Switchyard", "SwitchyardTransit", "SwitchyardSampleFeeds",
                "SwitchyardHTTP", "SwitchyardImages", "SwitchyardPostgres", "SwitchyardPush", "SwitchyardDashboard",
                "SwitchyardWatch", product("SystemPackage", "swift-system", when: ["CLI"]),
                product("ArgumentParser", "swift-argument-parser", when: ["CLI"]),
                // `switchyard push --ca-file`: the client's TLS trust roots; `fetch`: its event loop group.
                product("NIOSSL", "swift-nio-ssl", when: ["CLI"]),
                product("NIOCore", "swift-nio", when: ["CLI"]),
                product("NIOPosix", "swift-nio", when: ["CLI"]),
                // `enqueue`, `worker`, `jobs`: the durable queue's pool and statements, the worker's warnings.
                product("PostgresNIO", "postgres-nio", when: ["CLI"]),
                product("Logging", "swift-log", when: ["CLI"]),
            ],
            // The test kinds of `switchyard worker` and the hidden `enqueue test-…` subcommands (debug builds only).
            swiftSettings: testHooks
        ),
        // A local APNs to try `switchyard push` against: writes a key, tokens and the authority to trust.
        .executableTarget(
            name: "SwitchyardMockAPNs",
            dependencies: [
                "SwitchyardPush", "SwitchyardPushTesting", "SwitchyardHTTPTesting",
                product("ArgumentParser", "swift-argument-parser", when: ["CLI"]),
                product("Crypto", "swift-crypto", when: ["CLI"]),
            ]
        ),
        // `switchyard` as a child process: Ctrl-C, progress, status while an import runs, fetch, thumbnails, push.
        .testTarget(
            name: "SwitchyardCLITests",
            dependencies: [
                "SwitchyardCLI", "SwitchyardHTTPTesting", "SwitchyardImages", "SwitchyardPostgres",
                "SwitchyardPushTesting", "SwitchyardTransit", "SwitchyardSampleFeeds", "SwitchyardTesting",
                "SwitchyardWatch", "WatchTestSupport", "PostgresTestServer",
                product("Crypto", "swift-crypto", when: ["CLI"]),
                // `switchyard watch`'s tests wait for the files and processes its commands make.
                product("SystemPackage", "swift-system", when: ["CLI"]),
                // The durable queue's tests enqueue with the library and check with its client.
                product("PostgresNIO", "postgres-nio", when: ["CLI"]),
                .target(name: "CVipsFixtures", condition: .when(traits: ["Images"])),
            ],
            // The durable queue's process tests use `switchyard worker`'s test kinds (debug builds only).
            swiftSettings: testHooks
        ),
    ]
}()

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Switchyard", targets: ["Switchyard"]),
        .library(name: "SwitchyardTesting", targets: ["SwitchyardTesting"]),
        .library(name: "SwitchyardTransit", targets: ["SwitchyardTransit"]),
        .library(name: "SwitchyardSampleFeeds", targets: ["SwitchyardSampleFeeds"]),
        .library(name: "SwitchyardObservability", targets: ["SwitchyardObservability"]),
        .library(name: "SwitchyardHTTP", targets: ["SwitchyardHTTP"]),
        .library(name: "SwitchyardHTTPTesting", targets: ["SwitchyardHTTPTesting"]),
        .library(name: "SwitchyardImages", targets: ["SwitchyardImages"]),
        .library(name: "SwitchyardPostgres", targets: ["SwitchyardPostgres"]),
        .library(name: "SwitchyardPush", targets: ["SwitchyardPush"]),
        .library(name: "SwitchyardPushTesting", targets: ["SwitchyardPushTesting"]),
        .library(name: "SwitchyardDashboard", targets: ["SwitchyardDashboard"]),
        .library(name: "SwitchyardWatch", targets: ["SwitchyardWatch"]),
        .executable(name: "switchyard", targets: ["SwitchyardCLI"]),
        .executable(name: "switchyard-mock-apns", targets: ["SwitchyardMockAPNs"]),
    ],
    traits: [
        .trait(
            name: "Observability",
            description: "SwitchyardObservability: work queues as services, on swift-log, swift-metrics and "
                + "swift-service-lifecycle"),
        .trait(
            name: "HTTP",
            description: "SwitchyardHTTP and SwitchyardHTTPTesting, on AsyncHTTPClient and SwiftNIO"),
        .trait(
            name: "Images",
            description: "SwitchyardImages, on the system's libvips (Debian: libvips-dev)",
            enabledTraits: ["HTTP"]),
        .trait(name: "Postgres", description: "SwitchyardPostgres: GTFS imports into PostgreSQL, on postgres-nio"),
        .trait(
            name: "Push",
            description: "SwitchyardPush and SwitchyardPushTesting: APNs over HTTP/2, on SwiftNIO and swift-crypto"),
        .trait(
            name: "CLI",
            description: "the `switchyard` and `switchyard-mock-apns` commands, on swift-argument-parser",
            enabledTraits: ["HTTP", "Postgres", "Push", "Dashboard", "Watch"]),
        .trait(
            name: "Dashboard",
            description: "SwitchyardDashboard: a live dashboard of work queues and durable queues, on Hummingbird"),
        .trait(
            name: "Watch",
            description: "SwitchyardWatch: file watching, child processes and signals, on swift-system"),
        .default(
            enabledTraits: ["Observability", "HTTP", "Images", "Postgres", "Push", "Dashboard", "Watch", "CLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // Trait HTTP (and Push, Postgres: SwiftNIO).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        // SwitchyardHTTP: to tell AsyncHTTPClient's default tracer (which discards every span) from a real one.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
        // Trait HTTP: SHA-256 of downloads. Trait Push: provider tokens (ES256) and encrypted key files (scrypt,
        // AES-GCM).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // Trait Postgres: COPY FROM STDIN, transactions; the connection's logger.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // Trait Observability (and the libraries' metrics and services).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // Trait CLI.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Trait Dashboard.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        // Trait Watch.
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
        // Tests only (a client's resolution leaves out what only test targets use): archives written and read by
        // another implementation, to cross-check SwitchyardTransit's zip code.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: coreTargets + observabilityTargets + networkingTargets + httpTargets + imageTargets + postgresTargets
        + pushTargets + dashboardTargets + watchTargets + commandTargets,
    swiftLanguageModes: [.v6]
)

// DocC, for CI's documentation step (`SWITCHYARD_DOCC=1 swift package generate-documentation --target NAME`). Off by
// default, so that a package depending on Switchyard resolves no documentation tooling.
if Context.environment["SWITCHYARD_DOCC"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
