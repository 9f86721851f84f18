#if Watch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Lists directories and stamps entries with `lstat` semantics (a symbolic link is an entry of its own, never
    /// followed: a link to a directory is not walked, so a link cycle cannot loop the walk).
    enum DirectoryScanner {
        /// The entries of `directory` (`.` and `..` excluded) with their stamps, or nil when it cannot be opened
        /// (removed meanwhile, or no permission) with the `errno`. An entry that vanishes between the listing and its
        /// `lstat` is left out. - Complexity: O(entries), one `fstatat` each.
        static func list(_ directory: [UInt8]) -> Result<[(name: [UInt8], stamp: EntryStamp)], ScanError> {
            guard let stream = WatchPaths.withCString(directory, { opendir($0) }) else {
                return .failure(ScanError(errno: errno))
            }
            defer { closedir(stream) }
            let descriptor = dirfd(stream)
            var listed: [(name: [UInt8], stamp: EntryStamp)] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if name == [0x2E] || name == [0x2E, 0x2E] { continue }
                if let stamp = stamp(name, in: descriptor) { listed.append((name, stamp)) }
            }
            return .success(listed)
        }

        /// The stamp of `name` in the directory open as `descriptor`, or nil if it is gone.
        static func stamp(_ name: [UInt8], in descriptor: Int32) -> EntryStamp? {
            var status = stat()
            let result = WatchPaths.withCString(name) { fstatat(descriptor, $0, &status, AT_SYMLINK_NOFOLLOW) }
            return result == 0 ? EntryStamp(status) : nil
        }

        /// The stamp of what an absolute path leads to, symbolic links followed (`stat`), or nil if it is gone.
        static func stamp(followingLinks path: [UInt8]) -> EntryStamp? {
            var status = stat()
            let result = WatchPaths.withCString(path) { stat($0, &status) }
            return result == 0 ? EntryStamp(status) : nil
        }

        /// The stamp of an absolute path, or nil if it is gone.
        static func stamp(_ path: [UInt8]) -> EntryStamp? {
            var status = stat()
            let result = WatchPaths.withCString(path) { lstat($0, &status) }
            return result == 0 ? EntryStamp(status) : nil
        }
    }

    /// A directory that could not be listed.
    struct ScanError: Error {
        let errno: Int32
    }

    extension EntryStamp {
        init(_ status: stat) {
            let mode = UInt32(status.st_mode) & 0o170000
            switch mode {
            case 0o040000: kind = .directory
            case 0o100000: kind = .file
            case 0o120000: kind = .symbolicLink
            default: kind = .other
            }
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            #if canImport(Darwin)
                modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
            #else
                modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
            #endif
        }
    }
#endif
