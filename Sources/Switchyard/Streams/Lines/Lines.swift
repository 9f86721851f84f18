/// The lines of a file, descriptor or byte sequence, read in fixed memory, in two tiers.
///
/// ```swift
/// let lines = Lines(.file("/var/log/huge.log"))
/// try lines.forEachLine { line in                      // zero-copy: `line` borrows the read buffer
///     if line.starts(with: "ERROR".utf8) { errors += 1 }
/// }
/// try lines.forEachSubstring { line in words += line.split(separator: " ").count }  // validated text, cheaply
/// for try await line in lines { print(line) }          // one validated String per line
/// ```
///
/// - Tiers: ``LineView`` (zero-copy bytes; ``LineView/string()`` makes a `String` of one line), `Substring`s of one
///   validated `String` per read (`forEachSubstring(_:)`: no allocation per line), and the `AsyncSequence`
///   of `String`s.
///
/// - Line endings: `\n` and `\r\n` end a line and are not part of it; a final line without `\n` is delivered too
///   (with `isTerminated == false`); a UTF-8 byte order mark at the start is dropped (configurable).
/// - Memory: one buffer of ``LineOptions/chunkSize`` bytes, grown (doubling) only while a line longer than a chunk
///   is buffered, never beyond ``LineOptions/maximumLineLength``; independent of the input's size.
/// - Where it runs: `forEachLineBlocking(_:)` blocks the calling thread on reads (use it on a
///   ``BlockingExecutor`` thread or in a command-line tool). The asynchronous forms read on ``BlockingExecutor/shared``
///   one chunk at a time and scan in the calling task; the cooperative pool is never blocked.
/// - Cancellation: checked before every read; a cancelled task stops with `CancellationError` within one chunk.
/// - Errors: ``StreamError`` naming the input and, for content errors, the line.
public struct Lines: AsyncSequence, Sendable {
    public typealias Element = String

    /// Where the bytes come from.
    public let input: ByteInput
    /// How lines are split.
    public let options: LineOptions

    /// Lines of `input`; nothing is read until iteration starts.
    public init(_ input: ByteInput, options: LineOptions = LineOptions()) {
        self.input = input
        self.options = options
    }

    /// Calls `body` with every line, in order, each borrowed from the read buffer (zero-copy), reading with blocking
    /// calls on the calling thread. Stops at the first error `body` throws and rethrows it.
    ///
    /// - Returns: what was read (lines, bytes, the buffer's peak size).
    /// - Throws: ``StreamError`` (opening, reading, too-long lines; ``StreamError/Kind/requiresAsynchronousReading``
    ///   for a sequence input), `CancellationError` when the current task is cancelled, or `body`'s error.
    @discardableResult
    public func forEachLineBlocking(_ body: (LineView) throws -> Void) throws -> LineSummary {
        let file = try input.openForBlockingReads()
        var framer = LineFramer(options: options, input: input.name)
        let context = LineContext(input: input.name, repairsUTF8: options.invalidUTF8 == .repair)
        while true {
            if try Lines.deliverBuffered(&framer, context, body) {
                return withExtendedLifetime(context) { framer.summary }
            }
            try framer.fill(from: file)
        }
    }

    /// As `forEachLineBlocking(_:)`, but each read runs on ``BlockingExecutor/shared`` while this task
    /// is suspended; `body` runs on the caller's executor (an actor's included), zero-copy, between reads.
    @discardableResult
    public nonisolated(nonsending) func forEachLine(_ body: (LineView) throws -> Void) async throws -> LineSummary {
        var reader = AsyncByteReader(input)
        var framer = LineFramer(options: options, input: input.name)
        let context = LineContext(input: input.name, repairsUTF8: options.invalidUTF8 == .repair)
        while true {
            if try Lines.deliverBuffered(&framer, context, body) {
                return withExtendedLifetime(context) { framer.summary }
            }
            try await framer.fill(from: &reader)
        }
    }

    /// Calls `body` with every line, in order, as a `Substring` of one UTF-8-validated `String` per block of
    /// complete lines (one allocation and one validation per read, not per line), reading with blocking calls on
    /// the calling thread. A `Substring` keeps its whole block alive: convert the lines you keep with
    /// `String(line)` if memory matters.
    ///
    /// - Returns: what was read.
    /// - Throws: as `forEachLine(_:)`, and ``StreamError/Kind/invalidUTF8`` with the line and column of the
    ///   first invalid byte (unless ``LineOptions/invalidUTF8`` is ``LineOptions/InvalidUTF8/repair``).
    @discardableResult
    public func forEachSubstringBlocking(_ body: (Substring) throws -> Void) throws -> LineSummary {
        let file = try input.openForBlockingReads()
        var framer = LineFramer(options: options, input: input.name)
        while true {
            switch try framer.nextBlock() {
            case .lines(let block):
                try Lines.deliver(block, &framer, options, body)
            case .needInput:
                try framer.fill(from: file)
            case .end:
                return framer.summary
            }
        }
    }

    /// As `forEachSubstringBlocking(_:)`, but each read runs on ``BlockingExecutor/shared`` while this
    /// task is suspended; `body` runs on the caller's executor between reads.
    @discardableResult
    public nonisolated(nonsending) func forEachSubstring(_ body: (Substring) throws -> Void) async throws -> LineSummary
    {
        var reader = AsyncByteReader(input)
        var framer = LineFramer(options: options, input: input.name)
        while true {
            switch try framer.nextBlock() {
            case .lines(let block):
                try Lines.deliver(block, &framer, options, body)
            case .needInput:
                try await framer.fill(from: &reader)
            case .end:
                return framer.summary
            }
        }
    }

    /// Validates a block of complete lines, makes it one `String`, and hands out its lines as `Substring`s.
    private static func deliver(
        _ block: UnsafeRawBufferPointer, _ framer: inout LineFramer, _ options: LineOptions,
        _ body: (Substring) throws -> Void
    ) throws {
        if let offset = LineContext.invalidOffset(in: block, repairing: options.invalidUTF8 == .repair) {
            var line = framer.lineNumber + 1
            var lineStart = 0
            for index in 0..<offset where block[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            throw StreamError(.invalidUTF8, input: framer.input, line: line, column: offset - lineStart + 1)
        }
        let text = String(decoding: block.bindMemory(to: UInt8.self), as: UTF8.self)
        let utf8 = text.utf8
        func split(_ storage: UnsafeBufferPointer<UInt8>) throws {
            let base = UnsafeRawPointer(storage.baseAddress!)
            let count = storage.count
            var lineStart = 0
            var position = utf8.startIndex
            while lineStart < count {
                let newline = LineFramer.newline(in: base, from: lineStart, to: count)
                let end = newline ?? count
                var contentEnd = end
                if newline != nil && contentEnd > lineStart
                    && base.load(fromByteOffset: contentEnd - 1, as: UInt8.self) == 0x0D
                {
                    contentEnd -= 1
                }
                try framer.countLine(length: contentEnd - lineStart, isTerminated: newline != nil)
                let lower = position
                let upper = utf8.index(lower, offsetBy: contentEnd - lineStart)
                try body(text[lower..<upper])
                lineStart = end + 1
                if lineStart < count { position = utf8.index(upper, offsetBy: end + 1 - contentEnd) }
            }
        }
        if try utf8.withContiguousStorageIfAvailable(split) == nil {
            var copy = text
            try copy.withUTF8 { try split($0) }
        }
    }

    /// Delivers every complete buffered line; true when the input is finished.
    private static func deliverBuffered(
        _ framer: inout LineFramer, _ context: LineContext, _ body: (LineView) throws -> Void
    ) throws -> Bool {
        while true {
            switch try framer.next() {
            case .line(let bytes, let isTerminated):
                try body(
                    LineView(
                        bytes: bytes, number: framer.lineNumber, isTerminated: isTerminated,
                        context: Unmanaged.passUnretained(context), repairsUTF8: context.repairsUTF8))
            case .needInput:
                return false
            case .end:
                return true
            }
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(
            state: FramedIteratorState(framer: LineFramer(options: options, input: input.name), input: input),
            context: LineContext(input: input.name, repairsUTF8: options.invalidUTF8 == .repair))
    }

    /// Yields one `String` per line, UTF-8 validated (see ``LineOptions/invalidUTF8``). Reads run on
    /// ``BlockingExecutor/shared``, one chunk per hop; a `next` that finds its line buffered does not suspend, and
    /// the iterator stays on the caller's executor (an actor's included) between reads.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = any Error
        let state: FramedIteratorState<LineFramer>
        let context: LineContext

        /// The next line, or nil after the last one.
        /// - Throws: ``StreamError``, or `CancellationError` when the task is cancelled before a read.
        public nonisolated(nonsending) mutating func next() async throws -> String? {
            try await next(isolation: #isolation)
        }

        /// As ``next()``; what `for try await` calls. Runs on `actor` (the caller's isolation) between reads.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> String? {
            state.enter("Lines.Iterator")
            defer { state.leave() }
            while true {
                switch try state.framer.next() {
                case .line(let bytes, _): return try context.string(from: bytes, line: state.framer.lineNumber)
                case .end: return nil
                case .needInput: try await state.refill()
                }
            }
        }
    }
}
