/// The asynchronous side of a ``ByteInput``: files and sources are read on ``BlockingExecutor/shared`` (one hop per read, never
/// blocking a cooperative thread); sequences are iterated in the calling task.
///
/// Not `Sendable`: one reading task owns it. Each `read` completes before the next starts.
struct AsyncByteReader {
    private enum Source {
        case blocking(SerializedByteSource)
        case sequence(any AsyncByteIterator)
        case notOpened(ByteInput)
    }

    private var source: Source

    init(_ input: ByteInput) {
        switch input.source {
        case .sequence(let make): source = .sequence(make())
        // Wrapped at once (no I/O), so a descriptor handed over with `closeWhenDone` is closed even if no read runs.
        case .descriptor(let descriptor, let closes):
            source = .blocking(
                SerializedByteSource(
                    source: FileReader(descriptor: descriptor, closesDescriptor: closes, name: input.name)))
        case .path, .source: source = .notOpened(input)
        }
    }

    /// Reads up to `buffer.count` bytes into `buffer`; 0 means the input is exhausted. Opens a file on first use
    /// (on the blocking executor). Throws `CancellationError` if the task is cancelled, the input's errors otherwise.
    nonisolated(nonsending) mutating func read(into buffer: UnsafeMutableRawBufferPointer) async throws -> Int {
        try Task.checkCancellation()
        switch source {
        case .notOpened(let input):
            let opened = try await BlockingExecutor.shared.run {
                SerializedByteSource(source: try input.openForBlockingReads())
            }
            source = .blocking(opened)
            return try await read(into: buffer)
        case .blocking(let opened):
            let target = BorrowedBuffer(buffer)
            return try await BlockingExecutor.shared.run { try opened.source.read(into: target.buffer) }
        case .sequence(let iterator):
            return try await iterator.read(into: buffer)
        }
    }
}

/// A buffer handed to one blocking read on another thread.
///
/// Unchecked-Sendable invariant: the buffer belongs to the reader that awaits the read; nothing touches it while the
/// read runs, and the read's completion (a continuation resumption through `BlockingExecutor`'s lock) orders the
/// writes before the reader looks again. Exercised under TSan by the asynchronous line and CSV tests.
struct BorrowedBuffer: @unchecked Sendable {
    let buffer: UnsafeMutableRawBufferPointer
    init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }
}

/// An `AsyncSequence` input's iterator, type-erased, with what is left of its last buffer.
protocol AsyncByteIterator: AnyObject {
    /// Copies up to `buffer.count` bytes into `buffer`; 0 means the sequence has ended.
    nonisolated(nonsending) func read(into buffer: UnsafeMutableRawBufferPointer) async throws -> Int
}

final class SequenceByteIterator<Base: AsyncIteratorProtocol>: AsyncByteIterator where Base.Element: Sequence<UInt8> {
    private var base: Base
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var finished = false

    init(_ base: Base) { self.base = base }

    nonisolated(nonsending) func read(into buffer: UnsafeMutableRawBufferPointer) async throws -> Int {
        while pendingOffset == pending.count {
            if finished { return 0 }
            guard let element = try await base.next(isolation: #isolation) else {
                finished = true
                return 0
            }
            pending.removeAll(keepingCapacity: true)
            pending.append(contentsOf: element)
            pendingOffset = 0
        }
        let count = min(buffer.count, pending.count - pendingOffset)
        pending.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + pendingOffset, byteCount: count)
        }
        pendingOffset += count
        return count
    }
}
