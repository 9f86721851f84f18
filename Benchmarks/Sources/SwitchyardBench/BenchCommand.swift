import ArgumentParser
import Foundation

/// `switchyard-bench`: runs benchmark suites in release builds, anchors in the same run, ratios printed.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchyard-bench",
        abstract: "Measure Switchyard against the anchors it replaces, in the same run.",
        discussion: """
            Suites: \(allSuites.map(\.name).joined(separator: ", ")). Each case is warmed up, repeated, and \
            reported as the median ns/op; ratio = ours / anchor (below 1 is faster). Build in release: \
            swift run --package-path Benchmarks -c release switchyard-bench [SUITE...] [--json]
            """)

    @Argument(help: "Suites to run (default: all).")
    var suites: [String] = []

    @Flag(help: "Print one JSON object per line instead of a table.")
    var json = false

    @Option(help: "Measured repetitions per case (the median is reported).")
    var repetitions = 7

    @Flag(help: "A fast smoke run: fewer operations and repetitions; numbers are noisier.")
    var quick = false

    @Flag(help: "Exit with status 1 if any goal was missed.")
    var checkGoals = false

    func validate() throws {
        let known = Set(allSuites.map(\.name))
        for suite in suites where !known.contains(suite) {
            throw ValidationError("unknown suite '\(suite)'; known suites: \(known.sorted().joined(separator: ", "))")
        }
        if repetitions < 1 { throw ValidationError("--repetitions must be at least 1") }
    }

    func run() throws {
        if let probe = ProcessInfo.processInfo.environment["SWITCHYARD_BENCH_PROBE"] {
            // A child process of a suite's memory case.
            if probe.hasPrefix("cache-mix:") {
                CacheSuite.probe(probe)
            } else if probe.hasPrefix("dashboard-server:") {
                DashboardSuite.serverProbe(String(probe.dropFirst("dashboard-server:".count)))
            } else if probe.hasPrefix("http-floor:") {
                HTTPSuite.floorProbe(String(probe.dropFirst("http-floor:".count)))
            } else if probe.hasPrefix("http-get:") {
                HTTPSuite.probe(String(probe.dropFirst("http-get:".count)))
            } else if probe.hasPrefix("images-ticks:") {
                #if Images
                    ImagesSuite.tickProbe(String(probe.dropFirst("images-ticks:".count)))
                #endif
            } else if probe.hasPrefix("import-postgres:") {
                ImportSuite.postgresProbe(String(probe.dropFirst("import-postgres:".count)))
            } else if probe.hasPrefix("import:") {
                ImportSuite.probe(zip: String(probe.dropFirst("import:".count)))
            } else if probe.hasPrefix("watch-burst:") {
                WatchBurstProbe.run(String(probe.dropFirst("watch-burst:".count)))
            } else if let colon = probe.firstIndex(of: ":"), StreamsSuite.probeKinds.contains(String(probe[..<colon])) {
                StreamsSuite.probe(kind: String(probe[..<colon]), path: String(probe[probe.index(after: colon)...]))
            } else {
                EngineSuite.probe(probe)
            }
            return
        }
        #if DEBUG
            FileHandle.standardError.write(
                Data(
                    "warning: debug build; measure with `swift run --package-path Benchmarks -c release switchyard-bench`\n"
                        .utf8))
        #endif
        let runner = Runner(repetitions: quick ? 3 : repetitions, warmups: 1, scale: quick ? 0.1 : 1)
        let report = Report(json: json)
        for suite in allSuites where suites.isEmpty || suites.contains(suite.name) {
            report.begin(suite: suite.name, description: suite.summary)
            suite.run(runner: runner, report: report)
        }
        if !report.missedGoals.isEmpty {
            FileHandle.standardError.write(
                Data(
                    ("goals missed:\n"
                        + report.missedGoals.map { "  " + $0 }
                        .joined(separator: "\n") + "\n").utf8))
            if checkGoals { throw ExitCode(1) }
        }
    }
}
