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
/// `<destination>.partial.validators` once it holds ``resumableSize`` bytes (a smaller partial file is cheaper to
/// download again than to keep a second file for), renamed to the destination only when complete (so no reader ever sees a half
/// file under the final name, and a crash leaves only the partial, which a later download resumes). A file whose
/// whole body arrives before the first write (at most ``bufferSize``) skips the partial file on Linux: it is
/// written unnamed and linked in whole (`linkWhole`).
///
/// Opening, writing, flushing, renaming and removing run on ``BlockingExecutor/shared``, never on the cooperative
/// pool (closing a descriptor, which does not wait for the disk, runs where the owner is). Not `Sendable`: one
/// download owns it; the descriptor it holds is used by one blocking call at a time.
final class PartialFile {
    let destination: String
    var path: String { destination + ".partial" }
    var validatorsPath: String { destination + ".partial.validators" }
    private var descriptor: Int32 = -1
    /// The bytes of the download so far: on disk, plus those buffered in memory.
    private(set) var size: Int64 = 0
    /// Bytes received and not yet written (at most ``bufferSize``, past which they are written).
    private var buffered: [UInt8] = []
    /// How the file is opened at the first write: appending (resuming) or emptied.
    private var resuming = false
    /// The validators to write beside the partial file once it reaches ``resumableSize``; nil once written.
    private var pendingValidators: HTTPValidators?
    /// Whether the validators file exists (written now, or found when resuming).
    private var hasValidatorsFile = false

    /// The size from which a partial file is kept resumable (its validators written beside it): 1 MiB.
    static let resumableSize: Int64 = 1 << 20
    /// Bytes gathered in memory before a write: a small file is written in one go with its rename.
    static let bufferSize = 256 << 10

    /// The URL whose bytes the partial file holds (recorded with its validators: a partial file of another URL is
    /// never continued).
    let url: String

    init(destination: String, url: String) {
        self.destination = destination
        self.url = url
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The partial file's size and the validators it was started with, if one exists with both.
    func existing() async throws(HTTPError) -> (size: Int64, validators: HTTPValidators)? {
        let (partial, sidecar, url) = (path, validatorsPath, url)
        return try await blocking { () throws(HTTPError) -> (Int64, HTTPValidators)? in
            var status = stat()
            guard stat(partial, &status) == 0, status.st_size > 0, let text = Self.readFile(sidecar) else { return nil }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count >= 3, lines[2] == url else { return nil }
            let validators = HTTPValidators(
                etag: lines[0].isEmpty ? nil : lines[0], lastModified: lines[1].isEmpty ? nil : lines[1])
            return validators.ifRange == nil ? nil : (Int64(status.st_size), validators)
        }
    }

    /// Starts a response's bytes: after the `existingSize` bytes of the partial file (resuming), or from zero (the
    /// partial file is emptied at the first write, and its old validators removed). No I/O until then.
    func begin(resumingAfter existingSize: Int64?, validators: HTTPValidators) {
        closeDescriptor()
        buffered.removeAll(keepingCapacity: true)
        resuming = existingSize != nil
        size = existingSize ?? 0
        hasValidatorsFile = resuming
        pendingValidators = resuming || validators.ifRange == nil ? nil : validators
    }

    /// Adds `bytes`; writes what is gathered once it reaches ``bufferSize``.
    func append(_ bytes: ByteBuffer) async throws(HTTPError) {
        buffered.append(contentsOf: bytes.readableBytesView)
        size += Int64(bytes.readableBytes)
        if buffered.count >= Self.bufferSize { try await flush() }
    }

    /// Writes the gathered bytes (opening the file first if needed, and writing the validators file once the
    /// partial file is resumable), in one blocking call.
    func flush() async throws(HTTPError) {
        let work = pendingWrite()
        let descriptor = try await blocking { () throws(HTTPError) -> Int32 in try work.perform() }
        record(work, descriptor)
    }

    /// Writes what is gathered, even when the task is cancelled (the write runs in a task of its own, so a
    /// cancelled download keeps the bytes it received for a resume: from ``resumableSize`` on, when its
    /// validators are written too). Failures are ignored: the partial file then ends earlier, and a resume asks
    /// for more.
    func keepForResume() async {
        let work = pendingWrite()
        let written = await Task.detached { () -> Int32? in
            try? await BlockingExecutor.shared.run { try work.perform() }
        }.value
        if let written { record(work, written) }
    }

    /// Writes what is gathered and renames the partial file to the destination (atomically: readers see the old
    /// file or the whole new one), then removes the validators file; one blocking call. With `sync`, the data is
    /// flushed to disk first (`fsync`), and the folder's entry after the rename, so the file survives a power loss.
    /// With `checksum`, the complete file's SHA-256 is computed before the rename and returned; one that differs
    /// from the expected digest removes the partial file and throws.
    func complete(sync: Bool, checksum: DownloadChecksum? = nil) async throws(HTTPError) -> String? {
        let work = pendingWrite()
        let (partial, sidecar, destination) = (path, validatorsPath, self.destination)
        let hasValidatorsFile = hasValidatorsFile || work.validators != nil
        let digest: String?
        do {
            digest = try await blocking { () throws(HTTPError) -> String? in
                // The whole file in memory and nothing on disk yet (a small file): one change to the folder.
                if work.descriptor < 0, !work.resuming, work.validators == nil, checksum == nil,
                    try Self.linkWhole(work.bytes, at: destination, sync: sync)
                {
                    // Left by an earlier download of this destination that was not resumed: stale now.
                    var status = stat()
                    if lstat(partial, &status) == 0 { unlink(partial) }
                    if hasValidatorsFile || lstat(sidecar, &status) == 0 { unlink(sidecar) }
                    return nil
                }
                let descriptor: Int32
                do throws(HTTPError) {
                    descriptor = try work.perform()
                } catch {
                    if work.descriptor >= 0 { close(work.descriptor) }
                    throw error
                }
                defer { close(descriptor) }
                let digest = try checksum.map { (checksum) throws(HTTPError) -> String in
                    let digest = try Self.sha256(of: partial)
                    if let expected = checksum.expectedSHA256, expected != digest {
                        unlink(partial)
                        if hasValidatorsFile { unlink(sidecar) }
                        throw HTTPError(
                            request: destination, reason: .checksumMismatch(expected: expected, actual: digest))
                    }
                    return digest
                }
                if sync, fsync(descriptor) != 0 { throw Self.error("cannot flush", partial) }
                guard rename(partial, destination) == 0 else {
                    throw Self.error("cannot rename to \(destination):", partial)
                }
                if hasValidatorsFile { unlink(sidecar) }
                if sync { Self.syncFolder(of: destination) }
                return digest
            }
        } catch {
            // Cancelled before the call ran: the descriptor is still open and the bytes still buffered, for
            // `keepForResume`. Otherwise the call closed the descriptor (opened by it or before).
            if error.reason != .cancelled { descriptor = -1 }
            throw error
        }
        descriptor = -1
        buffered.removeAll()
        return digest
    }

    /// Writes `bytes` as a new file at `destination` without a partial file: into an unnamed file in its folder
    /// (`O_TMPFILE`), linked in under the final name once whole and flushed if `sync` (readers never see a part of
    /// it; a crash leaves nothing). One change to the folder, where a partial file costs its creation and its
    /// rename. False, with nothing left behind, where that cannot be done: not Linux, a file system without unnamed
    /// files, no `/proc`, or a destination that exists (a link never replaces a file); the caller then writes a
    /// partial file. Blocking.
    private static func linkWhole(_ bytes: [UInt8], at destination: String, sync: Bool) throws(HTTPError) -> Bool {
        #if os(Linux)
            let folder = destination.lastIndex(of: "/").map { String(destination[..<$0]) } ?? "."
            // O_TMPFILE (`__O_TMPFILE | O_DIRECTORY`, the same on x86-64 and arm64), which Glibc's module leaves out.
            let temporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY
            let descriptor = open(folder.isEmpty ? "/" : folder, temporaryFile | O_WRONLY | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw error("cannot write", destination)
                }
                offset += written
            }
            if sync, fsync(descriptor) != 0 { throw error("cannot flush", destination) }
            guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, destination, AT_SYMLINK_FOLLOW) == 0 else {
                return false
            }
            if sync { syncFolder(of: destination) }
            return true
        #else
            return false
        #endif
    }

    /// The SHA-256 of the file at `path`, read in 1 MiB pieces. Blocking.
    private static func sha256(of path: String) throws(HTTPError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw error("cannot open", path) }
        defer { close(descriptor) }
        let digest = SHA256Digest()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw error("cannot read", path)
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
        return digest.finish()
    }

    /// The write of the gathered bytes, as a value the blocking call owns.
    private func pendingWrite() -> PendingWrite {
        let validators = size >= Self.resumableSize ? pendingValidators : nil
        return PendingWrite(
            descriptor: descriptor, resuming: resuming, bytes: buffered, path: path, validatorsPath: validatorsPath,
            validators: validators, url: url)
    }

    /// Notes a write that succeeded: its bytes leave the buffer (a write that did not happen keeps them).
    private func record(_ work: PendingWrite, _ descriptor: Int32) {
        buffered.removeFirst(min(work.bytes.count, buffered.count))
        self.descriptor = descriptor
        if work.validators != nil {
            pendingValidators = nil
            hasValidatorsFile = true
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
        buffered.removeAll()
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

    static func error(_ what: String, _ path: String) -> HTTPError {
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

    static func writeFile(_ text: String, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
    }
}

/// One write of gathered bytes: opens the partial file if needed (emptied, with a stale validators file removed
/// first, or appended to), writes the bytes, then the validators file if due. Runs on the blocking executor.
private struct PendingWrite: Sendable {
    var descriptor: Int32
    var resuming: Bool
    var bytes: [UInt8]
    var path: String
    var validatorsPath: String
    var validators: HTTPValidators?
    var url: String

    /// Returns the open descriptor (closed again if this call opened it and then failed).
    func perform() throws(HTTPError) -> Int32 {
        var descriptor = self.descriptor
        if descriptor < 0 {
            // A stale validators file goes first: it must never describe bytes of another version. Looked for
            // first: an unlink locks the folder for writing even when there is nothing to remove, and downloads
            // into one folder would wait for each other.
            var status = stat()
            if !resuming, lstat(validatorsPath, &status) == 0 { unlink(validatorsPath) }
            descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (resuming ? O_APPEND : O_TRUNC), 0o644)
            guard descriptor >= 0 else { throw PartialFile.error("cannot open", path) }
        }
        let opened = self.descriptor < 0 ? descriptor : -1
        do throws(HTTPError) {
            try writeBytes(to: descriptor)
        } catch {
            if opened >= 0 { close(opened) }
            throw error
        }
        return descriptor
    }

    private func writeBytes(to descriptor: Int32) throws(HTTPError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw PartialFile.error("cannot write", path)
            }
            offset += written
        }
        if let validators {
            let text = (validators.etag ?? "") + "\n" + (validators.lastModified ?? "") + "\n" + url + "\n"
            guard PartialFile.writeFile(text, to: validatorsPath) else {
                throw PartialFile.error("cannot write", validatorsPath)
            }
        }
    }
}
