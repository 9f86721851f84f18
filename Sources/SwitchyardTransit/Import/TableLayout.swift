import Switchyard

/// How one file's records map onto its table: which CSV field fills which column, and how each is converted.
///
/// Built from the file's header. Columns GTFS defines are typed (see ``GTFSColumnType``); extra columns a feed adds
/// are **kept** as `TEXT` columns named after their header, except those whose name is empty, repeated, holds a NUL
/// byte, starts with `_switchyard`, or equals the name of a GTFS field of the file or of an earlier column apart from ASCII case
/// (`Stop_Desc` beside `stop_desc`: SQLite column names ignore case); those are listed in `ignoredColumns` and
/// skipped. GTFS field names are matched exactly, as the reference says they are case-sensitive.
///
/// A header that lacks a required field fails a required file (no consumer can use a feed whose `stops.txt` has no
/// `stop_id`); an optional file's layout records the fields in ``missingFields`` instead, and every record of that
/// file is skipped, as a record missing that value would be (an old-format `translations.txt`: the rest of the feed
/// imports). A header that lacks an expected field (``GTFSField/isExpected``: a `feed_info.txt` without `feed_lang`)
/// lists it in ``missingExpectedFields``; its column is NULL and the records import. Immutable; cheap to copy.
@_spi(ImportDestinations)
public struct TableLayout: Sendable {
    /// One column of the table, filled from one field of each record.
    public struct Column: Sendable {
        public let name: String
        public let type: GTFSColumnType
        public let isRequired: Bool
        /// An empty or invalid value is stored as NULL with a warning (see ``GTFSField/isExpected``).
        public let isExpected: Bool
        /// A column GTFS does not define (kept as text).
        public let isExtra: Bool
        /// The field's index in each record.
        let fieldIndex: Int
    }

    public let file: GTFSFile
    /// The file's header names, in order.
    public let header: [String]
    /// The columns a batch's rows hold, in order.
    public let columns: [Column]
    /// Header fields that are not imported, with the reason.
    public let ignoredColumns: [String]
    /// The required GTFS fields the header lacks (an optional file only: a required file's layout fails instead),
    /// in reference order. When not empty, every record of the file is skipped for ``missingFieldsReason``.
    public let missingFields: [String]
    /// Why the records of a file whose header lacks required fields are skipped; nil when it lacks none.
    public let missingFieldsReason: String?
    /// The expected GTFS fields (``GTFSField/isExpected``) the header lacks, in reference order: their columns are
    /// NULL, the records import.
    public let missingExpectedFields: [String]

    /// Maps `header` (the file's field names, in order) onto the file's table.
    /// - Throws: ``ImportError/Kind/missingField`` if a required file's header lacks a required field, or no
    ///   field is usable; ``ImportError/Kind/malformedRecord`` for more than ``maximumExtraColumns`` extra fields.
    init(file: GTFSFile, header: [String], source: String) throws {
        self.file = file
        self.header = header
        let known = Dictionary(uniqueKeysWithValues: file.fields.map { ($0.name, $0) })
        // The table has a column for every GTFS field of the file, whether the header has it or not.
        var taken = Dictionary(
            file.fields.map { ($0.name.asciiLowercased, $0.name) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        var columns: [Column] = []
        var ignored: [String] = []
        for (index, rawName) in header.enumerated() {
            let name = rawName.trimmingSpaces
            let folded = name.asciiLowercased
            if name.isEmpty {
                ignored.append("field \(index + 1) (no name)")
            } else if name.utf8.contains(0) {
                // SQLite would read the name only up to the NUL.
                ignored.append("field \(index + 1) (its name contains a NUL byte)")
            } else if seen.contains(name) {
                ignored.append("\(name) (repeated)")
            } else if folded.hasPrefix("_switchyard") {
                ignored.append("\(name) (reserved name)")
            } else if let field = known[name] {
                columns.append(
                    Column(
                        name: name, type: field.type, isRequired: field.isRequired, isExpected: field.isExpected,
                        isExtra: false, fieldIndex: index))
            } else if let other = taken[folded] {
                ignored.append("\(name) (same name as \(other) apart from case)")
            } else {
                columns.append(
                    Column(
                        name: name, type: .text, isRequired: false, isExpected: false, isExtra: true, fieldIndex: index)
                )
                taken[folded] = name
            }
            seen.insert(name)
        }
        let missing = file.fields.filter { $0.isRequired && !seen.contains($0.name) }.map(\.name)
        var missingReason: String?
        if !missing.isEmpty {
            // UTF-16 without a byte order mark reads as names with a NUL between the letters.
            let hint =
                header.contains { $0.utf8.contains(0) }
                ? " (its names hold NUL bytes: is the file UTF-16? Convert it to UTF-8, e.g. iconv -f UTF-16 -t UTF-8)"
                : ""
            let fields = "field\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))"
            let lacks = "the header lacks required \(fields)\(hint)"
            if file.isRequired { throw ImportError(.missingField, lacks, file: source, line: 1) }
            missingReason =
                lacks + " (\(file.fileName) is optional: its records are skipped, the rest of the feed imported)"
        }
        guard !columns.isEmpty else {
            // Possible only for a file with no required field (transfers.txt, agency.txt, feed_info.txt): an INSERT of
            // no columns is no SQL.
            throw ImportError(
                .missingField,
                "the header has no usable field (ignored: \(ignored.joined(separator: ", ")))", file: source, line: 1)
        }
        let extras = columns.count { $0.isExtra }
        guard extras <= TableLayout.maximumExtraColumns else {
            throw ImportError(
                .malformedRecord,
                "the header has \(extras) fields GTFS does not define; at most "
                    + "\(TableLayout.maximumExtraColumns) are kept", file: source, line: 1)
        }
        self.columns = columns
        ignoredColumns = ignored
        missingFields = missing
        missingFieldsReason = missingReason
        missingExpectedFields = file.fields.filter { $0.isExpected && !seen.contains($0.name) }.map(\.name)
    }

    /// The most non-GTFS columns a header may add (SQLite allows 2,000 columns per table).
    static let maximumExtraColumns = 1_000

    /// The extra (non-GTFS) columns that are kept.
    public var extraColumns: [String] { columns.filter(\.isExtra).map(\.name) }

    /// `CREATE TABLE IF NOT EXISTS`: every GTFS field of the file, then this header's extra columns.
    var createTableSQL: String {
        var definitions = file.fields.map { "\(quotedIdentifier($0.name)) \($0.type.sqlType)" }
        definitions += extraColumns.map { "\(quotedIdentifier($0)) TEXT" }
        return "CREATE TABLE IF NOT EXISTS \(quotedIdentifier(file.tableName)) (\(definitions.joined(separator: ", ")))"
    }

    /// Adds extra columns an existing table lacks (the same header seen before adds none).
    func missingColumnsSQL(existing: Set<String>) -> [String] {
        extraColumns.filter { !existing.contains($0) }.map {
            "ALTER TABLE \(quotedIdentifier(file.tableName)) ADD COLUMN \(quotedIdentifier($0)) TEXT"
        }
    }

    /// `INSERT` of `rows` rows of this layout's columns (parameters row by row).
    func insertSQL(rows: Int) -> String {
        let names = columns.map { quotedIdentifier($0.name) }.joined(separator: ", ")
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let values = Array(repeating: row, count: rows).joined(separator: ", ")
        return "INSERT INTO \(quotedIdentifier(file.tableName)) (\(names)) VALUES \(values)"
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
        while let last = view.last, last == " " || last == "\t" { view.removeLast() }
        return String(view)
    }

    /// With ASCII letters lowercased, as SQLite compares identifiers.
    var asciiLowercased: String {
        String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
