/// Why reading a byte, line or CSV stream failed, and where: the input's name, and the line, column and field when
/// they are known.
///
/// `description` reads like a compiler diagnostic, e.g.
/// `stop_times.txt:1042:17: field 3 (departure_time): text after the closing quote`, so a failure can be printed as is.
/// Lines and columns are 1-based; a column counts bytes from the start of its physical line (on line 1, after a
/// stripped byte order mark).
public struct StreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The file could not be opened (`errno` and the system's message).
        case openFailed(errno: Int32, message: String)
        /// Reading failed after the input was opened.
        case readFailed(errno: Int32, message: String)
        /// A line is longer than the configured limit (bytes, line ending excluded); the buffer did not grow past it.
        case lineTooLong(limit: Int)
        /// A CSV record is longer than the configured limit (bytes, final line ending excluded); the buffer did not
        /// grow past it.
        case recordTooLong(limit: Int)
        /// The bytes are not valid UTF-8; `column` points at the first invalid byte when known.
        case invalidUTF8
        /// A quoted CSV field opened on the input's last line is still open at the end of the input. (One that
        /// runs on across a line ending is a ``strayQuote``.)
        case unterminatedQuote
        /// A closing quote is followed by something other than a delimiter or a line ending (with
        /// ``CSVOptions/TextAfterClosingQuote/reject``, the default).
        case textAfterClosingQuote
        /// A quoted field opened on one line runs past a line ending into a closing quote followed by text, past
        /// ``CSVOptions/maximumRecordLength``, or to the end of the input without closing: most likely a stray
        /// opening quote. The same diagnosis whether the reader stops or skips; the error points at that quote,
        /// and a skipping reader goes on at the line after it (``StreamError/resumedAtLine``), so the records the
        /// quote ran into are read, not lost.
        case strayQuote
        /// A quote appears inside an unquoted field (and ``CSVOptions/quotesInUnquotedFields`` rejects it).
        case quoteInUnquotedField
        /// A record has fewer fields than the header (or the first record), with ``CSVOptions/RaggedRecords/reject``.
        case tooFewFields(expected: Int, found: Int)
        /// A record has more fields than the header (or the first record), with ``CSVOptions/RaggedRecords/reject``.
        case tooManyFields(expected: Int, found: Int)
        /// The input is empty, but a header was expected.
        case missingHeader
        /// The input is in an encoding the reader cannot decode, named here (`UTF-16LE`, `UTF-16BE`: told by its
        /// byte order mark).
        case unsupportedEncoding(String)
        /// A synchronous reader was given an input that can only be read asynchronously (an `AsyncSequence`).
        case requiresAsynchronousReading
    }

    /// What went wrong.
    public var kind: Kind
    /// The input's name: its path, `fd <n>`, or the name given to an `AsyncSequence` input.
    public var input: String
    /// The 1-based line where the problem is, when known.
    public var line: Int?
    /// The 1-based byte column within that line, when known.
    public var column: Int?
    /// The 1-based index of the CSV field, when known.
    public var field: Int?
    /// The header name of that field, when there is a header.
    public var fieldName: String?
    /// For a record a reader skipped (``CSVOptions/MalformedRecords/skip``): the line it went on reading at.
    public var resumedAtLine: Int?

    /// Creates an error; readers create these, tests compare against them.
    public init(
        _ kind: Kind, input: String, line: Int? = nil, column: Int? = nil, field: Int? = nil, fieldName: String? = nil
    ) {
        self.kind = kind
        self.input = input
        self.line = line
        self.column = column
        self.field = field
        self.fieldName = fieldName
    }

    /// `input:line:column: field n (name): what went wrong`, leaving out what is not known.
    public var description: String {
        var text = input
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": "
        if let field {
            text += "field \(field)"
            if let fieldName { text += " (\(fieldName))" }
            text += ": "
        }
        text += reason
        if kind == .strayQuote, let resumedAtLine {
            text += "; its line was skipped and reading went on at line \(resumedAtLine)"
        }
        return text
    }

    /// What went wrong, without the input, position and field: `"3 fields, expected 4"`.
    public var reason: String {
        switch kind {
        case .openFailed(let code, let message): "cannot open: \(message) (errno \(code))"
        case .readFailed(let code, let message): "read failed: \(message) (errno \(code))"
        case .lineTooLong(let limit): "line longer than the limit of \(limit) bytes"
        case .recordTooLong(let limit): "record longer than the limit of \(limit) bytes"
        case .invalidUTF8: "invalid UTF-8"
        case .unterminatedQuote: "quoted field not closed before the end of the input"
        case .textAfterClosingQuote: "text after the closing quote"
        case .strayQuote: "quote not closed on its line (a stray quote?)"
        case .quoteInUnquotedField: "quote inside an unquoted field"
        case .tooFewFields(let expected, let found): "\(found) fields, expected \(expected)"
        case .tooManyFields(let expected, let found): "\(found) fields, expected \(expected)"
        case .missingHeader: "empty input, expected a header line"
        case .unsupportedEncoding(let name):
            "the input is \(name) (it starts with a \(name) byte order mark); convert it to UTF-8 first, "
                + "e.g. iconv -f \(name) -t UTF-8"
        case .requiresAsynchronousReading:
            "this input is an AsyncSequence and can only be read asynchronously (use the async API)"
        }
    }
}
