#if Images
    import Switchyard
    import SwitchyardImages
    import SwitchyardTesting
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    @Suite("ThumbnailDiskCache: the size limit after every write, torn files never served")
    struct DiskCacheTests {
        @Test("the limit holds after every one of 2,000 random writes, on disk as in the count")
        func limitAfterEveryWrite() async {
            await withFolder { folder in
                let cache = ThumbnailDiskCache(folder: folder, byteLimit: 256 << 10)
                // 2,000 blocking writes and folder scans: on the blocking executor, not the cooperative pool the
                // tests beside this one need. The first write after which a check failed, if any, is reported.
                var failure: String?
                do {
                    failure = try await BlockingExecutor.shared.run { () -> String? in
                        var random = SeededRandomNumberGenerator.forTest("DiskCacheTests.limitAfterEveryWrite")
                        for write in 0..<2_000 {
                            let size = Int.random(in: 0...(40 << 10), using: &random)
                            let key = "k\(Int.random(in: 0..<300, using: &random))"
                            cache.store(
                                Thumbnail(bytes: [UInt8](repeating: 1, count: size), format: .png, width: 1, height: 1),
                                forKey: key)
                            let (counted, onDisk) = (cache.totalBytes, Self.bytesOnDisk(folder))
                            if counted > 256 << 10 || onDisk != counted {
                                return "after write \(write): \(counted) bytes counted, \(onDisk) on disk"
                            }
                        }
                        return nil
                    }
                } catch {
                    failure = "\(error)"
                }
                #expect(failure == nil, "\(failure ?? "")")
                await cache.waitUntilScanned()  // before the folder goes
                #expect(Self.bytesOnDisk(folder) == cache.totalBytes)
            }
        }

        @Test("a torn or corrupt entry is never served: it is removed, and a miss reported")
        func tornEntries() async {
            await withFolder { folder in
                let cache = ThumbnailDiskCache(folder: folder, byteLimit: 1 << 20)
                let thumbnail = Thumbnail(bytes: Array(0..<200), format: .webp, width: 20, height: 10)
                for damage in ["cut", "flip", "empty"] {
                    cache.store(thumbnail, forKey: damage)
                    #expect(cache.thumbnail(forKey: damage) == thumbnail)
                    let path = folder + "/" + Self.onlyEntry(folder, besides: [])
                    var bytes = Self.read(path)
                    switch damage {
                    case "cut": bytes.removeLast(30)
                    case "flip": bytes[100] ^= 0x40
                    default: bytes = []
                    }
                    Self.write(path, bytes)
                    #expect(cache.thumbnail(forKey: damage) == nil, "\(damage)")
                    #expect(access(path, F_OK) != 0, "\(damage): the damaged file is removed")
                }
                await cache.waitUntilScanned()  // before the folder goes
            }
        }

        @Test(
            "entries survive the process: a new cache over the folder serves them and counts them; crash leftovers go")
        func reopen() async {
            await withFolder { folder in
                let thumbnail = Thumbnail(bytes: Array(repeating: 9, count: 1000), format: .jpeg, width: 5, height: 4)
                let first = ThumbnailDiskCache(folder: folder, byteLimit: 1 << 20)
                first.store(thumbnail, forKey: "kept")
                first.store(thumbnail, forKey: "unread")
                await first.waitUntilScanned()
                // A crashed process's write (no process has that id: it is above any pid_max).
                Self.write(folder + "/.tmp-2147483647-2", [1, 2, 3])
                let reopened = ThumbnailDiskCache(folder: folder, byteLimit: 1 << 20)
                #expect(reopened.thumbnail(forKey: "kept") == thumbnail)
                await reopened.waitUntilScanned()
                #expect(reopened.totalBytes == Self.bytesOnDisk(folder), "the unread entry is counted by the scan")
                #expect(access(folder + "/.tmp-2147483647-2", F_OK) != 0)
                #expect(reopened.thumbnail(forKey: "other") == nil)
            }
        }

        @Test("the pipeline serves a second run from disk, and makes a changed file again")
        func pipelineUsesDisk() async throws {
            try await withFolder { folder in
                let path = folder + "/photo.jpg"
                Self.write(path, Fixtures.picture(width: 800, height: 600))
                let options = ThumbnailOptions(width: 80)
                func run() async throws -> (Thumbnail, Int) {
                    let cache = ThumbnailDiskCache(folder: folder + "/cache", byteLimit: 1 << 20)
                    let pipeline = ImagePipeline(configuration: .init(name: "disk", width: 1, diskCache: cache))
                    let thumbnail = try await pipeline.thumbnail(of: .file(path), options)
                    await cache.waitUntilScanned()  // before the folder goes
                    return (thumbnail, Self.entries(folder + "/cache").count)
                }
                let (first, entries) = try await run()
                #expect(entries == 1)
                let entry = folder + "/cache/" + Self.onlyEntry(folder + "/cache", besides: [])
                Self.write(entry, ThumbnailEntryBytes.replacingPayload(of: Self.read(entry)))
                let (second, _) = try await run()
                #expect(second != first, "served from the disk (the test changed the stored bytes)")
                Self.write(path, Fixtures.picture(width: 400, height: 300))  // changed in place: another size
                let (third, entriesAfter) = try await run()
                #expect((third.width, third.height) == (80, 60))
                #expect(entriesAfter == 2)
            }
        }

        // MARK: helpers

        static func entries(_ folder: String) -> [String] {
            guard let directory = opendir(folder) else { return [] }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                if name.hasSuffix(".thumb") { names.append(name) }
            }
            return names.sorted()
        }

        static func onlyEntry(_ folder: String, besides: [String]) -> String {
            entries(folder).first { !besides.contains($0) } ?? ""
        }

        static func bytesOnDisk(_ folder: String) -> Int {
            entries(folder).reduce(0) { total, name in
                var status = stat()
                return total + (stat(folder + "/" + name, &status) == 0 ? Int(status.st_size) : 0)
            }
        }

        static func read(_ path: String) -> [UInt8] {
            guard let file = fopen(path, "rb") else { return [] }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while case let count = fread(&buffer, 1, buffer.count, file), count > 0 { bytes += buffer[..<count] }
            return bytes
        }

        static func write(_ path: String, _ bytes: [UInt8]) {
            let file = fopen(path, "wb")
            _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
        }
    }

    /// Rewrites a stored entry with other payload bytes and a valid checksum (to tell a disk hit from a new render).
    enum ThumbnailEntryBytes {
        static func replacingPayload(of entry: [UInt8]) -> [UInt8] {
            // The payload is everything between the header and the 8-byte checksum; the last payload byte changes.
            var bytes = Array(entry.dropLast(8))
            bytes[bytes.count - 1] ^= 0xFF
            var first: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: first >> (8 * UInt64(index)))) }
            return bytes
        }
    }

    func withFolder<Value>(_ body: (String) async throws -> Value) async rethrows -> Value {
        let folder = "/tmp/switchyard-images-tests-\(UInt64.random(in: 0...UInt64.max))"
        mkdir(folder, 0o755)
        defer { removeTree(folder) }
        return try await body(folder)
    }

    func withFolder<Value>(_ body: (String) throws -> Value) rethrows -> Value {
        let folder = "/tmp/switchyard-images-tests-\(UInt64.random(in: 0...UInt64.max))"
        mkdir(folder, 0o755)
        defer { removeTree(folder) }
        return try body(folder)
    }

    func removeTree(_ folder: String) {
        for name in DiskCacheTests.entries(folder) { unlink(folder + "/" + name) }
        if let directory = opendir(folder) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                guard name != ".", name != ".." else { continue }
                let path = folder + "/" + name
                var status = stat()
                if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
                    removeTree(path)
                } else {
                    unlink(path)
                }
            }
            closedir(directory)
        }
        rmdir(folder)
    }
#endif
