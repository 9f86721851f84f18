import Switchyard
import SwitchyardTransit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes generated sample feeds to disk: a folder of `.txt` files, or a `.zip` archive.
public enum SampleFeedFiles {
    /// Generates `profile` into `path`: a zip archive if `path` ends in `.zip` (deflated at level `compressionLevel`),
    /// a folder otherwise (created if missing; its GTFS files are overwritten). Streams: memory stays fixed.
    ///
    /// - Throws: `ImportError` (`.unreadableFeed`) naming the path if it cannot be written.
    @discardableResult
    public static func write(
        _ profile: SampleFeedProfile, to path: String, compressionLevel: Int32 = 1
    ) throws -> SampleFeedStatistics {
        if path.hasSuffix(".zip") {
            do {
                var sink = ZipSink(writer: try ZipWriter(path: path, compressionLevel: compressionLevel))
                return try SampleFeedGenerator.generate(profile, into: &sink)
            } catch let error as ZipError {
                throw ImportError(.unreadableFeed, "\(error)")
            }
        }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw ImportError(.unreadableFeed, "\(path): cannot create the folder (\(systemMessage(errno)))")
        }
        var sink = FolderSink(folder: path)
        do {
            return try SampleFeedGenerator.generate(profile, into: &sink)
        } catch {
            sink.abandon()  // a write failed or generation stopped mid-file: the file's descriptor is closed
            throw error
        }
    }
}

struct ZipSink: SampleFeedSink {
    let writer: ZipWriter

    mutating func beginFile(_ name: String) throws { try writer.beginEntry(name) }
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws { try writer.write(bytes) }
    mutating func endFile() throws { try writer.endEntry() }
    mutating func finish() throws { try writer.finish() }
}

struct FolderSink: SampleFeedSink {
    let folder: String
    var descriptor: Int32 = -1
    var current = ""

    init(folder: String) { self.folder = folder }

    mutating func beginFile(_ name: String) throws {
        current = joined(folder, name)
        descriptor = open(current, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ImportError(.unreadableFeed, "\(current): cannot create (\(systemMessage(errno)))")
        }
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard FileWriting.writeAll(bytes, to: descriptor) == bytes.count else {
            throw ImportError(.unreadableFeed, "\(current): write failed (\(systemMessage(errno)))")
        }
    }

    mutating func endFile() throws {
        let result = close(descriptor)
        descriptor = -1
        guard result == 0 else {
            throw ImportError(.unreadableFeed, "\(current): close failed (\(systemMessage(errno)))")
        }
    }

    /// Closes the file being written, if any (after a failure).
    mutating func abandon() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}
