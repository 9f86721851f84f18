/// One line, borrowed from the reader's buffer: its bytes without the line ending (`\n` or `\r\n`).
///
/// Valid only during the callback that receives it: the buffer is reused for the next chunk. Copy what you keep
/// (``string()`` or `Array(line)`). A collection of `UInt8`, so `line.starts(with:)`, `line.split(separator:)` and
/// friends work without copying. Not `Sendable`.
public struct LineView: RandomAccessCollection, CustomStringConvertible {
    /// The line's bytes; valid only during the callback.
    public let bytes: UnsafeRawBufferPointer
    /// The 1-based line number.
    public let number: Int
    /// False only for a final line that has no `\n` after it (`wc -l` does not count that one).
    public let isTerminated: Bool
    // Unmanaged: the context outlives every view (both live only inside one read), and neither making nor copying
    // a view touches its reference count; it is only dereferenced to report an error.
    let context: Unmanaged<LineContext>
    let repairsUTF8: Bool

    init(
        bytes: UnsafeRawBufferPointer, number: Int, isTerminated: Bool, context: Unmanaged<LineContext>,
        repairsUTF8: Bool
    ) {
        self.bytes = bytes
        self.number = number
        self.isTerminated = isTerminated
        self.context = context
        self.repairsUTF8 = repairsUTF8
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { bytes.count }
    /// The byte at `position`. O(1).
    public subscript(position: Int) -> UInt8 {
        precondition(
            position >= 0 && position < bytes.count, "LineView: byte \(position) out of range 0..<\(bytes.count)")
        return bytes[position]
    }

    /// The line as a `String`, UTF-8 validated. O(length).
    ///
    /// - Throws: ``StreamError/Kind/invalidUTF8`` with the line and the column of the first invalid byte, unless
    ///   the reader's ``LineOptions/invalidUTF8`` is ``LineOptions/InvalidUTF8/repair``.
    public func string() throws -> String {
        if let offset = LineContext.invalidOffset(in: bytes, repairing: repairsUTF8) {
            throw StreamError(
                .invalidUTF8, input: context.takeUnretainedValue().input, line: number, column: offset + 1)
        }
        return String(decoding: bytes.bindMemory(to: UInt8.self), as: UTF8.self)
    }

    /// The line decoded leniently (invalid UTF-8 repaired), for printing.
    public var description: String { String(decoding: bytes, as: UTF8.self) }
}

@available(*, unavailable)
extension LineView: Sendable {}

/// What every line of one read shares: the input's name for errors and the UTF-8 policy.
final class LineContext {
    let input: String
    let repairsUTF8: Bool

    init(input: String, repairsUTF8: Bool) {
        self.input = input
        self.repairsUTF8 = repairsUTF8
    }

    func string(from bytes: UnsafeRawBufferPointer, line: Int) throws -> String {
        if let offset = LineContext.invalidOffset(in: bytes, repairing: repairsUTF8) {
            throw StreamError(.invalidUTF8, input: input, line: line, column: offset + 1)
        }
        return String(decoding: bytes.bindMemory(to: UInt8.self), as: UTF8.self)
    }

    /// The offset of the first invalid UTF-8 byte, or nil if the line is valid or is to be repaired anyway.
    /// `String(decoding:)` on a buffer pointer is the standard library's fast path (one copy, vectorized checks)
    /// but repairs rather than rejects, so lines with non-ASCII bytes are validated here first.
    @inline(__always)
    static func invalidOffset(in bytes: UnsafeRawBufferPointer, repairing: Bool) -> Int? {
        guard !repairing && !UTF8Validation.isASCII(bytes) else { return nil }
        return UTF8Validation.firstInvalidOffset(in: bytes)
    }
}
