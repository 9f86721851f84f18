import SwitchyardTransit

/// The sample feed's pseudo-random numbers: SplitMix64, seeded, integer-only.
///
/// Every part of a generated feed draws from its own stream, derived from the profile's seed, a ``Stream`` and an
/// index (a station, a route, a pattern, …). So each part can be generated again on its own, in any order, and gives
/// the same values: `trips.txt` and `stop_times.txt` replay the same route timetable, the network build and
/// `shapes.txt` replay the same shape. The same seed gives the same numbers on every platform and in every run
/// (wrapping 64-bit integer arithmetic only). Not cryptographic; a value type of 8 bytes.
struct SampleRandom: Sendable {
    /// The independent parts of a feed that draw numbers.
    enum Stream: UInt64, Sendable {
        case services = 1
        case stations = 2
        case routes = 3
        case shapes = 4
        case timetable = 5
        case transfers = 6
        case agencies = 7
    }

    private(set) var state: UInt64

    /// A generator whose sequence is fully given by `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// The generator of `stream` number `index` under `seed`: distinct streams and indexes give unrelated sequences.
    init(seed: UInt64, stream: Stream, index: Int = 0) {
        let key = (stream.rawValue &<< 48) ^ UInt64(truncatingIfNeeded: index)
        state = Self.mix(seed ^ Self.mix(key &+ 0x6A09_E667_F3BC_C909))
    }

    /// SplitMix64's finalizer: a bijective avalanche of 64 bits.
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A number in `0..<bound` (multiply-high; the bias is below 2⁻³² for the bounds used here). `bound` > 0.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "SampleRandom.below: the bound must be positive, got \(bound)")
        return Int(truncatingIfNeeded: UInt64(bound).multipliedFullWidth(by: next()).high)
    }

    /// A number in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `perMille` / 1000.
    mutating func chance(perMille: Int) -> Bool {
        below(1000) < perMille
    }

    /// An element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[below(elements.count)]
    }

    /// An index of `weights` (non-negative, at least one positive), with probability proportional to its weight.
    mutating func weighted(_ weights: [Int]) -> Int {
        var total = 0
        for weight in weights { total += weight }
        var roll = below(total)
        for (index, weight) in weights.enumerated() {
            if roll < weight { return index }
            roll -= weight
        }
        return weights.count - 1
    }
}
