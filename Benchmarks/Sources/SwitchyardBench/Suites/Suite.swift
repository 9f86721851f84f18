/// A family of benchmark cases that runs its anchors in the same run and reports ratios.
protocol BenchmarkSuite: Sendable {
    /// The name used on the command line and in JSON rows.
    var name: String { get }
    /// One line on what the suite measures.
    var summary: String { get }
    func run(runner: Runner, report: Report)
}

extension BenchmarkSuite {
    /// Records a row of `sample` (its median, and its range), with its anchor's median, its goal and extra values.
    func record(
        _ report: Report, _ name: String, _ sample: Sample, anchor: (String, Sample)? = nil, goal: String? = nil,
        met: Bool? = nil, extra: [(key: String, value: Double)] = []
    ) {
        var measurement = Measurement(
            suite: self.name, name: name, nanosecondsPerOperation: sample.median,
            range: (sample.minimum, sample.maximum))
        if let anchor { measurement.anchor = (anchor.0, anchor.1.median) }
        if let goal, let met { measurement.goal = (goal, met) }
        measurement.extra = extra
        report.record(measurement)
    }
}

/// Every suite, in the order they run by default.
let allSuites: [any BenchmarkSuite] = {
    var suites: [any BenchmarkSuite] = [
        IsolationSuite(), EngineSuite(), CacheSuite(), StreamsSuite(), ImportSuite(), HTTPSuite(), PushSuite(),
        DurableSuite(), DashboardSuite(), WatchSuite(),
    ]
    #if Images
        suites.append(ImagesSuite())  // with the Images trait (libvips)
    #endif
    return suites
}()
