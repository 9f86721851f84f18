import Switchyard

/// Converts records into a ``RowBatch``: each GTFS field checked and converted by its type; a record with a bad or
/// missing required value becomes an ``ImportProblem`` instead of a row (never dropped silently).
///
/// Owned by one reader job. O(fields) per record, no allocation per record besides the batch's amortised growth.
struct BatchBuilder {
    let layout: TableLayout
    let capacity: Int
    private(set) var batch: RowBatch
    // The layout's columns as plain arrays, so the per-field loop copies no `String` (no retain/release).
    private let fieldIndexes: [Int]
    private let types: [GTFSColumnType]
    private let required: [Bool]

    init(layout: TableLayout, capacity: Int) {
        self.layout = layout
        self.capacity = capacity
        batch = RowBatch(layout: layout, capacity: capacity)
        fieldIndexes = layout.columns.map(\.fieldIndex)
        types = layout.columns.map(\.type)
        required = layout.columns.map(\.isRequired)
    }

    /// Whether the batch holds `capacity` records, imported or skipped (so a file of nothing but malformed
    /// records still moves in bounded batches).
    var isFull: Bool { batch.records >= capacity }

    /// Adds `record` as a row, or as a problem if a value is invalid; returns the problem, if any.
    @discardableResult
    mutating func add(_ record: CSVRecordView) -> ImportProblem? {
        let firstCell = batch.cells.count
        let firstText = batch.text.count
        for column in 0..<fieldIndexes.count {
            let bytes = record[fieldIndexes[column]].bytes
            if let reason = append(bytes, type: types[column], isRequired: required[column]) {
                batch.cells.removeSubrange(firstCell...)
                batch.text.removeSubrange(firstText...)
                let problem = ImportProblem(
                    file: layout.file.fileName, line: record.line, field: layout.columns[column].name, reason: reason)
                add(problem)
                return problem
            }
        }
        batch.rowCount += 1
        batch.lastLine = record.line
        return nil
    }

    /// Records `problem` (a record skipped for `problem.reason`).
    mutating func add(_ problem: ImportProblem) {
        batch.problems.append(problem)
        batch.lastLine = max(batch.lastLine, problem.line)
    }

    /// Hands over the batch built so far and starts a new one.
    mutating func take(isLast: Bool) -> RowBatch {
        var finished = RowBatch(layout: layout, capacity: isLast ? 0 : capacity)
        swap(&finished, &batch)
        finished.isLast = isLast
        return finished
    }

    /// Appends one cell; returns why the value is rejected, if it is.
    @inline(__always)
    private mutating func append(_ bytes: UnsafeRawBufferPointer, type: GTFSColumnType, isRequired: Bool) -> String? {
        if type != .text ? GTFSValueParsing.isBlank(bytes) : bytes.isEmpty {
            if isRequired { return "required value is empty" }
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
            case .failure(let error): return error.description
            }
        case .time:
            switch GTFSValueParsing.time(bytes) {
            case .success(let value): batch.cells.append(.integer(value))
            case .failure(let error): return error.description
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
