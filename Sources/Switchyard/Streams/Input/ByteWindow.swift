#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one buffer a line or CSV reader scans: bytes `[start, end)` are read but not yet consumed.
///
/// Reads append at `end`; consumers advance `start`. Before a read the unconsumed tail (at most one partial line or
/// record) moves to the front, and the buffer doubles only when that tail fills it, never beyond `maximumCapacity`:
/// memory is bounded by the longest line allowed, not by the input's size.
///
/// Noncopyable: it owns its buffer and frees it when it goes, so the buffer is freed exactly once by construction.
struct ByteWindow: ~Copyable {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    /// The largest `capacity` ever reached.
    private(set) var peakCapacity: Int
    let maximumCapacity: Int
    /// How many bytes one read asks for (the configured chunk size).
    let chunkSize: Int
    var start = 0
    var end = 0
    /// Bytes discarded from the front so far: `consumedBefore + i` is buffer position `i`'s offset in the input.
    private(set) var consumedBefore = 0

    init(chunkSize: Int, maximumCapacity: Int) {
        self.chunkSize = max(1, chunkSize)
        self.maximumCapacity = max(self.chunkSize, maximumCapacity)
        capacity = self.chunkSize
        peakCapacity = capacity
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    var unconsumed: Int { end - start }

    /// Makes room for one read and returns where it goes: up to `chunkSize` bytes after the unconsumed tail.
    /// Returns nil if the tail already fills `maximumCapacity` (the caller reports a too-long line or record).
    /// O(unconsumed) for the move; growth doubles, so it is amortized O(1) per byte.
    mutating func spaceForRead() -> UnsafeMutableRawBufferPointer? {
        if start > 0 && capacity - end < chunkSize {
            let count = end - start
            if count > 0 { memmove(base, base + start, count) }
            consumedBefore += start
            start = 0
            end = count
        }
        if end == capacity {
            guard capacity < maximumCapacity else { return nil }
            let grown = min(maximumCapacity, capacity * 2)
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
            bigger.copyMemory(from: base + start, byteCount: end - start)
            base.deallocate()
            base = bigger
            consumedBefore += start
            end -= start
            start = 0
            capacity = grown
            peakCapacity = max(peakCapacity, grown)
        }
        return UnsafeMutableRawBufferPointer(start: base + end, count: min(chunkSize, capacity - end))
    }

    /// Drops a UTF-8 byte order mark (`EF BB BF`) at `start`. Returns false while the buffered bytes are a proper
    /// prefix of one and more may come; decides as soon as a byte differs, so an interactive input that sends
    /// `y\n` is not kept waiting for a third byte.
    mutating func dropByteOrderMark(inputEnded: Bool) -> Bool {
        let mark: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)
        let available = Swift.min(3, unconsumed)
        for offset in 0..<available {
            let expected = offset == 0 ? mark.0 : offset == 1 ? mark.1 : mark.2
            if base.load(fromByteOffset: start + offset, as: UInt8.self) != expected { return true }
        }
        if available == 3 {
            start += 3
            return true
        }
        return inputEnded
    }

    /// Records that a read placed `count` bytes at `end`.
    mutating func didRead(_ count: Int) {
        end += count
    }
}
