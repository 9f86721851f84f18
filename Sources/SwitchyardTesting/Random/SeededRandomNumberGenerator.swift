#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small, fast random number generator (SplitMix64) whose whole sequence follows from its seed, so a randomized
/// test can print its seed and be replayed exactly.
///
/// ```swift
/// @Test func survivesRandomInterleavings() {
///     var random = SeededRandomNumberGenerator.forTest("cache stress")   // prints the seed
///     let operations = (0..<1_000).map { _ in Int.random(in: 0..<4, using: &random) }
///     …
/// }
/// ```
///
/// Replay a failure with `SWITCHYARD_SEED=<printed seed> swift test --filter <test>`.
/// Not cryptographically secure. A value type: copies continue the same sequence independently.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    /// The seed this generator started from.
    public let seed: UInt64
    private var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator for a randomized test: seeded from the `SWITCHYARD_SEED` environment variable when it is set
    /// (to replay a failure), otherwise from the system's random source; prints `<name> seed: <seed>` to standard
    /// output either way.
    public static func forTest(_ name: String) -> SeededRandomNumberGenerator {
        let seed: UInt64
        if let text = getenv("SWITCHYARD_SEED"), let parsed = UInt64(String(cString: text)) {
            seed = parsed
        } else {
            seed = UInt64.random(in: .min ... .max)
        }
        print("\(name) seed: \(seed) (replay with SWITCHYARD_SEED=\(seed))")
        return SeededRandomNumberGenerator(seed: seed)
    }

    /// The next 64 random bits. O(1).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
