/// Something an import met in a record (or a file): either the record was **skipped** (severity
/// ``Severity/error``: a required value missing or invalid, or a record the CSV reader cannot delimit), or it was
/// **imported** and this says what was tolerated or repaired (``Severity/warning``).
///
/// Every problem is counted per file and ``Kind`` (`_switchyard_import_counts`); every skipped record, and the
/// first ``listedWarnings`` warnings of each kind per file, are listed with their line and field
/// (`_switchyard_import_problems`).
public struct ImportProblem: Sendable, Hashable, CustomStringConvertible {
    /// Whether the record was left out or imported.
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        /// The record was not imported.
        case error
        /// The record was imported; the warning says what was tolerated or repaired.
        case warning
    }

    /// The class of problem; its `rawValue` is what the database and the JSON summary store.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        // Records skipped.
        /// The CSV reader could not read the record: a stray quote (its line is skipped), or, with
        /// `--encoding utf-8`, bytes that are not UTF-8.
        case malformedRecord = "malformed_record"
        /// A required value is empty or missing.
        case missingValue = "missing_value"
        /// A required value is not of its field's type.
        case invalidValue = "invalid_value"
        // Records imported.
        /// Spaces or tabs after a closing quote were dropped.
        case spaceAfterQuote = "space_after_quote"
        /// Text after a closing quote was kept as part of the value.
        case textAfterQuote = "text_after_quote"
        /// The record had fewer fields than the header; the missing trailing ones read as empty.
        case missingFields = "missing_fields"
        /// The record had more fields than the header; empty ones are ignored, values are listed in the reason.
        case extraFields = "extra_fields"
        /// A value was not UTF-8 and was decoded as Windows-1252 (or as the `--encoding` given).
        case notUTF8 = "not_utf8"
        /// NUL bytes were removed from a value.
        case nulBytes = "nul_bytes"
        /// An integer was written as a decimal whose fraction is zeros (`2.0`, as pandas writes an integer column that
        /// has empty values): read as that integer.
        case decimalInteger = "decimal_integer"
        /// A time was written without seconds (`8:05`, as some hand-made feeds write them): read as `8:05:00`.
        case timeWithoutSeconds = "time_without_seconds"
        /// An optional value is not of its field's type: stored as NULL (the reason quotes it).
        case invalidOptionalValue = "invalid_optional_value"
        /// A value the GTFS reference requires, though the record is usable without it (see
        /// ``GTFSField/isExpected``), is empty or not of its field's type: stored as NULL.
        case expectedValue = "expected_value"
        /// The header lacks a field the GTFS reference requires, though records are usable without it (see
        /// ``GTFSField/isExpected``): the column is NULL in every record. Listed once, on line 1.
        case expectedField = "expected_field"
        /// The header's names were not UTF-8 (decoded, or repaired with U+FFFD).
        case headerEncoding = "header_encoding"
        /// The file's name differs from the GTFS name only in case (`STOPS.TXT`).
        case fileNameCase = "file_name_case"
        /// An optional file has no header line: its table is created empty.
        case emptyFile = "empty_file"

        /// Whether records of this kind are skipped (``Severity/error``) or imported (``Severity/warning``).
        public var severity: Severity {
            switch self {
            case .malformedRecord, .missingValue, .invalidValue: .error
            default: .warning
            }
        }

        /// A short phrase for summaries: `values not UTF-8, read as Windows-1252`.
        public var summary: String {
            switch self {
            case .malformedRecord: "records the CSV reader could not read (a stray quote, text that is not UTF-8)"
            case .missingValue: "records missing a required value"
            case .invalidValue: "records with an invalid required value"
            case .spaceAfterQuote: "spaces after a closing quote (dropped)"
            case .textAfterQuote: "text after a closing quote (kept in the value)"
            case .missingFields: "records with missing trailing fields (read as empty)"
            case .extraFields: "records with fields past the header (not imported)"
            case .notUTF8: "values not UTF-8 (decoded as single-byte text)"
            case .nulBytes: "values with NUL bytes (removed)"
            case .decimalInteger: "integers written as decimals (2.0, read as 2)"
            case .timeWithoutSeconds: "times without seconds (8:05, read as 8:05:00)"
            case .invalidOptionalValue: "invalid optional values (stored as NULL)"
            case .expectedValue: "values GTFS requires that are empty or invalid (stored as NULL, the record kept)"
            case .expectedField: "fields GTFS requires missing from the header (stored as NULL, the records kept)"
            case .headerEncoding: "header names not UTF-8"
            case .fileNameCase: "file name in another case"
            case .emptyFile: "empty file (table created empty)"
            }
        }
    }

    /// How many warnings of each kind per file are listed in `_switchyard_import_problems` (all are counted).
    public static let listedWarnings = 100

    /// The GTFS file, e.g. `stop_times.txt`.
    public let file: String
    /// The line concerned: where the record starts, or for a record the CSV reader could not read, the line of the
    /// stray quote or bad byte (1 is the header; 0 for the file as a whole).
    public let line: Int
    /// The field concerned, if one is.
    public let field: String?
    /// What happened, e.g. `'8:5:00' is not a time (H:MM:SS)`.
    public let reason: String
    /// The class of problem.
    public let kind: Kind
    /// Whether the record was skipped or imported (``Kind/severity``).
    public var severity: Severity { kind.severity }

    /// A problem of `kind` with the record of `file` starting on `line`.
    public init(file: String, line: Int, field: String?, kind: Kind, reason: String) {
        self.file = file
        self.line = line
        self.field = field
        self.kind = kind
        self.reason = reason
    }

    /// `stops.txt:12: field stop_lat: 'north' is not a number` (`FILE:LINE: message`; no line for a whole file).
    public var description: String {
        "\(file)\(line > 0 ? ":\(line)" : ""): \(field.map { "field \($0): " } ?? "")\(reason)"
    }
}
