import Foundation

/// The tree the initial-watch and latency rows watch: `directories` directories under a root, 20 per parent, breadth
/// first (20,000 directories are 4 levels deep), and `files` small files spread over them in turn. Made once, with
/// plain `mkdir`/`open`/`write` calls, before anything is timed.
struct WatchTree {
    /// The tree's root (symbolic links resolved, so that it is the path a watcher reports).
    let root: String
    /// Directories under the root (the root not counted).
    let directories: Int
    let files: Int
    /// The last file, in the last (deepest) directory: the latency row writes to it.
    let sampleFile: String
    /// The directory of ``sampleFile``.
    let sampleDirectory: String

    /// Directories per parent.
    static let fanOut = 20

    /// Makes the tree at `root` (which must not exist yet).
    static func make(at root: String, directories: Int, files: Int) throws -> WatchTree {
        precondition(directories > 0 && files > 0, "WatchTree: an empty tree")
        try WatchFiles.makeDirectory(root)
        var paths: [String] = []
        paths.reserveCapacity(directories)
        for index in 0..<directories {
            let parent = index < fanOut ? root : paths[index / fanOut - 1]
            let path = parent + "/d\(index)"
            try WatchFiles.makeDirectory(path)
            paths.append(path)
        }
        for index in 0..<files {
            let path = paths[index % directories] + "/f\(index).txt"
            guard WatchFiles.createFile(path, contents: "file \(index)\n") else {
                throw WatchBenchError("cannot create \(path): errno \(errno)")
            }
        }
        let sampleDirectory = paths[(files - 1) % directories]
        return WatchTree(
            root: root, directories: directories, files: files, sampleFile: sampleDirectory + "/f\(files - 1).txt",
            sampleDirectory: sampleDirectory)
    }
}

/// The file operations of the watch suite: plain system calls, so that making thousands of files costs little and
/// each row controls exactly which events the kernel sees.
enum WatchFiles {
    /// `mkdir(path, 0755)`.
    static func makeDirectory(_ path: String) throws {
        guard mkdir(path, 0o755) == 0 else { throw WatchBenchError("cannot create \(path): errno \(errno)") }
    }

    /// Creates (or truncates) `path` and writes `contents`; whether every call succeeded.
    @discardableResult
    static func createFile(_ path: String, contents: String = "") -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var text = contents
        return text.withUTF8 { bytes in
            bytes.isEmpty || write(descriptor, bytes.baseAddress, bytes.count) == bytes.count
        }
    }

    /// Removes `path` and everything under it (`rm -rf`, much faster than `FileManager` on 100,000 files).
    static func remove(_ path: String) {
        if FileManager.default.isExecutableFile(atPath: "/bin/rm") {
            _ = ChildProcess.output("/bin/rm", arguments: ["-rf", path])
        }
        if FileManager.default.fileExists(atPath: path) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// `path` with symbolic links resolved (`realpath`), or `path` itself if it does not resolve.
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The number in `/proc/sys/fs/inotify/NAME` (`max_queued_events`, `max_user_watches`), if it can be read.
    static func inotifySetting(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/sys/fs/inotify/" + name, encoding: .utf8) else {
            return nil
        }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// A failure of a watch-suite step, in words.
struct WatchBenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
