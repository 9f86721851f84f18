import NIOCore
import Switchyard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A download's file while it is written: `<destination>.partial`, with the validators it was started with in
/// `<destination>.partial.validators`, renamed to the destination only when complete (so no reader ever sees a half
/// file under the final name, and a crash leaves only the partial, which a later download resumes).
///
/// Every file operation runs on ``BlockingExecutor/shared``, never on the cooperative pool. Not `Sendable`: one
/// download owns it; the descriptor it holds is used by one blocking call at a time.
final class PartialFile {
    let destination: String
    var path: String { destination + ".partial" }
    var validatorsPath: String { destination + ".partial.validators" }
    private var descriptor: Int32 = -1
    /// The bytes in the partial file.
    private(set) var size: Int64 = 0

    init(destination: String) {
        self.destination = destination
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The partial file's size and the validators it was started with, if one exists with both.
    func existing() async throws(HTTPError) -> (size: Int64, validators: HTTPValidators)? {
        let (partial, sidecar) = (path, validatorsPath)
        return try await blocking { () throws(HTTPError) -> (Int64, HTTPValidators)? in
            var status = stat()
            guard stat(partial, &status) == 0, status.st_size > 0, let text = Self.readFile(sidecar) else { return nil }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count >= 2 else { return nil }
            let validators = HTTPValidators(
                etag: lines[0].isEmpty ? nil : lines[0], lastModified: lines[1].isEmpty ? nil : lines[1])
            return validators.ifRange == nil ? nil : (Int64(status.st_size), validators)
        }
    }

    /// Opens the partial file: appending to what is there when `resuming`, empty otherwise (its validators
    /// replaced by `validators`).
    func openForWriting(resuming: Bool, validators: HTTPValidators) async throws(HTTPError) {
        closeDescriptor()
        let (partial, sidecar) = (path, validatorsPath)
        let opened = try await blocking { () throws(HTTPError) -> (Int32, Int64) in
            let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (resuming ? O_APPEND : O_TRUNC)
            let descriptor = open(partial, flags, 0o644)
            guard descriptor >= 0 else { throw Self.error("cannot open", partial) }
            if !resuming {
                let text = (validators.etag ?? "") + "\n" + (validators.lastModified ?? "") + "\n"
                guard Self.writeFile(text, to: sidecar) else {
                    close(descriptor)
                    throw Self.error("cannot write", sidecar)
                }
            }
            let end = lseek(descriptor, 0, SEEK_END)
            return (descriptor, Int64(max(0, end)))
        }
        descriptor = opened.0
        size = opened.1
    }

    /// Appends `bytes`.
    func append(_ bytes: ByteBuffer) async throws(HTTPError) {
        let (descriptor, partial) = (self.descriptor, path)
        try await blocking { () throws(HTTPError) in
            try bytes.withUnsafeReadableBytes { (buffer) throws(HTTPError) in
                var offset = 0
                while offset < buffer.count {
                    let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw Self.error("cannot write", partial)
                    }
                    offset += written
                }
            }
        }
        size += Int64(bytes.readableBytes)
    }

    /// Renames the partial file to the destination (atomically: readers see the old file or the whole new one) and
    /// removes the validators file. With `sync`, the file's data is flushed to disk first (`fsync`), and the
    /// folder's entry after the rename, so the complete file survives a power loss too.
    func complete(sync: Bool) async throws(HTTPError) {
        let (descriptor, partial, sidecar, destination) = (self.descriptor, path, validatorsPath, self.destination)
        self.descriptor = -1
        try await blocking { () throws(HTTPError) in
            defer { close(descriptor) }
            if sync, fsync(descriptor) != 0 { throw Self.error("cannot flush", partial) }
            guard rename(partial, destination) == 0 else {
                throw Self.error("cannot rename to \(destination):", partial)
            }
            unlink(sidecar)
            if sync { Self.syncFolder(of: destination) }
        }
    }

    /// Flushes the folder holding `path` (its entries: a rename's result), best effort.
    private static func syncFolder(of path: String) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let directory = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_CLOEXEC)
        guard directory >= 0 else { return }
        fsync(directory)
        close(directory)
    }

    /// Removes the partial file and its validators.
    func discard() async {
        closeDescriptor()
        let (partial, sidecar) = (path, validatorsPath)
        try? await blocking { () throws(HTTPError) in
            unlink(partial)
            unlink(sidecar)
        }
    }

    /// The destination's size (0 when it does not exist).
    func destinationSize() async -> Int64 {
        let destination = self.destination
        return
            (try? await blocking { () throws(HTTPError) -> Int64 in
                var status = stat()
                return stat(destination, &status) == 0 ? Int64(status.st_size) : 0
            }) ?? 0
    }

    private func closeDescriptor() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    private func blocking<Value: Sendable>(
        _ body: @escaping @Sendable () throws(HTTPError) -> Value
    ) async throws(HTTPError) -> Value {
        let result: Result<Value, HTTPError>
        do {
            result = try await BlockingExecutor.shared.run {
                do throws(HTTPError) { return .success(try body()) } catch { return .failure(error) }
            }
        } catch {
            throw HTTPError(request: destination, reason: .cancelled)
        }
        return try result.get()
    }

    private static func error(_ what: String, _ path: String) -> HTTPError {
        HTTPError(request: path, reason: .file("\(what) \(path): \(String(cString: strerror(errno)))"))
    }

    private static func readFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count >= 0 ? String(decoding: bytes[..<count], as: UTF8.self) : nil
    }

    private static func writeFile(_ text: String, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
    }
}
