#if Images
    import Foundation
    import Switchyard
    import SwitchyardImages
    import Testing

    @Suite("RenderCancellation: a running decode stops when its job's last caller leaves")
    struct RenderCancellationTests {
        @Test("the caller leaving a running 64-megapixel PNG decode frees the thread at once for the next image")
        func interruptsRunningDecode() async throws {
            let folder = NSTemporaryDirectory() + "switchyard-interrupt-\(getpid())"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // A PNG has no shrink-on-load: every pixel is decoded (about 0.4 s here).
            let path = folder + "/big.png"
            try Data(Fixtures.plain(width: 8_000, height: 8_000, suffix: ".png")).write(to: URL(fileURLWithPath: path))
            let pipeline = ImagePipeline(configuration: .init(name: "interrupt", width: 1, memoryCacheCost: 0))
            let options = ThumbnailOptions(width: 64)
            let clock = ContinuousClock()
            let whole = try await clock.measure { _ = try await pipeline.thumbnail(of: .file(path), options) }
            let next = ImageSource.bytes(Fixtures.picture(), identity: "next")
            let caller = Task { try await pipeline.thumbnail(of: .file(path), options) }
            // The render has the file open from its first check to the end of the decode.
            await yieldUntil("the render opens the file") { Self.isOpen(path) }
            let cancelled = clock.now
            caller.cancel()  // from this thread, while libvips reads the file on the pipeline's
            let error = await #expect(throws: ImageError.self) { try await caller.value }
            #expect(error?.reason == .cancelled)
            // The pipeline's one thread is free again: the next image does not wait for the rest of the decode.
            _ = try await pipeline.thumbnail(of: next, options)
            let stopped = clock.now - cancelled
            #expect(
                stopped < whole / 2,
                "the next image came \(stopped) after the caller left; a whole decode takes \(whole)")
            #expect(!Self.isOpen(path))
        }

        @Test("a JPEG decode cut short by its caller leaving is never cached: the next request gets the whole image")
        func cutShortIsNotCached() async throws {
            let folder = NSTemporaryDirectory() + "switchyard-cut-\(getpid())"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/big.jpg"
            let jpeg = Fixtures.photo(width: 8_000, height: 6_000)
            try Data(jpeg).write(to: URL(fileURLWithPath: path))
            let options = ThumbnailOptions(width: 64, format: .png)
            let reference = try await ImagePipeline(configuration: .init(name: "reference", memoryCacheCost: 0))
                .thumbnail(of: .file(path), options)
            let cache = ThumbnailDiskCache(folder: folder + "/cache", byteLimit: 1 << 20)
            let pipeline = ImagePipeline(
                configuration: .init(name: "cut", width: 1, memoryCacheCost: 0, diskCache: cache))
            let before = Self.bytesRead()
            let caller = Task { try await pipeline.thumbnail(of: .file(path), options) }
            // Past its checks (which read the file's ends) and a third into the decode: what this process has read
            // (other suites' reads only make the cancel come earlier, before the decode, which this test tolerates).
            await yieldUntil("the decode is under way") { Self.bytesRead() - before > (1 << 20) + jpeg.count / 3 }
            caller.cancel()
            _ = try? await caller.value
            await yieldUntil("the render ends") { !Self.isOpen(path) }
            // A loader that took the refused read for the end of the data would have made a partial image; had it
            // been kept, the disk cache would serve it now.
            #expect(try await pipeline.thumbnail(of: .file(path), options) == reference)
        }

        /// The bytes this process has read through system calls (`/proc/self/io`'s `rchar`).
        private static func bytesRead() -> Int {
            let io = (try? String(contentsOfFile: "/proc/self/io", encoding: .utf8)) ?? ""
            let line = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }
            return line.flatMap { Int($0.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        }

        /// Whether this process has `path` open (`/proc/self/fd`).
        private static func isOpen(_ path: String) -> Bool {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return descriptors.contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path
            }
        }
    }
#endif
