#if Watch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import SystemPackage

    /// Paths as the watcher keeps them: bytes, never decoded (a name may be invalid UTF-8).
    enum WatchPaths {
        static let slash = UInt8(ascii: "/")

        /// `path` made absolute against the working directory and lexically normalized (no `.`/`..`, no trailing
        /// slash).
        static func absolute(_ path: FilePath) throws -> FilePath {
            if path.isAbsolute { return path.lexicallyNormalized() }
            guard let cwd = getcwd(nil, 0) else {
                throw FileWatcherError(path: path, errno: errno, reason: "the working directory cannot be read")
            }
            defer { free(cwd) }
            return FilePath(platformString: cwd).pushing(path).lexicallyNormalized()
        }

        /// The bytes of a path (no terminating NUL).
        static func bytes(_ path: FilePath) -> [UInt8] {
            path.withPlatformString { pointer in
                let length = strlen(pointer)
                return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                    Array(UnsafeBufferPointer(start: $0, count: length))
                }
            }
        }

        /// A path from its bytes.
        static func filePath(_ bytes: [UInt8]) -> FilePath {
            var terminated = bytes
            terminated.append(0)
            return terminated.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CInterop.PlatformChar.self) { FilePath(platformString: $0.baseAddress!) }
            }
        }

        /// `directory/name`.
        static func join(_ directory: [UInt8], _ name: [UInt8]) -> [UInt8] {
            var path = directory
            path.reserveCapacity(directory.count + 1 + name.count)
            if path.last != slash { path.append(slash) }
            path.append(contentsOf: name)
            return path
        }

        /// Calls `body` with `path` as a NUL-terminated C string.
        static func withCString<Result>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
            var terminated = path
            terminated.append(0)
            return terminated.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
            }
        }
    }
#endif
