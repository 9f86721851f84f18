import Switchyard
import Synchronization

extension ZipEntryReader: ByteSource {}

/// Bytes handed to a reader so far, for progress: written by the reading thread, read by anyone.
final class ByteCounter: Sendable {
    private let value = Atomic<Int64>(0)

    var current: Int64 { value.load(ordering: .relaxed) }

    func add(_ count: Int) { value.add(Int64(count), ordering: .relaxed) }

    func reset() { value.store(0, ordering: .relaxed) }
}

/// A ``ByteSource`` that counts what passes through it into a ``ByteCounter``.
final class CountingByteSource: ByteSource {
    private let base: any ByteSource
    private let counter: ByteCounter

    init(_ base: any ByteSource, counter: ByteCounter) {
        self.base = base
        self.counter = counter
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try base.read(into: buffer)
        counter.add(count)
        return count
    }
}

/// A feed folder's file, read front to back through the core's ``FileReader``, its failures reported as the
/// import's (``ImportError/Kind/unreadableFeed``, naming the path).
final class PlainFileSource: ByteSource {
    private let reader: FileReader
    private let path: String

    init(path: String) throws {
        do {
            reader = try FileReader(path: path)
        } catch let error as StreamError {
            throw ImportError(.unreadableFeed, "\(path): cannot open (\(Self.systemMessage(of: error)))")
        }
        self.path = path
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        do {
            return try reader.read(into: buffer)
        } catch let error as StreamError {
            throw ImportError(.unreadableFeed, "\(path): read failed (\(Self.systemMessage(of: error)))")
        }
    }

    /// The system's message in an open or read failure of ``FileReader``.
    private static func systemMessage(of error: StreamError) -> String {
        switch error.kind {
        case .openFailed(_, let message), .readFailed(_, let message): message
        default: "\(error)"
        }
    }
}

/// `strerror` as a `String` (see ``FileReader/message(_:)``).
package func systemMessage(_ code: Int32) -> String { FileReader.message(code) }
