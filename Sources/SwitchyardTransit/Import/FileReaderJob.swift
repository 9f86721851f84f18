import Switchyard
import Synchronization

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
        counter.reset()
        board.startedReading(file.fileName)
        let input = feed.input(for: file, counter: counter)
        let inbox = ProblemInbox()
        let csvOptions = CSVOptions(
            malformedRecords: options.strict ? .stop : .skip, quotesInUnquotedFields: .allow,
            reportSkippedRecord: { error in inbox.post(error) })
        var builder: BatchBuilder?
        let resumeAfterLine = resumeAfterLine
        var header: [String]?
        do {
            header = try CSVRecords(input, options: csvOptions).forEachRecord { record in
                if builder == nil {
                    builder = try makeBuilder(header: record.header?.names ?? [], source: input.name)
                }
                if inbox.hasPosts { drain(inbox, into: &builder!) }
                guard record.line > resumeAfterLine else { return }
                if let problem = builder!.add(record), options.strict {
                    throw ImportError(.malformedRecord, "\(feed.path): \(problem) (--strict)")
                }
                if builder!.isFull {
                    try channel.sendBlocking(builder!.take(isLast: false))
                    JobContext.current?.reportProgress(completed: counter.current, total: Int64(feed.files[file]!.size))
                }
            }.header?.names
        } catch let error as StreamError where error.kind == .missingHeader {
            header = file.fields.map(\.name)      // an empty file: no records, the table is still created
        } catch let error as StreamError {
            throw ImportError(.malformedRecord, "\(error)\(options.strict ? " (--strict)" : "")")
        }
        if builder == nil {
            builder = try makeBuilder(header: header ?? [], source: input.name)
        }
        drain(inbox, into: &builder!)
        try channel.sendBlocking(builder!.take(isLast: true))
        JobContext.current?.reportProgress(completed: counter.current, total: Int64(feed.files[file]!.size))
    }

    private func makeBuilder(header: [String], source: String) throws -> BatchBuilder {
        let layout = try TableLayout(file: file, header: header, source: source)
        return BatchBuilder(layout: layout, capacity: options.batchSize)
    }

    private func drain(_ inbox: ProblemInbox, into builder: inout BatchBuilder) {
        for error in inbox.take() where (error.line ?? 0) > resumeAfterLine {
            let field = error.fieldName ?? error.field.map { "field \($0)" }
            builder.add(ImportProblem(file: file.fileName, line: error.line ?? 0, field: field, reason: error.reason))
        }
    }
}

/// Malformed records the CSV reader skipped, handed from its report callback to the reader job's loop.
/// The callback runs on the reading thread before the next record; the isolation makes the hand-over `Sendable`,
/// and the counter lets the loop skip the lock while nothing was posted.
private final class ProblemInbox: Sendable {
    private let errors = Isolated<[StreamError]>([], label: "skipped records")
    private let count = Atomic<Int>(0)

    var hasPosts: Bool { count.load(ordering: .relaxed) > 0 }

    func post(_ error: StreamError) {
        errors.withValue { $0.append(error) }
        count.add(1, ordering: .relaxed)
    }

    func take() -> [StreamError] {
        let taken = errors.withValue { errors in
            let taken = errors
            errors.removeAll()
            return taken
        }
        count.subtract(taken.count, ordering: .relaxed)
        return taken
    }
}
