/// A family of benchmark cases that runs its anchors in the same run and reports ratios.
protocol BenchmarkSuite: Sendable {
    /// The name used on the command line and in JSON rows.
    var name: String { get }
    /// One line on what the suite measures.
    var summary: String { get }
    func run(runner: Runner, report: Report)
}

/// Every suite, in the order they run by default.
let allSuites: [any BenchmarkSuite] = {
    var suites: [any BenchmarkSuite] = [
        IsolationSuite(), EngineSuite(), CacheSuite(), StreamsSuite(), ImportSuite(), HTTPSuite(), PushSuite(),
        DurableSuite(), DashboardSuite(),
    ]
    #if Images
        suites.append(ImagesSuite())  // with the Images trait (libvips)
    #endif
    return suites
}()
