import Foundation
import Switchyard

/// `cache`: `Cache` against corelibs `NSCache`, a `Mutex<Dictionary>` with no eviction and a plain LRU, on
/// get/set mixes (one and two threads) and on hit rates over synthetic traces.
///
/// Goals (issue: cache): get/set mixes ≤ 2× the `Mutex<Dictionary>` and ≥ 5× faster than `NSCache`; hit rates
/// never below LRU, and ≥ 5 points above it on the skewed (Zipf) and scan traces. Every implementation runs the
/// same sequence of gets and sets, their rounds interleaved. The read-through rows (a set after each missed get)
/// show what a cache's own misses cost against a dictionary that never evicts; they have no goal.
struct CacheSuite: BenchmarkSuite {
    let name = "cache"
    let summary = "get/set mixes and hit rates vs NSCache, Mutex<Dictionary>, plain LRU"

    /// Entries every bounded cache holds in the throughput cases.
    private let capacity = 10_000

    func run(runner: Runner, report: Report) {
        for threads in [1, 2] {
            for readPercent in [90, 50] { mix(threads: threads, readPercent: readPercent, runner, report) }
        }
        for threads in [1, 2] {
            for readPercent in [90, 50] { readThroughMix(threads: threads, readPercent: readPercent, runner, report) }
        }
        hitRates(runner: runner, report: report)
    }

    // MARK: Get/set mixes

    private func ours(_ policy: CachePolicy = .frequencyAware) -> CacheAdapter {
        CacheAdapter(Cache(name: "bench", countLimit: capacity, policy: policy, memoryPressure: nil))
    }

    private static let mixOperations = 1_000_000

    /// Zipf(0.9) over 10× the capacity: a working set that mostly fits, with a long tail of misses.
    private static func mixKeys(capacity: Int) -> [Int] {
        CacheTraces.zipf(length: mixOperations, keys: 10 * capacity, exponent: 0.9)
    }

    /// What a mix's get does on a miss.
    enum MixStyle {
        /// The get/set mix the goals are about: `readPercent` operations in 100 are gets, the others sets of the
        /// key, so every implementation runs the same sequence of operations; a get that misses is only a miss.
        case getSet
        /// Read-through, as a cache in front of a slower source is used: a get that misses is followed by a set
        /// of its key. Each implementation then does as many extra sets as it has misses: the dictionary, which
        /// never evicts, almost none; a bounded cache one for about a third of its gets, each of which evicts.
        /// Shown for what it costs; no goal.
        case readThrough
    }

    /// One round of a mix on `cache` for the runner: `threads` threads each replay their share of `keys` (`n`
    /// operations each); returns the wall time divided by `threads` (so per operation of all threads together).
    private static func mixRound(
        _ cache: any BenchCache, keys: [Int], threads: Int, readPercent: Int, style: MixStyle
    ) -> (Int) -> UInt64 {
        let readThrough = style == .readThrough
        let run: @Sendable (Int, Int) -> Void = { thread, n in
            let offset = thread * (keys.count / max(threads, 1))
            for index in 0..<n {
                let key = keys[(offset + index) % keys.count]
                if (index % 100) < readPercent {
                    if cache.get(key) == nil && readThrough { cache.set(key, key) }
                } else {
                    cache.set(key, index)
                }
            }
        }
        return { n in
            if threads == 1 {
                let start = Clockwork.now()
                run(0, n)
                return Clockwork.now() - start
            }
            return Clockwork.timeOnThreads(threads) { index in run(index, n) } / UInt64(threads)
        }
    }

    /// Measures one mix on every cache of `caches` (each warmed with the first 2 × capacity keys), their rounds
    /// interleaved so that a slow spell of the machine lands on all of them; one sample per cache, in order.
    private static func measureMix(
        _ caches: [any BenchCache], keys: [Int], capacity: Int, threads: Int, readPercent: Int, style: MixStyle,
        _ runner: Runner
    ) -> [Sample] {
        for cache in caches {
            for key in keys.prefix(capacity * 2) { cache.set(key, key) }
        }
        return runner.interleaved(
            caches.map { cache in
                (
                    mixOperations / threads,
                    .mainThread(mixRound(cache, keys: keys, threads: threads, readPercent: readPercent, style: style))
                )
            })
    }

    /// For profilers, not a suite case
    /// (`SWITCHYARD_BENCH_PROBE=cache-mix:<read percent>:<threads>[:lru|:dict][:through][:<rounds>]`): rounds (20
    /// by default) of one get/set mix (read-through with `through`) on `Cache` (or on the `Mutex<Dictionary>`
    /// anchor with `dict`); prints the median ns per operation.
    static func probe(_ specification: String) {
        let parts = specification.split(separator: ":")
        guard parts.count >= 3, let readPercent = Int(parts[1]), let threads = Int(parts[2]) else { return }
        let options = parts.dropFirst(3)
        let capacity = CacheSuite().capacity
        let policy: CachePolicy = options.contains("lru") ? .leastRecentlyUsed : .frequencyAware
        let rounds = options.compactMap { Int($0) }.first ?? 20
        let cache: any BenchCache =
            options.contains("dict")
            ? MutexDictionaryCache()
            : CacheAdapter(Cache(name: "probe", countLimit: capacity, policy: policy, memoryPressure: nil))
        let runner = Runner(repetitions: rounds, warmups: 1, scale: 1)
        let samples = measureMix(
            [cache], keys: mixKeys(capacity: capacity), capacity: capacity, threads: threads, readPercent: readPercent,
            style: options.contains("through") ? .readThrough : .getSet, runner)
        print(samples[0].median)
    }

    private func mix(threads: Int, readPercent: Int, _ runner: Runner, _ report: Report) {
        let keys = Self.mixKeys(capacity: capacity)
        let label = "mix \(readPercent)/\(100 - readPercent), \(threads) thread\(threads == 1 ? "" : "s")"
        let samples = Self.measureMix(
            [
                MutexDictionaryCache(), PlainLRUCache(capacity: capacity), FoundationCache(capacity: capacity), ours(),
                ours(.leastRecentlyUsed),
            ],
            keys: keys, capacity: capacity, threads: threads, readPercent: readPercent, style: .getSet, runner)
        let (dictionary, lru, nscache) = (samples[0], samples[1], samples[2])
        record(report, "\(label)/Mutex<Dictionary>", dictionary, threads: threads)
        record(report, "\(label)/plain LRU", lru, threads: threads)
        record(report, "\(label)/NSCache", nscache, threads: threads)
        for (variant, sample) in [("Cache", samples[3]), ("Cache (LRU mode)", samples[4])] {
            record(
                report, "\(label)/\(variant)", sample, threads: threads, anchor: ("Mutex<Dictionary>", dictionary),
                goal: "ratio <= 2", met: sample.median <= 2 * dictionary.median)
            record(
                report, "\(label)/\(variant) vs NSCache", sample, threads: threads, anchor: ("NSCache", nscache),
                goal: "ratio <= 0.2", met: sample.median * 5 <= nscache.median)
        }
    }

    /// The read-through variant of a mix (see ``MixStyle/readThrough``), against the dictionary only: no goal.
    private func readThroughMix(threads: Int, readPercent: Int, _ runner: Runner, _ report: Report) {
        let label = "read-through \(readPercent)/\(100 - readPercent), \(threads) thread\(threads == 1 ? "" : "s")"
        let samples = Self.measureMix(
            [MutexDictionaryCache(), ours(), ours(.leastRecentlyUsed)], keys: Self.mixKeys(capacity: capacity),
            capacity: capacity, threads: threads, readPercent: readPercent, style: .readThrough, runner)
        record(report, "\(label)/Mutex<Dictionary>", samples[0], threads: threads)
        record(report, "\(label)/Cache", samples[1], threads: threads, anchor: ("Mutex<Dictionary>", samples[0]))
        record(
            report, "\(label)/Cache (LRU mode)", samples[2], threads: threads, anchor: ("Mutex<Dictionary>", samples[0])
        )
    }

    private func record(
        _ report: Report, _ name: String, _ sample: Sample, threads: Int, anchor: (String, Sample)? = nil,
        goal: String? = nil, met: Bool? = nil
    ) {
        var measurement = Measurement(
            suite: self.name, name: name, nanosecondsPerOperation: sample.median,
            range: (sample.minimum, sample.maximum), threads: threads)
        if let anchor { measurement.anchor = (anchor.0, anchor.1.median) }
        if let goal, let met { measurement.goal = (goal, met) }
        report.record(measurement)
    }

    // MARK: Hit rates

    private func hitRates(runner: Runner, report: Report) {
        let length = Int(Double(1_000_000) * runner.scale)
        let keys = 100_000
        let size = 1_000
        let traces: [(name: String, skewed: Bool, keys: [Int])] = [
            ("zipf-0.7", true, CacheTraces.zipf(length: length, keys: keys, exponent: 0.7)),
            ("zipf-0.9", true, CacheTraces.zipf(length: length, keys: keys, exponent: 0.9)),
            ("zipf-1.1", true, CacheTraces.zipf(length: length, keys: keys, exponent: 1.1)),
            ("loop", true, CacheTraces.loop(length: length, span: size * 3 / 2)),
            (
                "zipf-with-scans", true,
                CacheTraces.zipfWithScans(length: length, keys: keys, period: 20_000, scanLength: 5_000)
            ),
            ("shifting", false, CacheTraces.shifting(length: length, keys: keys)),
        ]
        for trace in traces {
            let ours = hitRate(
                of: trace.keys, in: CacheAdapter(Cache(name: "bench", countLimit: size, memoryPressure: nil)))
            let lru = hitRate(of: trace.keys, in: PlainLRUCache(capacity: size))
            let nscache = hitRate(of: trace.keys, in: FoundationCache(capacity: size))
            let goal = trace.skewed ? "ours >= lru + 0.05" : "ours >= lru"
            let met = trace.skewed ? ours >= lru + 0.05 : ours >= lru
            report.recordValues(
                suite: name, name: "hitrate/\(trace.name)",
                values: [("ours", ours), ("lru", lru), ("nscache", nscache)], goal: (goal, met))
        }
        report.note("hit rates: \(length) accesses, cache of \(size) entries, \(keys) distinct keys (Zipf)")
    }

    /// Replays `trace` as get, then set on a miss; returns hits / accesses.
    private func hitRate(of trace: [Int], in cache: some BenchCache) -> Double {
        var hits = 0
        for key in trace {
            if cache.get(key) != nil { hits += 1 } else { cache.set(key, key) }
        }
        return Double(hits) / Double(trace.count)
    }
}

/// `Cache<Int, Int>` driven through the suite's operations.
struct CacheAdapter: BenchCache {
    let cache: Cache<Int, Int>
    init(_ cache: Cache<Int, Int>) { self.cache = cache }
    func get(_ key: Int) -> Int? { cache.value(forKey: key) }
    func set(_ key: Int, _ value: Int) { cache.setValue(value, forKey: key) }
}
