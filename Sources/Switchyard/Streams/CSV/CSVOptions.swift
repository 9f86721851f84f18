/// How ``CSVRecords`` reads its input: RFC 4180, plus what real files do.
public struct CSVOptions: Sendable {
    /// What happens to a record that is malformed (bad quoting, wrong field count, invalid UTF-8).
    public enum MalformedRecords: Sendable, Hashable {
        /// Throw the ``StreamError``; nothing after the bad record is read.
        case stop
        /// Leave the record out, count it in ``CSVSummary/skippedRecords``, hand its error to
        /// ``CSVOptions/reportSkippedRecord`` (if set), and go on with the next line.
        case skip
    }

    /// What ``StreamError/Kind/quoteInUnquotedField`` covers: `5" floppy` in an unquoted field.
    public enum QuotesInUnquotedFields: Sendable, Hashable {
        /// A malformed record (RFC 4180).
        case reject
        /// Part of the field's text, as many spreadsheet exports expect.
        case allow
    }

    /// What a closing quote may be followed by, besides a delimiter or a line ending.
    public enum TextAfterClosingQuote: Sendable, Hashable {
        /// ``StreamError/Kind/textAfterClosingQuote``: a malformed record (RFC 4180).
        case reject
        /// Spaces and tabs before the delimiter are dropped (``CSVQuirks/blankAfterClosingQuote``); other text is
        /// appended to the field as it stands, `"abc"d` reading `abcd` (``CSVQuirks/textAfterClosingQuote``), as
        /// Python's `csv` and pandas read it. A quoted field that spans lines and is then followed by text stays a
        /// ``StreamError/Kind/strayQuote``: where that record ends cannot be known.
        case accept
    }

    /// Records whose number of fields differs from the header's (or, without a header, the first record's).
    public enum RaggedRecords: Sendable, Hashable {
        /// ``StreamError/Kind/tooFewFields(expected:found:)`` / ``StreamError/Kind/tooManyFields(expected:found:)``:
        /// a malformed record.
        case reject
        /// Delivered: missing trailing fields read as empty, unquoted fields (``CSVQuirks/missingFields``); extra
        /// fields are delivered after the header's (``CSVQuirks/extraFields``), for the consumer to judge.
        /// ``CSVRecordView/fieldsRead`` says how many fields the input had.
        case accept
    }

    /// How the bytes of fields are read as text.
    public enum TextEncoding: Sendable, Hashable {
        /// UTF-8; with ``CSVOptions/validatesUTF8``, a record holding invalid UTF-8 is malformed
        /// (``StreamError/Kind/invalidUTF8``), except in the header, whose invalid bytes become U+FFFD
        /// (``CSVQuirks/repairedUTF8``) so that one bad name cannot make a file unreadable.
        case utf8
        /// UTF-8 where it is valid; a field that is not valid UTF-8 is decoded as Windows-1252 and delivered as
        /// UTF-8 (``CSVQuirks/transcoded``, ``CSVField/wasTranscoded``). Decided field by field, so a file that
        /// mixes both (files joined from two sources) reads right, and valid UTF-8 is never reinterpreted.
        case utf8OrWindows1252
        /// Windows-1252 (the Western European Windows code page, a superset of Latin-1's printable characters):
        /// every byte above 0x7F is decoded; the five bytes the code page leaves undefined become U+0081, U+008D,
        /// U+008F, U+0090 and U+009D, as the WHATWG encoding standard maps them.
        case windows1252
        /// ISO 8859-1: byte `b` is code point `U+00b`.
        case latin1
    }

    /// The field separator (default `,`); must not be `"`, `\r` or `\n`.
    public var delimiter: UInt8
    /// Whether the first record names the fields (default true). Field counts are checked against it; without a
    /// header, against the first record.
    public var hasHeader: Bool
    /// Whether spaces (and tabs, unless tab is the delimiter) around unquoted fields, around quoted fields' quotes,
    /// and around header names are dropped (default false: they are data, and what follows a closing quote is as
    /// ``textAfterClosingQuote`` says).
    public var trimsWhitespace: Bool
    /// Whether a UTF-8 byte order mark at the very start is dropped (default true).
    public var stripsByteOrderMark: Bool
    /// Whether records are checked to be valid UTF-8 (default true; ASCII-only records cost one 8-bytes-a-step pass).
    public var validatesUTF8: Bool
    /// What happens to malformed records (default ``MalformedRecords/stop``).
    public var malformedRecords: MalformedRecords
    /// Quotes inside unquoted fields (default ``QuotesInUnquotedFields/reject``).
    public var quotesInUnquotedFields: QuotesInUnquotedFields
    /// Text after a closing quote (default ``TextAfterClosingQuote/reject``).
    public var textAfterClosingQuote: TextAfterClosingQuote
    /// Records with too few or too many fields (default ``RaggedRecords/reject``).
    public var raggedRecords: RaggedRecords
    /// How fields' bytes are decoded (default ``TextEncoding/utf8``). Every encoding but ``TextEncoding/utf8``
    /// checks each record, whatever ``validatesUTF8`` says (an ASCII-only record costs one pass, as validation).
    public var encoding: TextEncoding
    /// Called with each skipped record's error when ``malformedRecords`` is ``MalformedRecords/skip``, in input
    /// order, on the reading task, before the next record is delivered.
    public var reportSkippedRecord: (@Sendable (StreamError) -> Void)?
    /// The longest record allowed, in bytes with its embedded line endings (default 1 MiB). A longer one throws
    /// ``StreamError/Kind/recordTooLong(limit:)`` in either policy, however the input is split into reads, and
    /// the buffer never grows past it (plus a line ending). One exception: a record that is too long because a
    /// quoted field runs on across line endings is a ``StreamError/Kind/strayQuote`` at that quote, in either
    /// policy; a skipping reader goes on at the line after the quote's. At most 2⁴⁰.
    public var maximumRecordLength: Int
    /// Bytes asked for by each read (default 64 KiB, at most 2³⁰).
    public var chunkSize: Int

    /// Options with the defaults above.
    public init(
        delimiter: UInt8 = UInt8(ascii: ","), hasHeader: Bool = true, trimsWhitespace: Bool = false,
        stripsByteOrderMark: Bool = true, validatesUTF8: Bool = true, malformedRecords: MalformedRecords = .stop,
        quotesInUnquotedFields: QuotesInUnquotedFields = .reject,
        textAfterClosingQuote: TextAfterClosingQuote = .reject, raggedRecords: RaggedRecords = .reject,
        encoding: TextEncoding = .utf8,
        reportSkippedRecord: (@Sendable (StreamError) -> Void)? = nil,
        maximumRecordLength: Int = 1 << 20, chunkSize: Int = 64 * 1024
    ) {
        precondition(
            delimiter != UInt8(ascii: "\"") && delimiter != 0x0A && delimiter != 0x0D,
            "CSVOptions: the delimiter cannot be a quote or a line ending")
        self.delimiter = delimiter
        self.hasHeader = hasHeader
        self.trimsWhitespace = trimsWhitespace
        self.stripsByteOrderMark = stripsByteOrderMark
        self.validatesUTF8 = validatesUTF8
        self.malformedRecords = malformedRecords
        self.quotesInUnquotedFields = quotesInUnquotedFields
        self.textAfterClosingQuote = textAfterClosingQuote
        self.raggedRecords = raggedRecords
        self.encoding = encoding
        self.reportSkippedRecord = reportSkippedRecord
        self.maximumRecordLength = min(max(1, maximumRecordLength), 1 << 40)
        self.chunkSize = min(max(1, chunkSize), 1 << 30)
    }
}

/// What one pass over a CSV stream saw.
public struct CSVSummary: Sendable, Hashable, CustomStringConvertible {
    /// Records delivered (the header not included). Every record read is either delivered or skipped:
    /// `records + skippedRecords` is the number of records in the input.
    public var records: Int
    /// Malformed records left out (``CSVOptions/MalformedRecords/skip`` only).
    public var skippedRecords: Int
    /// Physical lines read, blank lines and lines inside quoted fields included.
    public var lines: Int
    /// Bytes read from the input.
    public var bytes: Int
    /// The largest the read buffer grew.
    public var peakBufferBytes: Int
    /// The header, when ``CSVOptions/hasHeader`` is set and the input was not empty.
    public var header: CSVHeader?

    public var description: String {
        "\(records) records, \(skippedRecords) skipped, \(lines) lines, \(bytes) bytes, buffer peak \(peakBufferBytes) bytes"
    }
}
