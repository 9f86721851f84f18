/// What a record (or the header) held that RFC 4180 does not allow but the reader's options tolerate: the record
/// was delivered, and these say how it was read so a consumer can warn about it.
///
/// Empty for a clean record. Set only on the slow paths that meet a quirk, so clean input pays nothing for them.
public struct CSVQuirks: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Spaces or tabs between a closing quote and the delimiter were dropped
    /// (``CSVOptions/TextAfterClosingQuote/accept``, trimming off).
    public static let blankAfterClosingQuote = CSVQuirks(rawValue: 1 << 0)
    /// Text after a closing quote was appended to the field (``CSVOptions/TextAfterClosingQuote/accept``).
    public static let textAfterClosingQuote = CSVQuirks(rawValue: 1 << 1)
    /// The record had fewer fields than the header; the missing trailing fields read as empty
    /// (``CSVOptions/RaggedRecords/accept``).
    public static let missingFields = CSVQuirks(rawValue: 1 << 2)
    /// The record had more fields than the header; they are delivered after the header's
    /// (``CSVOptions/RaggedRecords/accept``).
    public static let extraFields = CSVQuirks(rawValue: 1 << 3)
    /// At least one field was decoded from the encoding chosen in ``CSVOptions/encoding`` (it was not, or was
    /// not read as, UTF-8); see ``CSVField/wasTranscoded``.
    public static let transcoded = CSVQuirks(rawValue: 1 << 4)
    /// Header only, with ``CSVOptions/TextEncoding/utf8``: bytes that are not UTF-8 became U+FFFD.
    public static let repairedUTF8 = CSVQuirks(rawValue: 1 << 5)
    /// A field holds a NUL byte (delivered as is: C strings, SQLite's `length()` and terminals stop at it).
    /// Detected while the record is checked for UTF-8 (``CSVOptions/validatesUTF8``, or any other encoding).
    public static let nulBytes = CSVQuirks(rawValue: 1 << 6)

    public var description: String {
        let names: [(CSVQuirks, String)] = [
            (.blankAfterClosingQuote, "blank after closing quote"),
            (.textAfterClosingQuote, "text after closing quote"),
            (.missingFields, "missing fields"), (.extraFields, "extra fields"), (.transcoded, "transcoded"),
            (.repairedUTF8, "repaired UTF-8"), (.nulBytes, "NUL bytes"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
