#if HTTP
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The few file operations the tests need, by POSIX calls.
    enum FileSystem {
        struct Failure: Error, CustomStringConvertible {
            var description: String
        }

        static func makeFolder(_ path: String) throws {
            guard mkdir(path, 0o755) == 0 else { throw Failure(description: "mkdir \(path): \(errno)") }
        }

        static func removeTree(_ path: String) {
            guard let directory = opendir(path) else {
                unlink(path)
                return
            }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let child = path + "/" + name
                var status = stat()
                if lstat(child, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                    removeTree(child)
                } else {
                    unlink(child)
                }
            }
            closedir(directory)
            rmdir(path)
        }

        static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

        static func read(_ path: String) throws -> [UInt8] {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw Failure(description: "open \(path): \(errno)") }
            defer { close(descriptor) }
            var result: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                result += buffer[..<count]
            }
            return result
        }

        static func write(_ bytes: [UInt8], to path: String) throws {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw Failure(description: "open \(path): \(errno)") }
            defer { close(descriptor) }
            _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        }
    }
#endif
