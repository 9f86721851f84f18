/// A blocking, pull-based source of bytes: the shape of `read(2)`, for inputs that are neither a plain file nor an
/// `AsyncSequence` — a decompressor, a zip entry, a generator.
///
/// ```swift
/// final class Inflater: ByteSource {
///     func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { … }   // 0 = end of input
/// }
/// let records = CSVRecords(.source(name: "feed.zip/stops.txt") { try Inflater(entry) })
/// ```
///
/// ## Contract
/// - `read` fills a prefix of `buffer` and returns its length; it returns 0 only at the end of the input, and may
///   return fewer bytes than asked at any time.
/// - `read` may block (file system, decompression): the synchronous readers call it on the calling thread, the
///   asynchronous ones on ``BlockingExecutor/shared``, never on the cooperative pool.
/// - Calls never overlap: a reader issues one `read` at a time and the next only after the previous returned, though
///   asynchronous readers may issue consecutive calls from different threads (ordered by a happens-before edge).
///   So an implementation needs no locking of its own.
/// - The source is released when the reader finishes or is abandoned; release its resources in `deinit`.
public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes into the start of `buffer` and returns how many; 0 only at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension FileReader: ByteSource {}

/// A ``ByteSource`` handed from one blocking read to the next, possibly on different threads.
///
/// Exercised under Thread Sanitizer by `ByteSourceTests` (asynchronous reads of a stateful source).
/// Unchecked-Sendable invariant: the `AsyncByteReader` that owns the box awaits each read before it starts the
/// next (its `read` is a `mutating` async method), so one thread at a time uses the source, and each hand-over
/// passes through `BlockingExecutor`'s lock and a continuation resumption, which order the accesses.
struct SerializedByteSource: @unchecked Sendable {
    let source: any ByteSource
}
