#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits the bytes in a ``ByteWindow`` into lines; the synchronous and asynchronous readers only feed it.
///
/// Newlines are found 8 bytes per step (a word-at-a-time zero-byte test) for the first 32 bytes of a line, then
/// with `memchr` (vectorized in glibc and Apple's libc: 16–32 bytes per step) for longer ones; bytes already
/// searched are never searched again when a line spans reads, so splitting is O(input) whatever the chunk size.
struct LineFramer: InputFramer, ~Copyable {
    enum Step {
        /// A line (without its line ending), valid until the next call.
        case line(UnsafeRawBufferPointer, isTerminated: Bool)
        /// Every complete line in the window has been returned: read more (or call `inputDidEnd()`).
        case needInput
        /// The input is exhausted and every line has been returned.
        case end
    }

    private(set) var window: ByteWindow
    let maximumLineLength: Int
    let input: String
    private var byteOrderMarkPending: Bool
    private(set) var inputEnded = false
    /// Lines returned so far; the last one returned has this number.
    private(set) var lineNumber = 0
    private(set) var terminatedLines = 0
    private(set) var bytesRead = 0
    /// Bytes after `window.start` already known to hold no newline.
    private var searched = 0

    init(options: LineOptions, input: String) {
        window = ByteWindow(chunkSize: options.chunkSize, maximumCapacity: options.maximumLineLength + 2)
        maximumLineLength = options.maximumLineLength
        byteOrderMarkPending = options.stripsByteOrderMark
        self.input = input
    }

    var summary: LineSummary {
        LineSummary(
            lines: lineNumber, terminatedLines: terminatedLines, bytes: bytesRead,
            peakBufferBytes: window.peakCapacity)
    }

    /// The next line, or what the framer needs. Throws ``StreamError/Kind/lineTooLong(limit:)`` as soon as the
    /// buffered part of a line proves it too long. O(bytes searched).
    @inline(__always)
    mutating func next() throws -> Step {
        guard resolveByteOrderMark() else { return .needInput }
        let start = window.start
        let available = window.end - start
        let first = UnsafeRawPointer(window.base + start)
        if available > searched, let length = LineFramer.newline(in: first, from: searched, to: available) {
            var content = length
            if content > 0 && first.load(fromByteOffset: content - 1, as: UInt8.self) == 0x0D { content -= 1 }
            lineNumber += 1
            guard content <= maximumLineLength else {
                throw StreamError(.lineTooLong(limit: maximumLineLength), input: input, line: lineNumber)
            }
            terminatedLines += 1
            window.start = start + length + 1
            searched = 0
            return .line(UnsafeRawBufferPointer(start: first, count: content), isTerminated: true)
        }
        searched = available
        try checkPartialLine(first, available)
        guard inputEnded else { return .needInput }
        guard available > 0 else { return .end }
        lineNumber += 1
        guard available <= maximumLineLength else {  // a final `\r` is content here, not part of a line ending
            throw StreamError(.lineTooLong(limit: maximumLineLength), input: input, line: lineNumber)
        }
        window.start = window.end
        searched = 0
        return .line(UnsafeRawBufferPointer(start: first, count: available), isTerminated: false)
    }

    enum Block {
        /// Complete lines, each ending in `\n` except perhaps the input's final line.
        case lines(UnsafeRawBufferPointer)
        case needInput
        case end
    }

    /// Every complete line buffered, as one block ending just after the last `\n` (or, at the end of the input, the
    /// final unterminated line), consumed from the window. The caller splits it, checks each line against the
    /// limit and counts it with `countLine(isTerminated:)`. The partial line after the block is held to the limit
    /// here, as in `next()`. O(bytes after the last newline).
    mutating func nextBlock() throws -> Block {
        guard resolveByteOrderMark() else { return .needInput }
        let start = window.start
        let available = window.end - start
        let first = UnsafeRawPointer(window.base + start)
        var last = available - 1
        while last >= searched && first.load(fromByteOffset: last, as: UInt8.self) != 0x0A { last -= 1 }
        if last >= searched {
            window.start = start + last + 1
            searched = 0
            return .lines(UnsafeRawBufferPointer(start: first, count: last + 1))
        }
        searched = available
        try checkPartialLine(first, available)
        guard inputEnded else { return .needInput }
        guard available > 0 else { return .end }
        window.start = window.end
        searched = 0
        return .lines(UnsafeRawBufferPointer(start: first, count: available))
    }

    /// Counts one line delivered from a block; throws if its content is over the limit.
    mutating func countLine(length: Int, isTerminated: Bool) throws {
        lineNumber += 1
        guard length <= maximumLineLength else {
            throw StreamError(.lineTooLong(limit: maximumLineLength), input: input, line: lineNumber)
        }
        if isTerminated { terminatedLines += 1 }
    }

    /// Drops a byte order mark at the start if one is expected; false while more input is needed to tell.
    @inline(__always)
    private mutating func resolveByteOrderMark() -> Bool {
        guard byteOrderMarkPending else { return true }
        guard window.dropByteOrderMark(inputEnded: inputEnded) else { return false }
        byteOrderMarkPending = false
        return true
    }

    /// Throws if `available` buffered bytes with no newline among them already prove the next line too long (a
    /// last `\r` may still be the start of `\r\n`).
    private func checkPartialLine(_ first: UnsafeRawPointer, _ available: Int) throws {
        if available > maximumLineLength + 1
            || (available == maximumLineLength + 1 && first.load(fromByteOffset: available - 1, as: UInt8.self) != 0x0D)
        {
            throw StreamError(.lineTooLong(limit: maximumLineLength), input: input, line: lineNumber + 1)
        }
    }

    /// The offset of the first `\n` in `base[start..<end]`, or nil.
    @inline(__always)
    static func newline(in base: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        var index = start
        let shortEnd = Swift.min(end, start + 32)
        while index + 8 <= shortEnd {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ (ones &* 0x0A)
            let zeroes = (word &- ones) & ~word & (ones &* 0x80)
            if zeroes != 0 { return index + zeroes.trailingZeroBitCount >> 3 }
            index += 8
        }
        guard index < end, let found = memchr(base + index, 0x0A, end - index) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Where the next read goes. Never nil in practice: `next()` throws before a line can fill the window.
    mutating func spaceForRead() throws -> UnsafeMutableRawBufferPointer {
        guard let space = window.spaceForRead() else {
            throw StreamError(.lineTooLong(limit: maximumLineLength), input: input, line: lineNumber + 1)
        }
        return space
    }

    /// Records a read of `count` bytes into the space from `spaceForRead()`; 0 means the input ended.
    mutating func didRead(_ count: Int) {
        if count == 0 {
            inputEnded = true
        } else {
            window.didRead(count)
            bytesRead += count
        }
    }
}
