#if HTTP
    import NIOCore
    import Switchyard

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A resumable partial file: its size and the validators of the version it holds.
    typealias ResumePoint = (size: Int64, validators: HTTPValidators)

    /// A download's file while it is written: `<destination>.partial`, with the validators it was started with in
    /// `<destination>.partial.validators` once it holds ``resumableSize`` bytes (a smaller partial file is cheaper to
    /// download again than to keep a second file for), renamed to the destination only when complete (so no reader ever sees a half
    /// file under the final name, and a crash leaves only the partial, which a later download resumes). A file whose
    /// whole body arrives before the first write (at most ``bufferSize``) skips the partial file on Linux: it is
    /// written unnamed and linked in whole (`linkWhole`).
    ///
    /// The methods that touch the disk (``writeGathered()``, ``complete(sync:checksum:)``) block: they run on
    /// ``executor``, never on the cooperative pool or an event loop; the async ones hop there themselves.
    ///
    /// `@unchecked Sendable`: one download owns it, and one thread at a time uses it — the download's task, then the
    /// event loop and file threads of an attempt (``DownloadAttempt``), then the task again. Each hand-over is
    /// ordered (a continuation's resume, an event loop's queue, the executor's queue), so no two threads ever touch
    /// it at once. The download tests run under Thread Sanitizer in CI: whole files, resumes (of this call's partial
    /// file and of an earlier one's), redirects, cancellation mid-body, failed writes.
    final class PartialFile: @unchecked Sendable {
        let destination: String
        var path: String { destination + ".partial" }
        var validatorsPath: String { destination + ".partial.validators" }
        private var descriptor: Int32 = -1
        /// The bytes of the download so far: on disk, plus those gathered in memory.
        private(set) var size: Int64 = 0
        /// Bytes received and not yet written (about ``bufferSize`` at most, past which they are written).
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

        /// Where downloads read and write their files: threads of their own (`sy-files-<n>`), as many as the
        /// processors up to 4 (at least 2). Changes to one folder serialize in the kernel (its lock, the file
        /// system's journal), so more threads only add contention and wake-ups; a download waits here, by priority,
        /// while every thread writes.
        static let executor = BlockingExecutor(name: "sy-files", maximumThreads: min(4, max(2, System.coreCount)))

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
        func existing() async throws(HTTPError) -> ResumePoint? {
            try await blocking { () throws(HTTPError) -> (Int64, HTTPValidators)? in self.existingNow() }
        }

        /// ``existing()``, on this thread. Blocking.
        func existingNow() -> ResumePoint? {
            var status = stat()
            guard stat(path, &status) == 0, status.st_size > 0, let text = Self.readFile(validatorsPath) else {
                return nil
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count >= 3, lines[2] == url else { return nil }
            let validators = HTTPValidators(
                etag: lines[0].isEmpty ? nil : lines[0], lastModified: lines[1].isEmpty ? nil : lines[1])
            return validators.ifRange == nil ? nil : (Int64(status.st_size), validators)
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

        /// Adds `bytes` to those gathered in memory; true once they reach ``bufferSize``: ``writeGathered()`` is due.
        func gather(_ bytes: ByteBuffer) -> Bool {
            buffered.append(contentsOf: bytes.readableBytesView)
            size += Int64(bytes.readableBytes)
            return buffered.count >= Self.bufferSize
        }

        /// Whether bytes are gathered in memory, not yet written.
        var hasGatheredBytes: Bool { !buffered.isEmpty }

        /// Writes the gathered bytes: opens the partial file first if needed (emptied, with a stale validators file
        /// removed first, or appended to), then writes the validators file once the partial file is resumable. A write
        /// that fails keeps the bytes it did not write. Blocking.
        func writeGathered() throws(HTTPError) {
            if descriptor < 0 {
                // A stale validators file goes first: it must never describe bytes of another version. Looked for
                // first: an unlink locks the folder for writing even when there is nothing to remove, and downloads
                // into one folder would wait for each other.
                var status = stat()
                if !resuming, lstat(validatorsPath, &status) == 0 { unlink(validatorsPath) }
                let opened = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (resuming ? O_APPEND : O_TRUNC), 0o644)
                guard opened >= 0 else { throw Self.error("cannot open", path) }
                descriptor = opened
            }
            let written = Self.writeAll(buffered, to: descriptor)
            buffered.removeFirst(written)
            guard buffered.isEmpty else { throw Self.error("cannot write", path) }
            if let validators = pendingValidators, size >= Self.resumableSize {
                let text = (validators.etag ?? "") + "\n" + (validators.lastModified ?? "") + "\n" + url + "\n"
                guard Self.writeFile(text, to: validatorsPath) else { throw Self.error("cannot write", validatorsPath) }
                pendingValidators = nil
                hasValidatorsFile = true
            }
        }

        /// Writes what is gathered, for a later resume (from ``resumableSize`` on, its validators too). Failures are
        /// ignored: the partial file then ends earlier, and a resume asks for more. Blocking.
        func keepForResume() {
            try? writeGathered()
        }

        /// Writes what is gathered and renames the partial file to the destination (atomically: readers see the old
        /// file or the whole new one), then removes the validators file. With `sync`, the data is flushed to disk first
        /// (`fsync`), and the folder's entry after the rename, so the file survives a power loss. With `checksum`, the
        /// complete file's SHA-256 is computed before the rename and returned; one that differs from the expected
        /// digest removes the partial file and throws. Blocking.
        func complete(sync: Bool, checksum: DownloadChecksum? = nil) throws(HTTPError) -> String? {
            // The whole file in memory and nothing on disk yet (a small file): one change to the folder.
            if descriptor < 0, !resuming, size < Self.resumableSize, checksum == nil,
                try Self.linkWhole(buffered, at: destination, sync: sync)
            {
                buffered.removeAll()
                // Left by an earlier download of this destination that was not resumed: stale now. Validators are
                // only written beside a partial file (and removed after it): without one there are none to look for.
                var status = stat()
                if lstat(path, &status) == 0 {
                    unlink(path)
                    unlink(validatorsPath)
                }
                return nil
            }
            defer { closeDescriptor() }
            pendingValidators = nil  // the partial file is renamed next: no validators beside it
            try writeGathered()
            let digest = try checksum.map { (checksum) throws(HTTPError) -> String in
                let digest = try Self.sha256(of: path)
                if let expected = checksum.expectedSHA256, expected != digest {
                    unlink(path)
                    if hasValidatorsFile { unlink(validatorsPath) }
                    throw HTTPError(request: destination, reason: .checksumMismatch(expected: expected, actual: digest))
                }
                return digest
            }
            if sync, fsync(descriptor) != 0 { throw Self.error("cannot flush", path) }
            guard rename(path, destination) == 0 else { throw Self.error("cannot rename to \(destination):", path) }
            if hasValidatorsFile { unlink(validatorsPath) }
            if sync { Self.syncFolder(of: destination) }
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
                guard writeAll(bytes, to: descriptor) == bytes.count else { throw error("cannot write", destination) }
                if sync, fsync(descriptor) != 0 { throw error("cannot flush", destination) }
                guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, destination, AT_SYMLINK_FOLLOW) == 0
                else {
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
            var digest = SHA256Hasher()
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
                result = try await Self.executor.run {
                    do throws(HTTPError) { return .success(try body()) } catch { return .failure(error) }
                }
            } catch {
                throw HTTPError(request: destination, reason: .cancelled)
            }
            return try result.get()
        }

        /// Writes `bytes` to `descriptor` (see ``FileWriting/writeAll(_:to:)``); returns how many were written.
        private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int {
            bytes.withUnsafeBytes { FileWriting.writeAll($0, to: descriptor) }
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
            return writeAll(bytes, to: descriptor) == bytes.count
        }
    }
#endif
