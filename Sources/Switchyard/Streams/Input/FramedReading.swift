// How the readers drive an ``InputFramer``: one read at a time, blocking or on the blocking executor, and the
// iterator state both stream iterators share. (Kept apart from `InputFramer.swift` so the framers build alone,
// as the fuzzer does.)

extension InputFramer where Self: ~Copyable {
    /// One blocking read on the calling thread; checks the current task for cancellation first.
    mutating func fill(from file: any ByteSource) throws {
        if Task.isCancelled { throw CancellationError() }
        didRead(try file.read(into: try spaceForRead()))
    }

    /// One read on ``BlockingExecutor/shared`` (the reader checks for cancellation).
    nonisolated(nonsending) mutating func fill(from reader: inout AsyncByteReader) async throws {
        let space = try spaceForRead()
        didRead(try await reader.read(into: space))
    }
}

/// The state behind ``Lines/Iterator`` and ``CSVRecords/Iterator``: a framer, its reader, and the check that copies
/// of one iterator are not advanced at once. A class, so the window is freed when the last iterator copy goes.
final class FramedIteratorState<Framer: InputFramer & ~Copyable> {
    var framer: Framer
    private var reader: AsyncByteReader
    private var overlap = OverlapCheck()

    init(framer: consuming Framer, input: ByteInput) {
        self.framer = framer
        reader = AsyncByteReader(input)
    }

    func enter(_ type: StaticString) { overlap.enter(type) }
    func leave() { overlap.leave() }

    /// Reads the next chunk into the framer's window.
    nonisolated(nonsending) func refill() async throws {
        try await framer.fill(from: &reader)
    }
}

/// Copies of an iterator share one state; two `next()` calls in flight at once (an actor's re-entrant methods each
/// advancing a copy) would read into one buffer twice. That is a programming error, and traps.
struct OverlapCheck {
    private var inUse = false

    mutating func enter(_ type: StaticString) {
        precondition(!inUse, "\(type): next() called while another next() on a copy of this iterator is running")
        inUse = true
    }

    mutating func leave() { inUse = false }
}
