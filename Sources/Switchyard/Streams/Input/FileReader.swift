#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor that streams read from, closed when the reader is released (if it owns it). The one
/// sequential file reader of the package: the import's feed folders read through it too.
///
/// Immutable after `init`, so it is `Sendable`: `read(2)` on one descriptor is thread-safe, and the readers built on
/// it never issue two reads at once. Every method blocks on the file system: call it on a ``BlockingExecutor``
/// thread or from synchronous code that may block, never on the cooperative pool.
package final class FileReader: Sendable {
    package let descriptor: Int32
    package let name: String
    private let closesDescriptor: Bool

    /// Opens `path` for reading. Throws ``StreamError/Kind/openFailed(errno:message:)`` naming the path.
    package init(path: String) throws {
        var descriptor: Int32
        repeat { descriptor = open(path, O_RDONLY | O_CLOEXEC) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            let code = errno
            throw StreamError(.openFailed(errno: code, message: FileReader.message(code)), input: path)
        }
        self.descriptor = descriptor
        self.name = path
        self.closesDescriptor = true
        FileReader.adviseSequential(descriptor)
    }

    /// Reads from an already open descriptor, from its current offset.
    package init(descriptor: Int32, closesDescriptor: Bool, name: String) {
        self.descriptor = descriptor
        self.name = name
        self.closesDescriptor = closesDescriptor
        FileReader.adviseSequential(descriptor)
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// Reads up to `buffer.count` bytes; returns 0 only at the end of the input. Retries `EINTR`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
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
            let code = errno
            if code == EINTR { continue }
            throw StreamError(.readFailed(errno: code, message: FileReader.message(code)), input: name)
        }
    }

    /// The system's message for the `errno` value `code` (`strerror`), e.g. `No such file or directory`.
    package static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Tells the kernel the file is read front to back, so it reads ahead generously (no effect on pipes).
    private static func adviseSequential(_ descriptor: Int32) {
        #if os(Linux)
            _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }
}
