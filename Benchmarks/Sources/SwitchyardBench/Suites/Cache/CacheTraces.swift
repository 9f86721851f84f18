/// Key sequences for the `cache` suite, generated from a fixed seed so every run and every cache sees the same.
enum CacheTraces {
    /// SplitMix64: small, fast, and the same on every platform.
    struct Random {
        private var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    }

    /// Samples ranks 0..<n with probability proportional to 1 / (rank + 1)^s.
    struct Zipf {
        private let cumulative: [Double]
        init(keys n: Int, exponent s: Double) {
            var sums = [Double](repeating: 0, count: n)
            var total = 0.0
            for rank in 0..<n {
                total += 1 / pow(Double(rank + 1), s)
                sums[rank] = total
            }
            cumulative = sums.map { $0 / total }
        }
        func sample(_ random: inout Random) -> Int {
            let u = random.unit()
            var low = 0
            var high = cumulative.count - 1
            while low < high {
                let middle = (low + high) / 2
                if cumulative[middle] < u { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// Rank r is not key r: popular keys are scattered over the key space, as in real workloads.
    static func scatter(_ rank: Int) -> Int { Int(truncatingIfNeeded: UInt64(rank) &* 0x9E37_79B9_7F4A_7C15 >> 1) }

    static func zipf(length: Int, keys: Int, exponent: Double, seed: UInt64 = 42) -> [Int] {
        var random = Random(seed: seed)
        let zipf = Zipf(keys: keys, exponent: exponent)
        return (0..<length).map { _ in scatter(zipf.sample(&random)) }
    }

    /// A loop over `span` keys, repeated: larger than the cache, LRU never hits.
    static func loop(length: Int, span: Int) -> [Int] {
        (0..<length).map { scatter($0 % span) }
    }

    /// A Zipf(0.9) workload interrupted by scans: every `period` accesses, `scanLength` keys never seen before.
    static func zipfWithScans(length: Int, keys: Int, period: Int, scanLength: Int, seed: UInt64 = 7) -> [Int] {
        var random = Random(seed: seed)
        let zipf = Zipf(keys: keys, exponent: 0.9)
        var trace: [Int] = []
        trace.reserveCapacity(length)
        var fresh = keys
        while trace.count < length {
            for _ in 0..<period where trace.count < length { trace.append(scatter(zipf.sample(&random))) }
            for _ in 0..<scanLength where trace.count < length {
                trace.append(scatter(fresh))
                fresh += 1
            }
        }
        return trace
    }

    /// Zipf(0.9) whose popular keys change halfway: the second half ranks a disjoint set of keys.
    static func shifting(length: Int, keys: Int, seed: UInt64 = 11) -> [Int] {
        var random = Random(seed: seed)
        let zipf = Zipf(keys: keys, exponent: 0.9)
        return (0..<length).map { index in
            let rank = zipf.sample(&random)
            return scatter(index < length / 2 ? rank : rank + keys)
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
