import Switchyard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open POSIX file descriptor for one archive, closed when released: reads at offsets (`pread`: the central
/// directory, then each entry's data, whose reader may interleave with another entry's) and the zip writer's
/// writes. Front-to-back streams of a file read through the core's `FileReader` instead. Every call blocks on the
/// file system and retries `EINTR`; failures become ``ZipError``s naming the archive. Used by one thread at a time.
package final class ZipFileDescriptor {
    package let descriptor: Int32
    package let archive: String
    private var isOpen = true

    /// Opens `path` read-only. Throws `cannot open: <strerror>`.
    package init(readingFrom path: String) throws(ZipError) {
        descriptor = try Self.open(path, flags: O_RDONLY | O_CLOEXEC)
        archive = path
    }

    /// Creates or truncates `path` for writing (mode 0644 before the umask). Throws `cannot create: <strerror>`.
    package init(writingTo path: String) throws(ZipError) {
        descriptor = try Self.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, verb: "create")
        archive = path
    }

    deinit {
        if isOpen { _ = close(descriptor) }
    }

    private static func open(_ path: String, flags: Int32, verb: String = "open") throws(ZipError) -> Int32 {
        var result: Int32
        repeat {
            result = flags & O_CREAT != 0 ? systemOpen(path, flags, 0o644) : systemOpen(path, flags)
        } while result < 0 && errno == EINTR
        guard result >= 0 else {
            throw ZipError(archive: path, message: "cannot \(verb): \(ZipError.systemMessage(errno))")
        }
        return result
    }

    /// The file's current size in bytes (`fstat`).
    package func size() throws(ZipError) -> UInt64 {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("cannot stat", errno) }
        return UInt64(max(0, status.st_size))
    }

    /// Reads from `offset` until `buffer` is full or the file ends; returns how many bytes were read.
    package func readFully(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(ZipError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if count > 0 {
                done += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw failure("read failed", errno)
            }
        }
        return done
    }

    /// Reads exactly `count` bytes at `offset`; throws `<what> is truncated` if the file ends first.
    package func readExactly(_ count: Int, at offset: UInt64, what: String, entry: String? = nil) throws(ZipError)
        -> [UInt8]
    {
        var bytes = [UInt8](repeating: 0, count: count)
        let done = try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(ZipError) in try readFully(into: buffer, at: offset) }
        }.get()
        guard done == count else {
            throw ZipError(archive: archive, entry: entry, message: "\(what) is cut short (truncated archive)")
        }
        return bytes
    }

    /// Writes all of `bytes` at the current offset.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(ZipError) {
        if FileWriting.writeAll(bytes, to: descriptor) < bytes.count { throw failure("write failed", errno) }
    }

    /// Closes the descriptor and reports a failed close (which can mean lost writes). Later calls do nothing.
    package func closeReportingErrors() throws(ZipError) {
        guard isOpen else { return }
        isOpen = false
        // EINTR from close leaves the descriptor closed on Linux; retrying could close someone else's descriptor.
        if close(descriptor) != 0, errno != EINTR { throw failure("close failed", errno) }
    }

    /// Tells the kernel the file is read front to back (Linux only; no effect elsewhere).
    package func adviseSequential() {
        #if os(Linux)
            _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }

    private func failure(_ what: String, _ code: Int32) -> ZipError {
        ZipError(archive: archive, message: "\(what): \(ZipError.systemMessage(code))")
    }
}

private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
