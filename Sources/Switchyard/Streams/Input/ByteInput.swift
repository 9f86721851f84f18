/// Where a stream's bytes come from: a file path, an open file descriptor, a custom ``ByteSource``, or any
/// `AsyncSequence` of byte buffers.
///
/// A `ByteInput` is a description; each read of a stream built on it (``ByteChunks``, ``Lines``, ``CSVRecords``)
/// opens it anew. Files, descriptors and sources can be read synchronously (blocking the calling thread) and asynchronously
/// (each read runs on ``BlockingExecutor/shared``, never on the cooperative pool); an `AsyncSequence` input can only
/// be read asynchronously, and the synchronous readers reject it with ``StreamError/Kind/requiresAsynchronousReading``.
public struct ByteInput: Sendable, CustomStringConvertible {
    enum Source: Sendable {
        case path(String)
        case descriptor(Int32, closes: Bool)
        case sequence(@Sendable () -> any AsyncByteIterator)
        case source(@Sendable () throws -> any ByteSource)
    }

    let source: Source
    /// The name errors use: the path, `fd <n>`, or the name given to a sequence.
    public let name: String

    /// The file at `path`, opened (read-only) when reading starts and closed when it ends.
    public static func file(_ path: String) -> ByteInput {
        ByteInput(source: .path(path), name: path)
    }

    /// An open file descriptor (a file, pipe or socket), read from its current offset.
    ///
    /// The descriptor is not duplicated: read it once. With `closeWhenDone`, the reader closes it when it finishes
    /// (or is abandoned); otherwise it stays the caller's to close.
    public static func fileDescriptor(_ descriptor: Int32, closeWhenDone: Bool = false, name: String? = nil)
        -> ByteInput
    {
        ByteInput(source: .descriptor(descriptor, closes: closeWhenDone), name: name ?? "fd \(descriptor)")
    }

    /// Any `AsyncSequence` of byte buffers (`[UInt8]`, `ArraySlice<UInt8>`, Foundation `Data`, …), read in order;
    /// buffers may have any size, including empty. Only the asynchronous readers accept it. The sequence's own
    /// errors are rethrown unchanged.
    public static func sequence<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, name: String = "async sequence"
    ) -> ByteInput where Chunks.Element: Sequence<UInt8> {
        ByteInput(source: .sequence({ SequenceByteIterator(chunks.makeAsyncIterator()) }), name: name)
    }

    /// A custom pull source (see ``ByteSource``), created by `open` when reading starts — on the reading thread for
    /// synchronous readers, on ``BlockingExecutor/shared`` for asynchronous ones — and released when reading ends.
    /// Errors thrown by `open` or by the source's reads are rethrown unchanged.
    public static func source(name: String, open: @escaping @Sendable () throws -> any ByteSource) -> ByteInput {
        ByteInput(source: .source(open), name: name)
    }

    public var description: String { name }

    /// Opens a file, descriptor or custom source for blocking reads. Throws for a sequence input, or when the input
    /// cannot be opened.
    func openForBlockingReads() throws -> any ByteSource {
        switch source {
        case .source(let open): try open()
        case .path(let path): try FileReader(path: path)
        case .descriptor(let descriptor, let closes):
            FileReader(descriptor: descriptor, closesDescriptor: closes, name: name)
        case .sequence: throw StreamError(.requiresAsynchronousReading, input: name)
        }
    }
}
