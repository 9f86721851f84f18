import Switchyard

/// Converts records into a ``RowBatch``: each GTFS field checked and converted by its type. A record whose
/// required value is missing or invalid becomes a skipped record (an ``ImportProblem`` of severity `error`);
/// everything else is imported, with a warning for each quirk the CSV reader tolerated and each optional or expected
/// value (``GTFSField/isExpected``) that had to be stored as NULL (never dropped silently).
///
/// Owned by one reader job. O(fields) per record, no allocation per clean record besides the batch's amortised
/// growth; the warning paths run only for records that have something to warn about.
struct BatchBuilder {
    let layout: TableLayout
    let capacity: Int
    private(set) var batch: RowBatch
    // The layout's columns as plain arrays, so the per-field loop copies no `String` (no retain/release).
    private let fieldIndexes: [Int]
    private let types: [GTFSColumnType]
    private let required: [Bool]
    /// Per column: ``GTFSField/isExpected`` (an empty value is warned about, not skipped).
    private let expected: [Bool]
    /// Per column: required or expected, so an empty value is reported rather than stored as NULL silently.
    private let rejectsEmpty: [Bool]
    /// Set by the last `append` that read a value in a tolerated form (an integer written as `2.0`, a time as
    /// `8:05`): the warning's kind.
    private var lenientRead: ImportProblem.Kind?
    /// The header's width: fields past it are extra.
    private let headerWidth: Int
    /// What the reader's encoding decodes non-UTF-8 text as, for warnings.
    private let decodedAs: String
    /// The first required field the header lacks and why every record is skipped (see
    /// ``TableLayout/missingFields``); nil for a header that has them all.
    private let lacking: (field: String, reason: String)?

    init(layout: TableLayout, capacity: Int, headerWidth: Int, decodedAs: String) {
        self.layout = layout
        self.capacity = capacity
        self.headerWidth = headerWidth
        self.decodedAs = decodedAs
        batch = RowBatch(layout: layout, capacity: capacity)
        fieldIndexes = layout.columns.map(\.fieldIndex)
        types = layout.columns.map(\.type)
        required = layout.columns.map(\.isRequired)
        expected = layout.columns.map(\.isExpected)
        rejectsEmpty = layout.columns.map { $0.isRequired || $0.isExpected }
        lacking = layout.missingFieldsReason.map { (layout.missingFields[0], $0) }
    }

    /// Whether the batch holds `capacity` records, imported or skipped (so a file of nothing but malformed
    /// records still moves in bounded batches).
    var isFull: Bool { batch.records >= capacity }

    /// Adds `record` as a row (with its warnings), or as a skipped record if a required value is missing or
    /// invalid; returns the skipped record's problem, if any.
    @discardableResult
    mutating func add(_ record: CSVRecordView) -> ImportProblem? {
        if let lacking {
            let problem = ImportProblem(
                file: layout.file.fileName, line: record.line, field: lacking.field, kind: .missingValue,
                reason: lacking.reason)
            add(problem)
            return problem
        }
        let firstCell = batch.cells.count
        let firstText = batch.text.count
        let clean = record.quirks.isEmpty
        var invalidOptional: [(column: Int, reason: String)] = []
        var lenient: [(column: Int, kind: ImportProblem.Kind)] = []  // values read in a tolerated form
        for column in 0..<fieldIndexes.count {
            let field = record[fieldIndexes[column]]
            let reason: String?
            if !clean && record.quirks.contains(.nulBytes) && field.bytes.contains(0) {
                // SQLite's text functions and C readers stop at a NUL: never store one.
                let kept = field.bytes.filter { $0 != 0 }
                reason = kept.withUnsafeBytes { appendOrReason($0, column: column) }
            } else {
                reason = appendOrReason(field.bytes, column: column)
            }
            if let kind = lenientRead {
                lenientRead = nil
                lenient.append((column, kind))
            }
            guard let reason else { continue }
            if required[column] {
                batch.cells.removeSubrange(firstCell...)
                batch.text.removeSubrange(firstText...)
                let missing = fieldIndexes[column] >= record.fieldsRead
                let problem = ImportProblem(
                    file: layout.file.fileName, line: record.line, field: layout.columns[column].name,
                    kind: missing || reason == Self.emptyReason ? .missingValue : .invalidValue,
                    reason: missing
                        ? "required value missing: the record has \(record.fieldsRead) of \(headerWidth) fields"
                        : reason)
                add(problem)
                return problem
            }
            batch.cells.append(.null)
            invalidOptional.append((column, reason))
        }
        batch.rowCount += 1
        batch.lastLine = record.line
        if !clean || !invalidOptional.isEmpty || !lenient.isEmpty {
            warn(about: record, invalidOptional: invalidOptional, lenient: lenient)
        }
        return nil
    }

    /// Records `problem`: a skipped record, or a warning about an imported one (listed up to
    /// ``ImportProblem/listedWarnings`` of its kind in this batch, counted always).
    mutating func add(_ problem: ImportProblem) {
        let count = batch.counts[problem.kind, default: 0]
        batch.counts[problem.kind] = count + 1
        if problem.severity == .error {
            batch.skipped += 1
            batch.lastLine = max(batch.lastLine, problem.line)
        }
        if problem.severity == .error || count < ImportProblem.listedWarnings { batch.problems.append(problem) }
    }

    /// Hands over the batch built so far and starts a new one.
    mutating func take(isLast: Bool) -> RowBatch {
        var finished = RowBatch(layout: layout, capacity: isLast ? 0 : capacity)
        swap(&finished, &batch)
        finished.isLast = isLast
        return finished
    }

    // MARK: Warnings

    /// Whether the next warning of `kind` would be listed (its reason is worth building).
    private func lists(_ kind: ImportProblem.Kind) -> Bool {
        batch.counts[kind, default: 0] < ImportProblem.listedWarnings
    }

    /// Counts a warning of `kind`, building its reason only when it will be listed.
    private mutating func warn(_ kind: ImportProblem.Kind, line: Int, field: String?, _ reason: () -> String) {
        let text = lists(kind) ? reason() : ""
        add(ImportProblem(file: layout.file.fileName, line: line, field: field, kind: kind, reason: text))
    }

    /// The warnings for an imported record: the CSV quirks it had, its values read in a tolerated form, and its
    /// optional and expected values stored as NULL.
    private mutating func warn(
        about record: CSVRecordView, invalidOptional: [(column: Int, reason: String)],
        lenient: [(column: Int, kind: ImportProblem.Kind)]
    ) {
        let line = record.line
        for (column, kind) in lenient {
            let field = record[fieldIndexes[column]]
            warn(kind, line: line, field: layout.columns[column].name) {
                let value = preview(GTFSValueParsing.trimmed(field.bytes))
                return kind == .timeWithoutSeconds ? "'\(value)' read as \(value):00" : "'\(value)' read as an integer"
            }
        }
        let width = headerWidth
        let decodedAs = decodedAs
        for (column, reason) in invalidOptional {
            if expected[column] {
                let missing = fieldIndexes[column] >= record.fieldsRead
                warn(.expectedValue, line: line, field: layout.columns[column].name) {
                    (missing ? "missing" : reason == Self.emptyReason ? "empty" : reason)
                        + "; stored as NULL (GTFS requires the value; the record is usable without it)"
                }
            } else {
                warn(.invalidOptionalValue, line: line, field: layout.columns[column].name) {
                    "\(reason); stored as NULL"
                }
            }
        }
        let quirks = record.quirks
        if quirks.contains(.blankAfterClosingQuote) {
            warn(.spaceAfterQuote, line: line, field: nil) { "spaces after a closing quote (dropped)" }
        }
        if quirks.contains(.textAfterClosingQuote) {
            warn(.textAfterQuote, line: line, field: nil) { "text after a closing quote (kept as part of the value)" }
        }
        if quirks.contains(.missingFields) {
            warn(.missingFields, line: line, field: nil) {
                "\(record.fieldsRead) of \(width) fields; the missing trailing fields read as empty"
            }
        }
        if quirks.contains(.extraFields) { warnAboutExtraFields(record) }
        if quirks.contains(.transcoded) || quirks.contains(.nulBytes) {
            // The imported columns only: a value that is not stored needs no warning.
            for column in layout.columns {
                let field = record[column.fieldIndex]
                let name = column.name
                if field.wasTranscoded {
                    warn(.notUTF8, line: line, field: name) {
                        "not UTF-8; read as \(decodedAs): '\(preview(field.bytes))'"
                    }
                }
                if quirks.contains(.nulBytes) && field.bytes.contains(0) {
                    warn(.nulBytes, line: line, field: name) { "NUL bytes removed" }
                }
            }
        }
    }

    private mutating func warnAboutExtraFields(_ record: CSVRecordView) {
        let width = headerWidth
        let extra = (width..<record.count).map { record[$0] }
        let values = extra.filter { !$0.isEmpty }
        let plural = extra.count == 1 ? "" : "s"
        if values.isEmpty {
            warn(.extraFields, line: record.line, field: nil) {
                "\(extra.count) empty field\(plural) past the header's \(width) (ignored)"
            }
        } else {
            warn(.extraFields, line: record.line, field: nil) {
                "\(extra.count) field\(plural) past the header's \(width); not imported: "
                    + values.prefix(10).map { "'\(preview($0.bytes))'" }.joined(separator: ", ")
                    + (values.count > 10 ? ", …" : "")
            }
        }
    }

    // MARK: Values

    static let emptyReason = "required value is empty"

    /// Appends the column's cell; returns why the value is rejected instead (nothing appended then).
    @inline(__always)
    private mutating func appendOrReason(_ bytes: UnsafeRawBufferPointer, column: Int) -> String? {
        append(bytes, type: types[column], rejectsEmpty: rejectsEmpty[column])
    }

    /// Appends one cell; returns why the value is rejected, if it is (an empty one only when `rejectsEmpty`).
    @inline(__always)
    private mutating func append(_ bytes: UnsafeRawBufferPointer, type: GTFSColumnType, rejectsEmpty: Bool) -> String? {
        if type != .text ? GTFSValueParsing.isBlank(bytes) : bytes.isEmpty {
            if rejectsEmpty { return Self.emptyReason }
            batch.cells.append(.null)
            return nil
        }
        switch type {
        case .text:
            let offset = batch.text.count
            guard offset + bytes.count <= Int(UInt32.max) else { return "batch text overflow" }
            batch.text.append(contentsOf: bytes)
            batch.cells.append(.text(offset: UInt32(offset), length: UInt32(bytes.count)))
        case .integer:
            switch GTFSValueParsing.integer(bytes) {
            case .success(let value): batch.cells.append(.integer(value))
            case .failure(let error):
                guard let value = GTFSValueParsing.integralDecimal(bytes) else { return error.description }
                batch.cells.append(.integer(value))
                lenientRead = .decimalInteger
            }
        case .time:
            switch GTFSValueParsing.time(bytes) {
            case .success(let value): batch.cells.append(.integer(value))
            case .failure(let error):
                guard let value = GTFSValueParsing.timeWithoutSeconds(bytes) else { return error.description }
                batch.cells.append(.integer(value))
                lenientRead = .timeWithoutSeconds
            }
        case .date:
            switch GTFSValueParsing.date(bytes) {
            case .success(let value): batch.cells.append(.integer(value))
            case .failure(let error): return error.description
            }
        case .real:
            switch GTFSValueParsing.real(bytes) {
            case .success(let value): batch.cells.append(.real(value))
            case .failure(let error): return error.description
            }
        }
        return nil
    }
}

/// Up to 40 bytes of `bytes` as text (U+FFFD for what is not UTF-8, NUL shown as `\0`), `…` if cut.
func preview(_ bytes: UnsafeRawBufferPointer) -> String {
    let text = String(decoding: bytes.prefix(40), as: UTF8.self).replacingNUL
    return bytes.count > 40 ? text + "…" : text
}

extension String {
    var replacingNUL: String {
        guard utf8.contains(0) else { return self }
        return String(decoding: utf8.flatMap { $0 == 0 ? Array("\\0".utf8) : [$0] }, as: UTF8.self)
    }
}
