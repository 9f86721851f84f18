import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Blocking writes of whole buffers, for the package's libraries: a descriptor written to the end, and a file
/// replaced atomically. Call them on a ``BlockingExecutor``, never on a thread of the shared pool.
package enum FileWriting {
    /// Writes all of `bytes` to `descriptor` at its offset, retrying short writes and `EINTR`. Returns how many
    /// bytes were written: fewer than all when a write failed (`errno` says why; `EIO` for a write of nothing).
    /// - Complexity: O(bytes), one `write` per chunk the kernel takes.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            #if canImport(Glibc)
                let count = Glibc.write(descriptor, base + done, bytes.count - done)
            #elseif canImport(Musl)
                let count = Musl.write(descriptor, base + done, bytes.count - done)
            #else
                let count = Darwin.write(descriptor, base + done, bytes.count - done)
            #endif
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if count == 0 { errno = EIO }  // no progress and no error: reported as an I/O error
                break
            }
            done += count
        }
        return done
    }

    /// Writes `bytes` to a temporary file beside `path` (`.NAME.PID-N.partial`, a name no other call of this
    /// process uses, created exclusively and never through a symbolic link), flushes it to the disk (`fsync`),
    /// then renames it over `path`: a reader sees the old file or the whole new one, never a part. The folder must
    /// exist. On failure the temporary file is removed and `path` is left as it was.
    /// - Throws: ``FileWriteError`` naming the step and the system's reason.
    package static func replaceAtomically(_ path: String, with bytes: UnsafeRawBufferPointer) throws(FileWriteError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let number = temporaryNumbers.wrappingAdd(1, ordering: .relaxed).newValue
        let temporary = "\(folder).\(name).\(getpid())-\(number).partial"
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var descriptor = open(temporary, flags, 0o666)
        if descriptor < 0 && errno == EEXIST {  // left by a process that had this identifier and crashed
            unlink(temporary)
            descriptor = open(temporary, flags, 0o666)
        }
        guard descriptor >= 0 else { throw FileWriteError(path: path, step: "create", code: errno) }
        func failure(_ step: String) -> FileWriteError {
            let error = FileWriteError(path: path, step: step, code: errno)
            unlink(temporary)
            return error
        }
        if writeAll(bytes, to: descriptor) < bytes.count {
            let error = failure("write")  // before close, which may change errno
            close(descriptor)
            throw error
        }
        if fsync(descriptor) != 0 {
            let error = failure("flush")
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw failure("close") }
        guard rename(temporary, path) == 0 else { throw failure("rename") }
    }

    /// ``replaceAtomically(_:with:)`` for an array's bytes.
    package static func replaceAtomically(_ path: String, with bytes: [UInt8]) throws(FileWriteError) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(FileWriteError) in try replaceAtomically(path, with: buffer) }
        }.get()
    }
}

/// Numbers the temporary files of ``FileWriting/replaceAtomically(_:with:)`` within the process.
private let temporaryNumbers = Atomic<UInt64>(0)

/// A failed ``FileWriting/replaceAtomically(_:with:)``: the file, the step (`create`, `write`, `flush`, `close`,
/// `rename`) and the system's error.
package struct FileWriteError: Error, CustomStringConvertible {
    package let path: String
    package let step: String
    package let code: Int32

    /// The system's message for ``code`` (`strerror`).
    package var reason: String { strerror(code).map { String(cString: $0) } ?? "error \(code)" }

    package var description: String { "\(path): \(step) failed (\(reason))" }
}
