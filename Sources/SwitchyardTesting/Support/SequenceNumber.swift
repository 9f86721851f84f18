internal import Synchronization

/// A process-wide, strictly increasing sequence, used to order "satisfied" events across
/// expectations (for `enforceOrder`) and to mint observer tokens.
enum SequenceNumber {
    private static let counter = Atomic<UInt64>(0)

    /// Returns a number greater than every number returned before.
    static func next() -> UInt64 {
        counter.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
