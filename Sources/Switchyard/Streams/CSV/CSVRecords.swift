/// The records of a CSV file, descriptor or byte sequence, read in fixed memory.
///
/// ```swift
/// let stopTimes = CSVRecords(.file("gtfs/stop_times.txt"))
/// try stopTimes.forEachRecord { record in                     // zero-copy fields, unquoted in place
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
///   malformed header always stops.
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
    public func forEachRecord(_ body: (CSVRecordView) throws -> Void) throws -> CSVSummary {
        let file = try input.openForBlockingReads()
        var framer = CSVFramer(options: options, input: input.name)
        defer { framer.deallocate() }
        while true {
            switch try framer.next() {
            case .record(let fields, let line):
                try body(framer.view(fields: fields, line: line))
            case .end:
                return framer.summary(header: framer.header)
            case .needInput:
                if Task.isCancelled { throw CancellationError() }
                framer.didRead(try file.read(into: try framer.spaceForRead()))
            }
        }
    }

    /// As the synchronous ``forEachRecord(_:)-(_)``, but each read runs on ``BlockingExecutor/shared`` while this
    /// task is suspended; `body` runs on the caller's executor, zero-copy, between reads.
    @discardableResult
    public nonisolated(nonsending) func forEachRecord(_ body: (CSVRecordView) throws -> Void) async throws -> CSVSummary {
        var reader = AsyncByteReader(input)
        var framer = CSVFramer(options: options, input: input.name)
        defer { framer.deallocate() }
        while true {
            switch try framer.next() {
            case .record(let fields, let line):
                try body(framer.view(fields: fields, line: line))
            case .end:
                return framer.summary(header: framer.header)
            case .needInput:
                framer.didRead(try await reader.read(into: try framer.spaceForRead()))
            }
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(state: CSVIteratorState(input: input, options: options))
    }

    /// Yields each record as an owned ``CSVRecord``; reads run on ``BlockingExecutor/shared``, one chunk per hop; a
    /// `next` that finds its record buffered does not suspend, and the iterator stays on the caller's executor.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = any Error
        let state: CSVIteratorState

        /// The next record, or nil after the last one. Throws ``StreamError`` or `CancellationError`.
        public nonisolated(nonsending) mutating func next() async throws -> CSVRecord? {
            state.enter("CSVRecords.Iterator")
            defer { state.leave() }
            while true {
                if let record = try state.nextBuffered() { return record }
                if state.finished { return nil }
                try await state.refill()
            }
        }

        /// As ``next()``; what `for try await` calls.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> CSVRecord? {
            try await next()
        }
    }
}

/// The iterator's reader and buffer; frees the buffer when the last iterator copy goes.
final class CSVIteratorState {
    private var framer: CSVFramer
    private var reader: AsyncByteReader
    private(set) var finished = false

    /// Copies of an iterator share this state; two `next()` calls in flight at once (an actor's re-entrant methods
    /// each advancing a copy) would read into one buffer twice. That is a programming error and traps.
    private var inUse = false

    func enter(_ type: StaticString) {
        precondition(!inUse, "\(type): next() called while another next() on a copy of this iterator is running")
        inUse = true
    }

    func leave() { inUse = false }

    init(input: ByteInput, options: CSVOptions) {
        framer = CSVFramer(options: options, input: input.name)
        reader = AsyncByteReader(input)
    }

    deinit { framer.deallocate() }

    /// The next buffered record, or nil if a read is needed or the input is finished (`finished`).
    func nextBuffered() throws -> CSVRecord? {
        switch try framer.next() {
        case .record(let fields, let line):
            return CSVRecord(framer.view(fields: fields, line: line))
        case .end:
            finished = true
            return nil
        case .needInput:
            return nil
        }
    }

    /// Reads the next chunk (on the blocking executor).
    nonisolated(nonsending) func refill() async throws {
        let space = try framer.spaceForRead()
        framer.didRead(try await reader.read(into: space))
    }
}
