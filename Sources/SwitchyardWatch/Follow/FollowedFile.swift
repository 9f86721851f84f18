#if Watch
    import Switchyard
    import SystemPackage

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The bytes appended to a file, as they are written, across rotations: `tail -F` as an `AsyncSequence` of
    /// chunks, which `Lines` turns into lines.
    ///
    /// ```swift
    /// for try await line in Lines(.sequence(FollowedFile("/var/log/app.log"))) {
    ///     if line.contains("ERROR") { alert(line) }
    /// }
    /// ```
    ///
    /// **What is followed.** The file at `path`, whichever file that is: the file's directory is watched (a
    /// ``FileWatcher`` of it, not recursive), so the sequence keeps going when the file is replaced. After a
    /// rotation (the file renamed away, or removed, and a new one created at the path), what was appended to the old
    /// file up to its rotation is read first, then the new file from its beginning. A file truncated in place
    /// (`copytruncate`) is read again from its beginning once it is found shorter than what was read (a truncation
    /// followed, before the next read, by at least as many bytes as were read cannot be told from an append). A file
    /// that does not exist yet is waited for, and read from its beginning.
    ///
    /// **When.** The sequence never ends by itself: iteration ends (`nil`) when the iterating task is cancelled.
    /// Reads run on `BlockingExecutor.shared`, never on Swift's cooperative pool; between changes the iterating task
    /// is suspended. Chunks are at most 64 KiB and split lines anywhere (`Lines` joins them).
    ///
    /// - Throws: from iteration, ``FileWatcherError`` when the directory cannot be watched, and the `errno` of a
    ///   failed read as a ``FileWatcherError``.
    public struct FollowedFile: AsyncSequence, Sendable {
        public typealias Element = [UInt8]
        public typealias Failure = any Error

        /// Where reading starts in the file that is there when iteration starts.
        public enum Start: Sendable {
            /// From its first byte.
            case beginning
            /// From its current end: only what is appended from now on (what `tail -F -n 0` prints).
            case end
        }

        /// The followed path.
        public let path: FilePath
        /// Where reading starts.
        public let start: Start
        /// How long the directory must be quiet before a change is read; default 10 ms.
        public let quietWindow: Duration

        public init(_ path: FilePath, from start: Start = .end, quietWindow: Duration = .milliseconds(10)) {
            self.path = path
            self.start = start
            self.quietWindow = quietWindow
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(follower: FileFollower(path: path, start: start, quietWindow: quietWindow))
        }

        /// Iterates the appended bytes; see ``FollowedFile``.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let follower: FileFollower

            public mutating func next() async throws -> [UInt8]? { try await follower.next() }
        }
    }

    /// One iteration of a ``FollowedFile``: the open file, where it is read to, and the watcher of its directory.
    /// Used by one task at a time (an iterator is not shared).
    final class FileFollower {
        private let path: FilePath
        private let start: FollowedFile.Start
        private let quietWindow: Duration
        private var watcher: FileWatcher?
        private var changes: FileWatcher.AsyncIterator?
        /// The open file, its inode and how far it was read; nil while the path has no file.
        private var file: (descriptor: Int32, inode: UInt64)?
        private var offset: Int64 = 0
        private var started = false

        init(path: FilePath, start: FollowedFile.Start, quietWindow: Duration) {
            self.path = path
            self.start = start
            self.quietWindow = quietWindow
        }

        deinit {
            watcher?.stop()
            if let file { close(file.descriptor) }
        }

        func next() async throws -> [UInt8]? {
            if !started { try await begin() }
            while !Task.isCancelled {
                let chunk: [UInt8]?
                do { chunk = try await readAvailable() } catch is CancellationError { return nil }
                if let chunk { return chunk }
                if reopenIfReplaced() { continue }
                // At the end of the current file: wait for the directory to change.
                guard var changes, try await changes.next() != nil else { return nil }
                self.changes = changes
            }
            return nil
        }

        /// Watches the directory first (so no change is missed), then opens the file if it is there.
        private func begin() async throws {
            started = true
            let absolute = try WatchPaths.absolute(path)
            let directory = absolute.removingLastComponent()
            let watcher = try await FileWatcher(
                directory, options: .init(recursive: false, quietWindow: quietWindow, name: "followed-file"))
            self.watcher = watcher
            changes = watcher.makeAsyncIterator()
            openFile()
            if start == .end, let file {
                offset = Int64(lseek(file.descriptor, 0, SEEK_END))
            }
        }

        /// Opens the file at the path, if any, from its beginning.
        @discardableResult
        private func openFile() -> Bool {
            let descriptor = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC) }
            guard descriptor >= 0 else { return false }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                close(descriptor)
                return false
            }
            file = (descriptor, UInt64(status.st_ino))
            offset = 0
            return true
        }

        /// Reads what the open file holds past `offset` (up to 64 KiB), or nil at its end. A file shorter than
        /// `offset` was truncated: it is read again from its beginning.
        private func readAvailable() async throws -> [UInt8]? {
            guard let file else { return nil }
            let from = offset
            let (bytes, size) = try await BlockingExecutor.shared.run { () throws -> ([UInt8], Int64) in
                var status = stat()
                _ = fstat(file.descriptor, &status)
                var buffer = [UInt8](repeating: 0, count: 64 << 10)
                let count = buffer.withUnsafeMutableBytes {
                    pread(file.descriptor, $0.baseAddress, $0.count, off_t(from))
                }
                guard count >= 0 else {
                    throw FileWatcherError(path: FilePath(""), errno: errno, reason: "the followed file cannot be read")
                }
                buffer.removeSubrange(count...)
                return (buffer, Int64(status.st_size))
            }
            if bytes.isEmpty {
                if size < offset { offset = 0 }  // truncated in place: from its beginning again
                return size < from ? try await readAvailable() : nil
            }
            offset += Int64(bytes.count)
            return bytes
        }

        /// At the end of the open file: if the path now names another file (rotated) or none, switches to it.
        /// Returns whether there is something new to read.
        private func reopenIfReplaced() -> Bool {
            var status = stat()
            let exists = path.withPlatformString { stat($0, &status) } == 0
            if let current = file {
                guard !exists || UInt64(status.st_ino) != current.inode else { return false }
                close(current.descriptor)
                file = nil
            }
            return exists && openFile()
        }
    }
#endif
