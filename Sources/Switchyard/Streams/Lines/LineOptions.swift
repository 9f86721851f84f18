/// How ``Lines`` splits its input.
public struct LineOptions: Sendable, Hashable {
    /// What the `String` tier does with bytes that are not valid UTF-8.
    public enum InvalidUTF8: Sendable, Hashable {
        /// Throw ``StreamError/Kind/invalidUTF8`` naming the line and the column of the first bad byte.
        case fail
        /// Replace each invalid sequence with U+FFFD, as `String(decoding:as:)` does.
        case repair
    }

    /// Bytes asked for by each read (default 64 KiB). The buffer holds this much, and grows (doubling) only while
    /// a longer line is buffered, up to ``maximumLineLength`` plus 2 bytes; it does not shrink during a read.
    public var chunkSize: Int
    /// The longest line allowed, in bytes without its line ending (default 1 MiB). A longer line throws
    /// ``StreamError/Kind/lineTooLong(limit:)`` with its line number, so the buffer never grows past it (plus the
    /// line ending). At most 2⁴⁰.
    public var maximumLineLength: Int
    /// Whether a UTF-8 byte order mark (`EF BB BF`) at the very start is dropped (default true).
    public var stripsByteOrderMark: Bool
    /// What the `String` tier does with invalid UTF-8 (default ``InvalidUTF8/fail``).
    public var invalidUTF8: InvalidUTF8

    /// Options with the defaults above; sizes below 1 are raised to 1, and above their maximum lowered to it.
    public init(
        chunkSize: Int = 64 * 1024, maximumLineLength: Int = 1 << 20, stripsByteOrderMark: Bool = true,
        invalidUTF8: InvalidUTF8 = .fail
    ) {
        self.chunkSize = min(max(1, chunkSize), 1 << 30)
        self.maximumLineLength = min(max(1, maximumLineLength), 1 << 40)
        self.stripsByteOrderMark = stripsByteOrderMark
        self.invalidUTF8 = invalidUTF8
    }
}

/// What one pass over a line stream saw.
public struct LineSummary: Sendable, Hashable, CustomStringConvertible {
    /// Lines delivered, the final line without a line ending included.
    public var lines: Int
    /// Lines that ended with `\n` (what `wc -l` counts).
    public var terminatedLines: Int
    /// Bytes read from the input.
    public var bytes: Int
    /// The largest the read buffer grew: the chunk size, or more if a longer line needed it.
    public var peakBufferBytes: Int

    public var description: String {
        "\(lines) lines (\(terminatedLines) terminated), \(bytes) bytes, buffer peak \(peakBufferBytes) bytes"
    }
}
