/// The records of a CSV file, descriptor or byte sequence, read in fixed memory.
///
/// ```swift
/// let stopTimes = CSVRecords(.file("gtfs/stop_times.txt"))
/// try await stopTimes.forEachRecord { record in               // zero-copy fields, unquoted in place
///     guard let stop = record["stop_id"] else { return }
///     counts[stop.string, default: 0] += 1
/// }
/// for try await record in stopTimes { print(record["trip_id"] ?? "") }   // owned `CSVRecord`s
/// ```
///
/// - Format: RFC 4180 — fields separated by ``CSVOptions/delimiter``, quoted fields holding delimiters, doubled
///   quotes and line breaks — plus what real files do: a UTF-8 byte order mark, `\r\n`, `\r\r\n` and lone `\r` line
///   endings, no line ending after the last record, blank lines (skipped), optional trimming of spaces. Fields are
///   matched to the header by name.
/// - Malformed records (unterminated or stray quotes, text after a closing quote, too few or too many fields,
///   invalid UTF-8) become a ``StreamError`` naming the input, line, column and field; per
///   ``CSVOptions/malformedRecords`` the reader stops there or skips the record, counts it and reports it. A
///   malformed header always stops (bytes that are not UTF-8 in it are repaired instead).
/// - On request (``CSVOptions/textAfterClosingQuote``, ``CSVOptions/raggedRecords``, ``CSVOptions/encoding``) the
///   quirks mainstream readers tolerate are read instead, and each record says which it had
///   (``CSVRecordView/quirks``).
/// - Memory: one buffer of ``CSVOptions/chunkSize`` bytes, grown only while a record longer than a chunk is
///   buffered, never beyond ``CSVOptions/maximumRecordLength``; independent of the input's size.
/// - Where it runs, and cancellation: as ``Lines`` — synchronous forms block the calling thread, asynchronous forms
///   read on ``BlockingExecutor/shared``; cancellation is checked before every read.
public struct CSVRecords: AsyncSequence, Sendable {
    public typealias Element = CSVRecord

    /// Where the bytes come from.
    public let input: ByteInput
    /// How records are read.
    public let options: CSVOptions

    /// Records of `input`; nothing is read until iteration starts.
    public init(_ input: ByteInput, options: CSVOptions = CSVOptions()) {
        self.input = input
        self.options = options
    }

    /// Calls `body` with every record after the header, in order, each borrowed from the read buffer (zero-copy),
    /// reading with blocking calls on the calling thread. Stops at the first error and rethrows it.
    ///
    /// - Returns: what was read: records, skipped records, lines, bytes, the buffer's peak, the header.
    /// - Throws: ``StreamError``, `CancellationError`, or `body`'s error.
    @discardableResult
    public func forEachRecordBlocking(_ body: (CSVRecordView) throws -> Void) throws -> CSVSummary {
        try forEachRecordBlocking(onSkipped: { _, _ in }, body)
    }

    /// As ``forEachRecordBlocking(_:)``, and with ``CSVOptions/MalformedRecords/skip`` calls `onSkipped` with each skipped
    /// record's error and the header, in input order among the records, on the calling thread (after
    /// ``CSVOptions/reportSkippedRecord``). Unlike that callback, `onSkipped` may use the caller's local state
    /// (it does not escape), and an error it throws stops reading and is rethrown: a consumer that must keep
    /// skipped records with its output (or give up after too many) handles them here, even when no record
    /// follows.
    @discardableResult
    public func forEachRecordBlocking(
        onSkipped: (_ error: StreamError, _ header: CSVHeader?) throws -> Void,
        _ body: (CSVRecordView) throws -> Void
    ) throws -> CSVSummary {
        let file = try input.openForBlockingReads()
        var framer = CSVFramer(options: options, input: input.name)
        while true {
            switch try framer.next(onSkipped: onSkipped) {
            case .record(let fields, let line):
                try body(framer.view(fields: fields, line: line))
            case .end:
                return framer.summary(header: framer.header)
            case .needInput:
                try framer.fill(from: file)
            }
        }
    }

    /// As `forEachRecordBlocking(_:)`, but each read runs on ``BlockingExecutor/shared`` while this
    /// task is suspended; `body` runs on the caller's executor, zero-copy, between reads.
    @discardableResult
    public nonisolated(nonsending) func forEachRecord(_ body: (CSVRecordView) throws -> Void) async throws -> CSVSummary
    {
        try await forEachRecord(onSkipped: { _, _ in }, body)
    }

    /// As ``forEachRecordBlocking(onSkipped:_:)``, with each read on ``BlockingExecutor/shared``;
    /// `onSkipped` and `body` run on the caller's executor between reads.
    @discardableResult
    public nonisolated(nonsending) func forEachRecord(
        onSkipped: (_ error: StreamError, _ header: CSVHeader?) throws -> Void,
        _ body: (CSVRecordView) throws -> Void
    ) async throws -> CSVSummary {
        var reader = AsyncByteReader(input)
        var framer = CSVFramer(options: options, input: input.name)
        while true {
            switch try framer.next(onSkipped: onSkipped) {
            case .record(let fields, let line):
                try body(framer.view(fields: fields, line: line))
            case .end:
                return framer.summary(header: framer.header)
            case .needInput:
                try await framer.fill(from: &reader)
            }
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(state: FramedIteratorState(framer: CSVFramer(options: options, input: input.name), input: input))
    }

    /// Yields each record as an owned ``CSVRecord``; reads run on ``BlockingExecutor/shared``, one chunk per hop; a
    /// `next` that finds its record buffered does not suspend, and the iterator stays on the caller's executor.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = any Error
        let state: FramedIteratorState<CSVFramer>

        /// The next record, or nil after the last one. Throws ``StreamError`` or `CancellationError`.
        public nonisolated(nonsending) mutating func next() async throws -> CSVRecord? {
            try await next(isolation: #isolation)
        }

        /// As ``next()``; what `for try await` calls. Runs on `actor` (the caller's isolation) between reads.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> CSVRecord? {
            state.enter("CSVRecords.Iterator")
            defer { state.leave() }
            while true {
                switch try state.framer.next() {
                case .record(let fields, let line): return CSVRecord(state.framer.view(fields: fields, line: line))
                case .end: return nil
                case .needInput: try await state.refill()
                }
            }
        }
    }
}
