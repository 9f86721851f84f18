import Switchyard

/// The reader side of an import, for one file: streams its records (straight out of the zip, in fixed memory),
/// converts them into batches and sends each batch to the writer through the bounded channel, blocking while the
/// writer is `bufferedBatches` behind. Runs as a blocking job.
struct FileReaderJob: Sendable {
    let file: GTFSFile
    let feed: GTFSFeed
    let counter: ByteCounter
    /// Records on lines up to this one were committed by an earlier run: skip them.
    let resumeAfterLine: Int
    let options: ImportOptions
    let channel: BoundedChannel<RowBatch>
    let board: ProgressBoard

    func run() throws {
        do {
            try read()
        } catch let error as ImportError where error.kind == .corruptArchive {
            // The entry's checksum or length is checked only at its end: rows already committed may be corrupt.
            throw CorruptEntry(file: file, error: error)
        } catch let error as ImportError where error.kind == .malformedRecord {
            // Corrupt bytes can fail the CSV reader (a record too long; with --strict, any malformed record)
            // before the entry's end is reached: check the entry before blaming its content.
            if let corruption = feed.corruption(of: file) { throw CorruptEntry(file: file, error: corruption) }
            throw error
        }
    }

    private func read() throws {
        counter.reset()
        board.startedReading(file.fileName)
        let input = feed.input(for: file, counter: counter)
        let csvOptions = CSVOptions(
            malformedRecords: options.strict ? .stop : .skip, quotesInUnquotedFields: .allow,
            textAfterClosingQuote: .accept, raggedRecords: .accept, encoding: options.encoding.csvEncoding)
        var builder: BatchBuilder?
        let resumeAfterLine = resumeAfterLine
        var header: CSVHeader?
        do {
            // Skipped records go into the batches with the rows around them, so a file of nothing but malformed
            // records still moves (and commits) in bounded batches.
            header = try CSVRecords(input, options: csvOptions).forEachRecordBlocking(
                onSkipped: { error, header in
                    guard (error.line ?? 0) > resumeAfterLine else { return }
                    if builder == nil { builder = try makeBuilder(header: header, source: input.name) }
                    builder!.add(problem(for: error))
                    try sendIfFull(&builder!)
                },
                { record in
                    if builder == nil { builder = try makeBuilder(header: record.header, source: input.name) }
                    guard record.line > resumeAfterLine else { return }
                    if let problem = builder!.add(record), options.strict {
                        throw ImportError(
                            .malformedRecord,
                            "\(problem.field.map { "field \($0): " } ?? "")\(problem.reason) (--strict)",
                            file: input.name, line: problem.line)
                    }
                    try sendIfFull(&builder!)
                }
            ).header
        } catch let error as StreamError where error.kind == .missingHeader {
            // No header line: a required file is as good as missing; an optional one becomes an empty table.
            guard !file.isRequired else {
                throw ImportError(
                    .missingFile,
                    "the file is empty (no header line); \(file.fileName) is required, so the feed is incomplete",
                    file: input.name)
            }
        } catch let error as StreamError {
            throw importError(error, source: input.name)
        }
        if builder == nil {
            builder = try makeBuilder(header: header, source: input.name)
        }
        if header == nil && resumeAfterLine == 0 {
            builder!.add(
                ImportProblem(
                    file: file.fileName, line: 0, field: nil, kind: .emptyFile,
                    reason: "the file is empty (no header line); its table is created empty"))
        }
        try send(&builder!, isLast: true)
    }

    /// A reading error as the import reports it: `FILE:LINE: field N (name): reason`.
    private func importError(_ error: StreamError, source: String) -> ImportError {
        if case .unsupportedEncoding = error.kind {
            return ImportError(.unsupportedEncoding, error.reason, file: source, line: 1)
        }
        let field = error.field.map { "field \($0)\(error.fieldName.map { " (\($0))" } ?? ""): " } ?? ""
        var strict = ""
        if options.strict {
            if case .recordTooLong = error.kind {} else { strict = " (--strict)" }
        }
        return ImportError(.malformedRecord, field + error.reason + strict, file: source, line: error.line)
    }

    /// Sends the batch once it holds a batch's worth of records (imported or skipped).
    private func sendIfFull(_ builder: inout BatchBuilder) throws {
        if builder.isFull { try send(&builder, isLast: false) }
    }

    /// Sends the batch built so far to the writer, and reports the bytes read.
    private func send(_ builder: inout BatchBuilder, isLast: Bool) throws {
        try channel.sendBlocking(builder.take(isLast: isLast))
        JobContext.current?.reportProgress(completed: counter.current, total: Int64(feed.files[file]!.size))
    }

    private func problem(for error: StreamError) -> ImportProblem {
        // A field past the header has a number only: it goes into the reason, `field` names header fields.
        var reason = error.fieldName == nil ? error.field.map { "field \($0): " } ?? "" : ""
        reason += error.reason
        if error.kind == .strayQuote, let next = error.resumedAtLine {
            reason += "; the record was skipped to the end of that line and reading went on at line \(next)"
        }
        return ImportProblem(
            file: file.fileName, line: error.line ?? 0, field: error.fieldName, kind: .malformedRecord, reason: reason)
    }

    /// The batch builder for the file's header (the GTFS fields when the file has none), with the header's own
    /// warnings (its encoding, the expected fields it lacks) when this run reads line 1.
    private func makeBuilder(header: CSVHeader?, source: String) throws -> BatchBuilder {
        let names = header?.names ?? file.fields.map(\.name)
        let layout = try TableLayout(file: file, header: names, source: source)
        var builder = BatchBuilder(
            layout: layout, capacity: options.batchSize, headerWidth: names.count,
            decodedAs: options.encoding.decodedName)
        if let header, resumeAfterLine == 0 {
            if header.quirks.contains(.transcoded) {
                builder.add(
                    ImportProblem(
                        file: file.fileName, line: 1, field: nil, kind: .headerEncoding,
                        reason: "the header is not UTF-8; its names were read as \(options.encoding.decodedName)"))
            }
            if header.quirks.contains(.repairedUTF8) {
                builder.add(
                    ImportProblem(
                        file: file.fileName, line: 1, field: nil, kind: .headerEncoding,
                        reason: "the header holds bytes that are not UTF-8; they read as U+FFFD in its names"))
            }
            for field in layout.missingExpectedFields {
                builder.add(
                    ImportProblem(
                        file: file.fileName, line: 1, field: field, kind: .expectedField,
                        reason: "the header lacks \(field), which GTFS requires: NULL in every record (the records "
                            + "are usable without it)"))
            }
        }
        return builder
    }
}
