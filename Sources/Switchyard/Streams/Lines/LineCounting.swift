/// Counting lines without framing them: what `wc -l` does, for inputs where only the count matters.
extension Lines {
    /// Counts the input's lines without handing any out, reading with blocking calls on the calling thread (use it
    /// on a ``BlockingExecutor`` thread or in a command-line tool).
    ///
    /// The counts are those of the other forms: `terminatedLines` is the number of `\n` bytes (what `wc -l` prints),
    /// and `lines` adds one for a final line without `\n`. A byte order mark is dropped as ``LineOptions`` says, so a
    /// file holding only one counts no line. Lines are never buffered, so ``LineOptions/maximumLineLength`` does not
    /// apply (as in `wc -l`), and the content is not read as text: ``LineOptions/invalidUTF8`` does not apply either.
    ///
    /// - Complexity: O(input), searching 32 bytes per step; memory is one buffer of ``LineOptions/chunkSize`` bytes.
    /// - Throws: ``StreamError`` (opening, reading; ``StreamError/Kind/requiresAsynchronousReading`` for a sequence
    ///   input), or `CancellationError` when the current task is cancelled (checked before every read).
    public func countLinesBlocking() throws -> LineSummary {
        let file = try input.openForBlockingReads()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: options.chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var tally = LineTally(options: options)
        while true {
            if Task.isCancelled { throw CancellationError() }
            let count = try file.read(into: buffer)
            if count == 0 { return tally.summary }
            tally.add(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// As ``countLinesBlocking()``, but each read runs on ``BlockingExecutor/shared`` while this task is suspended;
    /// the counting runs in the calling task between reads. Works for every input, sequences included.
    public nonisolated(nonsending) func countLines() async throws -> LineSummary {
        var reader = AsyncByteReader(input)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: options.chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var tally = LineTally(options: options)
        while true {
            let count = try await reader.read(into: buffer)
            if count == 0 { return tally.summary }
            tally.add(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}

/// What a line count has seen so far: the newlines, the bytes since the last one, and the first bytes (a byte
/// order mark alone is no line).
struct LineTally {
    private var newlines = 0
    private var bytes = 0
    private var bytesSinceNewline = 0
    /// The input's first three bytes, little-endian (those read so far).
    private var leading: UInt32 = 0
    private let stripsByteOrderMark: Bool
    private let chunkSize: Int

    init(options: LineOptions) {
        stripsByteOrderMark = options.stripsByteOrderMark
        chunkSize = options.chunkSize
    }

    /// Counts the newlines in the next `chunk` of the input. O(`chunk.count`).
    mutating func add(_ chunk: UnsafeRawBufferPointer) {
        var index = 0
        while bytes + index < 3 && index < chunk.count {
            leading |= UInt32(chunk[index]) << (8 * UInt32(bytes + index))
            index += 1
        }
        bytes += chunk.count
        let found = NewlineCounter.count(chunk)
        guard found > 0 else {
            bytesSinceNewline += chunk.count
            return
        }
        newlines += found
        var last = chunk.count - 1
        while chunk[last] != 0x0A { last -= 1 }
        bytesSinceNewline = chunk.count - 1 - last
    }

    var summary: LineSummary {
        let onlyByteOrderMark = stripsByteOrderMark && newlines == 0 && bytes == 3 && leading == 0xBF_BBEF
        let unterminated = bytesSinceNewline > 0 && !onlyByteOrderMark
        return LineSummary(
            lines: newlines + (unterminated ? 1 : 0), terminatedLines: newlines, bytes: bytes,
            peakBufferBytes: chunkSize)
    }
}

/// Counts `\n` bytes eight at a time in a 64-bit word (an exact zero-byte test on the word XOR `0x0A…`), summing
/// per-byte counters that are folded into the total before they can overflow. Portable: no SIMD types or
/// instructions past the baseline of any 64-bit target.
enum NewlineCounter {
    /// The number of `0x0A` bytes in `bytes`. O(`bytes.count`).
    static func count(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let length = bytes.count
        var index = 0
        var total = 0
        while length - index >= 32 {
            // Each step adds at most 4 to a byte counter: 63 steps stay below 256.
            let steps = min((length - index) / 32, 63)
            var counters: UInt64 = 0
            for _ in 0..<steps {
                counters &+= marks(base, index) &+ marks(base, index + 8)
                counters &+= marks(base, index + 16) &+ marks(base, index + 24)
                index += 32
            }
            total += sum(counters)
        }
        while index < length {
            if base.load(fromByteOffset: index, as: UInt8.self) == 0x0A { total += 1 }
            index += 1
        }
        return total
    }

    /// 1 in each byte of the word at `offset` that is `\n`, 0 in the others.
    @inline(__always)
    private static func marks(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
        let lowBits = (word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F
        return (~(lowBits | word) & 0x8080_8080_8080_8080) >> 7
    }

    /// The sum of the eight byte counters in `counters`.
    @inline(__always)
    private static func sum(_ counters: UInt64) -> Int {
        let pairs = (counters & 0x00FF_00FF_00FF_00FF) &+ ((counters >> 8) & 0x00FF_00FF_00FF_00FF)
        return Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) >> 48)
    }
}
