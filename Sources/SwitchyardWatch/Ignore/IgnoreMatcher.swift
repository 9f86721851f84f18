#if Watch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import SystemPackage

    /// The ignore rules of one watched root: the options' globs, and the `.gitignore` files loaded as the walker
    /// enters directories.
    ///
    /// **Precedence.** A path is judged by the last rule that matches it, negated (`!`) or not, looking first at the
    /// globs (they override everything), then at the `.gitignore` of its parent directory, then at those of the
    /// directories above it up to the root's own (a deeper file overrides a shallower one). No matching rule: not
    /// ignored.
    ///
    /// **Paths inside ignored directories.** ``isIgnored(relativePath:isDirectory:)`` judges a path on its own, as if
    /// its directories were not ignored. The walker never enters an ignored directory, so nothing below one is
    /// watched or reported even when a rule re-includes it (`build/` then `!build/keep.txt` leaves `build/keep.txt`
    /// unwatched), as git documents: "It is not possible to re-include a file if a parent directory of that file is
    /// excluded." A caller holding a path from elsewhere must judge its directories first.
    ///
    /// **Not read:** `.gitignore` files above the root, `.git/info/exclude` and `core.excludesFile`. Rules are
    /// case-sensitive whatever the file system.
    ///
    /// **Threads.** Not thread-safe: one watcher's thread owns the matcher, so it is not `Sendable`.
    final class IgnoreMatcher {
        /// The largest `.gitignore` read (as git); a larger one holds no rules.
        static let maximumFileSize = 100 << 20

        /// The options' globs, as lines of a `.gitignore` at the root.
        private let globs: [GlobPattern]
        /// Whether `.gitignore` files are read.
        private let readsGitignore: Bool
        /// The patterns of each loaded `.gitignore` that holds any, keyed by its directory below the root (empty for
        /// the root). A slice of a longer path finds its directory: `ArraySlice`'s `==` and hash compare elements
        /// only, never indices.
        private var gitignores: [ArraySlice<UInt8>: [GlobPattern]] = [:]

        /// A matcher for `globs` (compiled lines, in order), reading `.gitignore` files when `gitignore` is true.
        init(globs: [GlobPattern], gitignore: Bool) {
            self.globs = globs
            self.readsGitignore = gitignore
        }

        /// No rules at all: every path is kept, and the watcher can skip ``isIgnored(relativePath:isDirectory:)``.
        /// It turns false when ``enter(directory:absoluteDirectory:)`` loads a `.gitignore` with rules, and back to
        /// true when ``forget(directory:)`` drops the last one, so read it again after either.
        var isEmpty: Bool { globs.isEmpty && gitignores.isEmpty }

        /// Whether the path is ignored.
        ///
        /// - Parameters:
        ///   - relativePath: The path below the watched root, as bytes, components separated by one `/` (no leading
        ///     or trailing slash). Not empty: the root itself is never ignored (a precondition).
        ///   - isDirectory: Whether it is a directory (`/`-terminated rules match directories only).
        /// - Returns: Whether the last matching rule, in the order of precedence, ignores it. Its directories are
        ///   not judged: see "Paths inside ignored directories" above.
        /// - Complexity: O(r × m × n) at worst for r rules of length m that apply and a path of length n; O(r × n)
        ///   for rules with at most one `*` per segment and no `**`. Plus one dictionary look-up per directory of
        ///   the path (O(n) each) when `.gitignore` files are loaded. O(1) when ``isEmpty``.
        func isIgnored(relativePath: [UInt8], isDirectory: Bool) -> Bool {
            precondition(!relativePath.isEmpty, "IgnoreMatcher.isIgnored: empty path (the root is never ignored)")
            if isEmpty { return false }
            return relativePath.withUnsafeBufferPointer { path in
                let basenameStart = (path.lastIndex(of: Self.slash) ?? -1) + 1
                if let verdict = Self.verdict(globs, path, basenameStart: basenameStart, isDirectory: isDirectory) {
                    return verdict
                }
                guard !gitignores.isEmpty else { return false }
                // From the parent directory up to the root; `separator` is the `/` after the directory (-1: root).
                var separator = basenameStart - 1
                while true {
                    if let patterns = gitignores[relativePath[0..<Swift.max(separator, 0)]] {
                        let below = UnsafeBufferPointer(rebasing: path[(separator + 1)...])
                        let start = basenameStart - separator - 1
                        if let verdict = Self.verdict(patterns, below, basenameStart: start, isDirectory: isDirectory) {
                            return verdict
                        }
                    }
                    if separator < 0 { break }
                    separator -= 1
                    while separator >= 0 && path[separator] != Self.slash { separator -= 1 }
                }
                return false
            }
        }

        /// Loads the `.gitignore` of a directory the walker is entering, replacing what was loaded for it before:
        /// reads `absoluteDirectory/.gitignore` and scopes its patterns to `relativePath` (`[]` for the root). Call it
        /// for each directory that is not ignored, before judging its entries. A missing, unreadable or oversized
        /// file, a symbolic link (git does not follow one either) or anything but a regular file holds no rules.
        /// Returns at once when `.gitignore` files are not read.
        ///
        /// - Complexity: O(file size) and one `open`, `fstat` and `read`s; blocks on the file system.
        func enter(directory relativePath: [UInt8], absoluteDirectory: FilePath) {
            guard readsGitignore else { return }
            let name: String = ".gitignore"
            let patterns = Self.contents(of: absoluteDirectory.appending(name)).map(Self.patterns(in:)) ?? []
            gitignores[ArraySlice(relativePath)] = patterns.isEmpty ? nil : patterns
        }

        /// Drops the `.gitignore` rules of a directory that was removed or moved away, and of every directory below
        /// it (`[]`: all of them). A later ``enter(directory:absoluteDirectory:)`` loads them again.
        ///
        /// - Complexity: O(number of loaded `.gitignore` files × path length).
        func forget(directory relativePath: [UInt8]) {
            guard !gitignores.isEmpty else { return }
            gitignores = gitignores.filter { key, _ in
                let below =
                    key.starts(with: relativePath)
                    && (relativePath.isEmpty || key.count == relativePath.count
                        || key[key.startIndex + relativePath.count] == Self.slash)
                return !below
            }
        }

        /// The patterns of a `.gitignore`'s contents, in order: one per line that holds one. A UTF-8 byte order mark
        /// is skipped and a `\r` before a line's `\n` dropped, as git does. O(contents).
        static func patterns(in contents: [UInt8]) -> [GlobPattern] {
            var text = contents[...]
            if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
            var patterns: [GlobPattern] = []
            for var line in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                if let pattern = GlobPattern(line: line) { patterns.append(pattern) }
            }
            return patterns
        }

        private static let slash = UInt8(ascii: "/")

        /// The verdict of the last pattern of `patterns` that matches (`true`: ignored), or nil when none does.
        private static func verdict(
            _ patterns: [GlobPattern], _ path: UnsafeBufferPointer<UInt8>, basenameStart: Int, isDirectory: Bool
        ) -> Bool? {
            for pattern in patterns.reversed()
            where pattern.matches(path, basenameStart: basenameStart, isDirectory: isDirectory) {
                return !pattern.isNegated
            }
            return nil
        }

        /// The bytes of the regular file at `path`, or nil when it is missing, a symbolic link, not a regular file
        /// (opened without blocking, so a FIFO cannot stall the watcher), unreadable, or larger than
        /// ``maximumFileSize``.
        private static func contents(of path: FilePath) -> [UInt8]? {
            let descriptor = path.withPlatformString { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, UInt32(status.st_mode) & 0o170000 == 0o100000,
                Int(status.st_size) <= maximumFileSize
            else { return nil }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16 << 10)
            var count = 0
            repeat {
                count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    bytes.append(contentsOf: chunk[0..<count])
                    if bytes.count > maximumFileSize { return nil }
                } else if count < 0 && errno != EINTR {
                    return nil
                }
            } while count != 0
            return bytes
        }
    }
#endif
