/// One CSV record, borrowed from the reader's buffer: fields are byte views, unquoted and unescaped in place.
///
/// Valid only during the callback that receives it. A random-access collection of ``CSVField``; look fields up by
/// position (O(1)) or by header name (O(1) expected). Not `Sendable`; copy out with ``strings()`` or
/// ``CSVRecord``.
public struct CSVRecordView: RandomAccessCollection {
    let base: UnsafeRawPointer
    /// Where decoded fields lie (``CSVFieldSlot/transcoded``).
    let arena: UnsafeRawPointer
    let slots: UnsafePointer<CSVFieldSlot>
    /// The number of fields: the header's when ``CSVOptions/RaggedRecords/accept`` padded a short record,
    /// ``fieldsRead`` otherwise.
    public let count: Int
    /// The 1-based line the record starts on.
    public let line: Int
    /// The file's header, when it has one.
    public let header: CSVHeader?
    /// What the record held that the options tolerate (empty for a clean record).
    public let quirks: CSVQuirks
    /// How many fields the record had in the input: fewer than ``count`` when its missing trailing fields were
    /// padded, more than the header's when it had extra fields.
    public let fieldsRead: Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The field at `position` (0-based). O(1).
    public subscript(position: Int) -> CSVField {
        precondition(position >= 0 && position < count, "CSVRecordView: field \(position) out of range 0..<\(count)")
        let slot = slots[position]
        return CSVField(
            bytes: UnsafeRawBufferPointer(start: (slot.transcoded ? arena : base) + slot.start, count: slot.count),
            wasQuoted: slot.quoted, wasTranscoded: slot.transcoded)
    }

    /// The field named `name` in the header, or nil if there is no header or no such name. O(1) expected.
    public subscript(name: String) -> CSVField? {
        guard let index = header?.index(of: name), index < count else { return nil }
        return self[index]
    }

    /// Every field as a `String`. O(record length).
    public func strings() -> [String] { map(\.string) }
}

@available(*, unavailable)
extension CSVRecordView: Sendable {}

/// One field's bytes, borrowed from the reader's buffer: without its quotes, doubled quotes already made single.
/// Valid only during the callback that received its record.
public struct CSVField: CustomStringConvertible {
    /// The field's bytes.
    public let bytes: UnsafeRawBufferPointer
    /// Whether the field was quoted in the file (`""` is an empty quoted field, distinct from nothing at all).
    public let wasQuoted: Bool
    /// Whether the field was decoded from the input's encoding into UTF-8 (see ``CSVOptions/encoding``).
    public let wasTranscoded: Bool

    /// The field as a `String`. O(length). Exact when ``CSVOptions/validatesUTF8`` is on (the default); otherwise
    /// invalid bytes are repaired with U+FFFD.
    public var string: String { String(decoding: bytes, as: UTF8.self) }
    /// Whether the field is empty.
    public var isEmpty: Bool { bytes.isEmpty }
    /// Whether the field's bytes equal `text`'s UTF-8, without making a `String`. O(length).
    public func equals(_ text: String) -> Bool { bytes.elementsEqual(text.utf8) }
    public var description: String { string }
}

@available(*, unavailable)
extension CSVField: Sendable {}

/// Where one field lies in the buffer, after unescaping.
struct CSVFieldSlot {
    var start: Int
    var count: Int
    var quoted: Bool
    /// The field held doubled quotes (or text after its closing quote), still to be made single (appended).
    var escaped: Bool
    /// `start` is an offset in the framer's arena, not its window: the field was decoded into UTF-8.
    var transcoded = false
}
