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
    // Unowned: the context outlives every view (both live only inside one read); copying a view costs no refcounting.
    unowned(unsafe) let context: LineContext

    init(bytes: UnsafeRawBufferPointer, number: Int, isTerminated: Bool, context: LineContext) {
        self.bytes = bytes
        self.number = number
        self.isTerminated = isTerminated
        self.context = context
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { bytes.count }
    /// The byte at `position`. O(1).
    public subscript(position: Int) -> UInt8 { bytes[position] }

    /// The line as a `String`, UTF-8 validated. O(length).
    ///
    /// - Throws: ``StreamError/Kind/invalidUTF8`` with the line and the column of the first invalid byte, unless
    ///   the reader's ``LineOptions/invalidUTF8`` is ``LineOptions/InvalidUTF8/repair``.
    public func string() throws -> String {
        try context.string(from: bytes, line: number)
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
        let units = bytes.bindMemory(to: UInt8.self)
        if repairsUTF8 { return String(decoding: units, as: UTF8.self) }
        if let text = String(validating: units, as: UTF8.self) { return text }
        let column = (UTF8Validation.firstInvalidOffset(in: bytes) ?? 0) + 1
        throw StreamError(.invalidUTF8, input: input, line: line, column: column)
    }
}
