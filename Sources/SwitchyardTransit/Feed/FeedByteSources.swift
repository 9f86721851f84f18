import Switchyard
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

/// A plain file read front to back with `read(2)`: a feed folder's files.
final class PlainFileSource: ByteSource {
    private let descriptor: Int32
    private let path: String

    init(path: String) throws {
        var descriptor: Int32
        repeat { descriptor = open(path, O_RDONLY | O_CLOEXEC) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            throw ImportError(.unreadableFeed, "\(path): cannot open (\(systemMessage(errno)))")
        }
        self.descriptor = descriptor
        self.path = path
        #if os(Linux)
            _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }

    deinit { close(descriptor) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let address = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
                let count = Glibc.read(descriptor, address, buffer.count)
            #elseif canImport(Musl)
                let count = Musl.read(descriptor, address, buffer.count)
            #else
                let count = Darwin.read(descriptor, address, buffer.count)
            #endif
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw ImportError(.unreadableFeed, "\(path): read failed (\(systemMessage(errno)))")
        }
    }
}

/// `strerror` as a `String`.
package func systemMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}
