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
            malformedRecords: options.strict ? .stop : .skip, quotesInUnquotedFields: .allow)
        var builder: BatchBuilder?
        let resumeAfterLine = resumeAfterLine
        var header: [String]?
        do {
            // Skipped records go into the batches with the rows around them, so a file of nothing but malformed
            // records still moves (and commits) in bounded batches.
            header = try CSVRecords(input, options: csvOptions).forEachRecord(
                onSkipped: { error, header in
                    guard (error.line ?? 0) > resumeAfterLine else { return }
                    if builder == nil { builder = try makeBuilder(header: header?.names ?? [], source: input.name) }
                    builder!.add(problem(for: error))
                    try sendIfFull(&builder!)
                },
                { record in
                    if builder == nil {
                        builder = try makeBuilder(header: record.header?.names ?? [], source: input.name)
                    }
                    guard record.line > resumeAfterLine else { return }
                    if let problem = builder!.add(record), options.strict {
                        throw ImportError(.malformedRecord, "\(feed.path): \(problem) (--strict)")
                    }
                    try sendIfFull(&builder!)
                }
            ).header?.names
        } catch let error as StreamError where error.kind == .missingHeader {
            header = file.fields.map(\.name)      // an empty file: no records, the table is still created
        } catch let error as StreamError {
            throw ImportError(.malformedRecord, "\(error)\(options.strict ? " (--strict)" : "")")
        }
        if builder == nil {
            builder = try makeBuilder(header: header ?? [], source: input.name)
        }
        try send(&builder!, isLast: true)
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
        let field = error.fieldName ?? error.field.map { "field \($0)" }
        return ImportProblem(file: file.fileName, line: error.line ?? 0, field: field, reason: error.reason)
    }

    private func makeBuilder(header: [String], source: String) throws -> BatchBuilder {
        let layout = try TableLayout(file: file, header: header, source: source)
        return BatchBuilder(layout: layout, capacity: options.batchSize)
    }
}
