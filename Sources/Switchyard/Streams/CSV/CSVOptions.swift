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

    /// The field separator (default `,`); must not be `"`, `\r` or `\n`.
    public var delimiter: UInt8
    /// Whether the first record names the fields (default true). Field counts are checked against it; without a
    /// header, against the first record.
    public var hasHeader: Bool
    /// Whether spaces (and tabs, unless tab is the delimiter) around unquoted fields, around quoted fields' quotes,
    /// and around header names are dropped (default false: they are data, and text after a closing quote is an error).
    public var trimsWhitespace: Bool
    /// Whether a UTF-8 byte order mark at the very start is dropped (default true).
    public var stripsByteOrderMark: Bool
    /// Whether records are checked to be valid UTF-8 (default true; ASCII-only records cost one 8-bytes-a-step pass).
    public var validatesUTF8: Bool
    /// What happens to malformed records (default ``MalformedRecords/stop``).
    public var malformedRecords: MalformedRecords
    /// Quotes inside unquoted fields (default ``QuotesInUnquotedFields/reject``).
    public var quotesInUnquotedFields: QuotesInUnquotedFields
    /// Called with each skipped record's error when ``malformedRecords`` is ``MalformedRecords/skip``, in input
    /// order, on the reading task, before the next record is delivered.
    public var reportSkippedRecord: (@Sendable (StreamError) -> Void)?
    /// The longest record allowed, in bytes with its embedded line endings (default 1 MiB). A longer one throws
    /// ``StreamError/Kind/recordTooLong(limit:)`` in either policy, however the input is split into reads, and
    /// the buffer never grows past it (plus a line ending). One exception: when skipping, a record that is too long
    /// because a quoted field runs on across line endings is skipped as a ``StreamError/Kind/strayQuote`` from
    /// that quote's line, and reading goes on at the next line. At most 2⁴⁰.
    public var maximumRecordLength: Int
    /// Bytes asked for by each read (default 64 KiB, at most 2³⁰).
    public var chunkSize: Int

    /// Options with the defaults above.
    public init(
        delimiter: UInt8 = UInt8(ascii: ","), hasHeader: Bool = true, trimsWhitespace: Bool = false,
        stripsByteOrderMark: Bool = true, validatesUTF8: Bool = true, malformedRecords: MalformedRecords = .stop,
        quotesInUnquotedFields: QuotesInUnquotedFields = .reject,
        reportSkippedRecord: (@Sendable (StreamError) -> Void)? = nil,
        maximumRecordLength: Int = 1 << 20, chunkSize: Int = 64 * 1024
    ) {
        precondition(delimiter != UInt8(ascii: "\"") && delimiter != 0x0A && delimiter != 0x0D,
                     "CSVOptions: the delimiter cannot be a quote or a line ending")
        self.delimiter = delimiter
        self.hasHeader = hasHeader
        self.trimsWhitespace = trimsWhitespace
        self.stripsByteOrderMark = stripsByteOrderMark
        self.validatesUTF8 = validatesUTF8
        self.malformedRecords = malformedRecords
        self.quotesInUnquotedFields = quotesInUnquotedFields
        self.reportSkippedRecord = reportSkippedRecord
        self.maximumRecordLength = min(max(1, maximumRecordLength), 1 << 40)
        self.chunkSize = min(max(1, chunkSize), 1 << 30)
    }
}

/// What one pass over a CSV stream saw.
public struct CSVSummary: Sendable, Hashable, CustomStringConvertible {
    /// Records delivered (the header not included).
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
