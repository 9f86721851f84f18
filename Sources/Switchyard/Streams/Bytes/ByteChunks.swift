/// The bytes of a file, descriptor or byte sequence as fixed-size chunks, read in fixed memory.
///
/// ```swift
/// let chunks = ByteChunks(.file(path), chunkSize: 256 * 1024)
/// try chunks.forEachChunkBlocking { hasher.update($0) }        // blocking, one reused buffer
/// for try await chunk in chunks { try await upload(chunk) }    // asynchronous, each chunk a [UInt8] you may keep
/// ```
///
/// - Chunks: every chunk but the last has exactly `chunkSize` bytes, whatever the input (reads from a pipe or
///   socket are repeated until the chunk is full or the input ends, so a chunk waits for its bytes); the last
///   chunk is never empty. Order is the input's order.
/// - Memory: `forEachChunk(_:)` and `forEachChunkBlocking(_:)` reuse one `chunkSize` buffer for the whole input. The
///   `AsyncSequence` form yields each chunk as a new `[UInt8]` (the caller may keep it), reading into one reused
///   buffer.
/// - Where it runs: the synchronous form blocks the calling thread on reads; the asynchronous forms read on
///   ``BlockingExecutor/shared`` and never block the cooperative pool.
/// - Cancellation: checked before every read (`CancellationError`).
public struct ByteChunks: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    /// Where the bytes come from.
    public let input: ByteInput
    /// Bytes asked for by each read.
    public let chunkSize: Int

    /// Chunks of `input` of `chunkSize` bytes (at least 1; default 64 KiB); nothing is read until iteration starts.
    public init(_ input: ByteInput, chunkSize: Int = 64 * 1024) {
        self.input = input
        self.chunkSize = Swift.max(1, chunkSize)
    }

    /// Calls `body` with each chunk, in order, read with blocking calls on the calling thread into one reused buffer
    /// (valid only during the call).
    ///
    /// - Returns: the number of bytes read.
    /// - Throws: ``StreamError``, `CancellationError`, or `body`'s error (which stops the reading).
    @discardableResult
    public func forEachChunkBlocking(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        let file = try input.openForBlockingReads()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            if Task.isCancelled { throw CancellationError() }
            let count = try ByteChunks.fill(buffer) { try file.read(into: $0) }
            if count == 0 { return total }
            total += count
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// As `forEachChunkBlocking(_:)`, but each read runs on ``BlockingExecutor/shared`` while this task
    /// is suspended; `body` runs on the caller's executor between reads.
    @discardableResult
    public nonisolated(nonsending) func forEachChunk(
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) async throws -> Int {
        var reader = AsyncByteReader(input)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while true {
            let count = try await ByteChunks.fill(buffer, reader: &reader)
            if count == 0 { return total }
            total += count
            try body(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(state: ChunkIteratorState(input: input, chunkSize: chunkSize))
    }

    /// Yields each chunk as a new `[UInt8]`; reads run on ``BlockingExecutor/shared``; between reads the iterator
    /// stays on the caller's executor.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = any Error
        let state: ChunkIteratorState

        /// The next chunk, or nil at the end. Throws ``StreamError`` or `CancellationError`.
        public nonisolated(nonsending) mutating func next() async throws -> [UInt8]? {
            state.enter("ByteChunks.Iterator")
            defer { state.leave() }
            return try await state.next()
        }

        /// As ``next()``; what `for try await` calls.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> [UInt8]? {
            try await next()
        }
    }

    /// Reads until `buffer` is full or the input ends, so regular files give full chunks. Returns the bytes read.
    static func fill(_ buffer: UnsafeMutableRawBufferPointer, read: (UnsafeMutableRawBufferPointer) throws -> Int)
        throws -> Int
    {
        var filled = 0
        while filled < buffer.count {
            let count = try read(UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    /// The asynchronous `fill`: one hop to the blocking executor per read.
    nonisolated(nonsending) static func fill(
        _ buffer: UnsafeMutableRawBufferPointer, reader: inout AsyncByteReader
    ) async throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try await reader.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}

/// The iterator's reader and reused read buffer; frees the buffer when the last iterator copy goes.
final class ChunkIteratorState {
    private var reader: AsyncByteReader
    private let buffer: UnsafeMutableRawBufferPointer
    private var overlap = OverlapCheck()

    init(input: ByteInput, chunkSize: Int) {
        reader = AsyncByteReader(input)
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    func enter(_ type: StaticString) { overlap.enter(type) }
    func leave() { overlap.leave() }

    nonisolated(nonsending) func next() async throws -> [UInt8]? {
        let count = try await ByteChunks.fill(buffer, reader: &reader)
        return count == 0 ? nil : Array(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }
}
