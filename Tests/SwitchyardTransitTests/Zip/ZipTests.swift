import Foundation
import SwitchyardTesting
import Testing

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

@Suite("Zip archives")
struct ZipTests {
    // MARK: - Round trip

    @Test("Writer output reads back byte for byte, at any read and buffer size")
    func roundTrip() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/round.zip"
            let contents = sampleContents()
            let writer = try ZipWriter(path: path)
            for (name, bytes) in contents {
                try writer.beginEntry(name)
                if name == "tiny-writes.txt" {
                    var index = 0
                    while index < bytes.count {  // 1, 2 or 3 bytes at a time
                        let end = min(bytes.count, index + 1 + index % 3)
                        try writer.write(Array(bytes[index..<end]))
                        index = end
                    }
                } else {
                    var index = 0
                    while index < bytes.count {
                        let end = min(bytes.count, index + 100_000)
                        try writer.write(Array(bytes[index..<end]))
                        index = end
                    }
                }
                try writer.endEntry()
            }
            try writer.beginEntry("dir/")
            try writer.finish()

            let archive = try ZipArchive(path: path)
            #expect(archive.entries.map(\.path) == contents.map(\.0) + ["dir/"])
            let directoryEntry = try #require(archive.entry(named: "dir/"))
            #expect(directoryEntry.isDirectory && directoryEntry.uncompressedSize == 0)
            #expect(try readAll(archive, directoryEntry).isEmpty)
            for (name, bytes) in contents {
                let entry = try #require(archive.entry(named: name))
                #expect(!entry.isDirectory)
                #expect(entry.method == .deflate)
                #expect(entry.uncompressedSize == UInt64(bytes.count))
                // (read size, input buffer size); the 1 MB entry skips 1-byte reads and 1-byte input (too slow).
                let sizes =
                    bytes.count < 1_000_000
                    ? [(65_536, 65_536), (7, 1_000), (4_096, 1), (1, 64 * 1024)]
                    : [(65_536, 65_536), (7, 1_000), (100_003, 17)]
                for (readSize, bufferSize) in sizes {
                    let back = try readAll(archive, entry, readSize: readSize, bufferSize: bufferSize)
                    #expect(back == bytes, "\(name) read \(readSize) at a time, buffer \(bufferSize)")
                }
            }
        }
    }

    @Test("Compression levels 0 (stored blocks), 9 and zlib's default round trip", arguments: [Int32(0), 9, -1])
    func compressionLevels(level: Int32) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/level.zip"
            let bytes = csvText(byteCount: 300_000, seed: 7)
            let writer = try ZipWriter(path: path, compressionLevel: level)
            try writer.beginEntry("stops.txt")
            try writer.write(bytes)
            try writer.finish()
            let archive = try ZipArchive(path: path)
            #expect(try readAll(archive, archive.entries[0]) == bytes)
        }
    }

    @Test("bytesProduced counts the bytes handed out; the end stays the end")
    func progressAndEnd() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/progress.zip"
            let bytes = csvText(byteCount: 200_000, seed: 3)
            try writeArchive(path, [("a.csv", bytes)])
            let archive = try ZipArchive(path: path)
            let reader = try archive.openEntry(archive.entries[0])
            var buffer = [UInt8](repeating: 0, count: 50_000)
            var total = 0
            while true {
                let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
                if count == 0 { break }
                total += count
                #expect(reader.bytesProduced == UInt64(total))
            }
            #expect(total == bytes.count)
            #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == 0)
        }
    }

    @Test("An archive comment (even one holding an end-record signature) is skipped")
    func archiveComment() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/comment.zip"
            try writeArchive(path, [("a.txt", Array("alpha\n".utf8))])
            var data = try Data(contentsOf: URL(fileURLWithPath: path))
            let comment = Array("feed of the week PK\u{5}\u{6} not a record".utf8)
            data[data.count - 2] = UInt8(comment.count)  // comment length (< 256 here)
            data.append(contentsOf: comment)
            try data.write(to: URL(fileURLWithPath: path))
            let archive = try ZipArchive(path: path)
            #expect(try readAll(archive, archive.entries[0]) == Array("alpha\n".utf8))
        }
    }

    @Test("Misuse of the writer throws without spoiling the archive")
    func writerMisuse() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/misuse.zip"
            let writer = try ZipWriter(path: path)
            #expect(throws: ZipError.self) { try writer.write([1, 2, 3]) }
            try writer.beginEntry("a.txt")
            try writer.write([1, 2, 3])
            #expect(throws: ZipError.self) { try writer.beginEntry("a.txt") }
            #expect(throws: ZipError.self) { try writer.beginEntry("") }
            try writer.beginEntry("d/")
            #expect(throws: ZipError.self) { try writer.write([1]) }
            try writer.finish()
            #expect(throws: ZipError.self) { try writer.beginEntry("b.txt") }
            #expect(throws: ZipError.self) { try ZipWriter(path: directory + "/x.zip", compressionLevel: 12) }
            let archive = try ZipArchive(path: path)
            #expect(archive.entries.map(\.path) == ["a.txt", "d/"])
            #expect(try readAll(archive, archive.entries[0]) == [1, 2, 3])
        }
    }

    // MARK: - Interoperability

    @Test("Archives made by Info-ZIP zip read correctly, nested folders and stored entries included")
    func readsInfoZipArchives() throws {
        // Skipped when Info-ZIP is not installed (zip is in Scripts/install-system-packages.sh on Linux).
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zip") else { return }
        try withTemporaryDirectory { directory in
            let files: [(String, [UInt8])] = [
                ("agency.txt", Array("agency_id,agency_name\n1,Metro\n".utf8)),
                ("feed/stops.txt", csvText(byteCount: 400_000, seed: 11)),
                ("feed/empty.txt", []),
                ("feed/deeper/noise.bin", pseudoRandomBytes(count: 70_000, seed: 5)),  // incompressible: stored
            ]
            for (name, bytes) in files {
                let url = URL(fileURLWithPath: directory + "/" + name)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: url)
            }
            for options in [["-r"], ["-r", "-0"], ["-r", "-fz"]] {
                let zipPath = directory + "/infozip.zip"
                try? FileManager.default.removeItem(atPath: zipPath)
                let arguments = ["-q", "-X"] + options + [zipPath, "agency.txt", "feed"]
                #expect(try run("/usr/bin/zip", arguments, in: directory) == 0, "zip \(options)")
                let archive = try ZipArchive(path: zipPath)
                #expect(archive.entry(named: "feed/")?.isDirectory == true)
                #expect(archive.entry(named: "feed/deeper/")?.isDirectory == true)
                for (name, bytes) in files {
                    let entry = try #require(archive.entry(named: name), "\(name) in zip \(options)")
                    #expect(try readAll(archive, entry) == bytes, "\(name) in zip \(options)")
                    #expect(try readAll(archive, entry, readSize: 7, bufferSize: 5) == bytes)
                }
                if options.contains("-0") { #expect(archive.entries.allSatisfy { $0.method == .stored }) }
            }
        }
    }

    @Test("unzip -t and Python's zipfile accept the writer's output, ZIP64 included", arguments: [false, true])
    func externalToolsAcceptWriterOutput(forceZip64: Bool) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/ours.zip"
            let writer = try ZipWriter(path: path, compressionLevel: 6, forceZip64: forceZip64)
            for (name, bytes) in [
                ("feed/stops.txt", csvText(byteCount: 250_000, seed: 1)), ("empty.txt", []),
                ("données/é.txt", Array("accents ok\n".utf8)),
            ] {
                try writer.beginEntry(name)
                try writer.write(bytes)
            }
            try writer.beginEntry("feed/folder/")
            try writer.finish()
            // Skipped tool by tool when not installed.
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") {
                #expect(try run("/usr/bin/unzip", ["-tq", path]) == 0)
            }
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") {
                #expect(try run("/usr/bin/python3", ["-m", "zipfile", "-t", path]) == 0)
            }
        }
    }

    // MARK: - ZIP64

    @Test("A ZIP64 central directory (forced) is written and read back")
    func zip64RoundTrip() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/zip64.zip"
            let contents = [("a.txt", Array("first\n".utf8)), ("b/c.csv", csvText(byteCount: 120_000, seed: 9))]
            let writer = try ZipWriter(path: path, compressionLevel: 1, forceZip64: true)
            for (name, bytes) in contents {
                try writer.beginEntry(name)
                try writer.write(bytes)
            }
            try writer.finish()

            let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let end = data.count - 22
            #expect(data[end..<(end + 4)] == [0x50, 0x4B, 5, 6])
            #expect(data[(end + 8)..<(end + 20)] == ArraySlice(repeating: 0xFF, count: 12))  // counts, size, offset
            #expect(data[(end - 20)..<(end - 16)] == [0x50, 0x4B, 6, 7])  // ZIP64 locator

            let archive = try ZipArchive(path: path)
            #expect(archive.entries.map(\.path) == contents.map(\.0))
            #expect(archive.entries[1].localHeaderOffset > 0)
            for (name, bytes) in contents {
                let entry = try #require(archive.entry(named: name))
                #expect(entry.uncompressedSize == UInt64(bytes.count))
                #expect(try readAll(archive, entry, readSize: 1_000) == bytes)
            }
        }
    }

    @Test("A ZIP64 size beyond Int64 is rejected when the archive is opened, naming the entry")
    func zip64SizeOutOfRange() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/lying.zip"
            let writer = try ZipWriter(path: path, compressionLevel: 1, forceZip64: true)
            try writer.beginEntry("stop_times.txt")
            try writer.write(Array("trip_id\n".utf8))
            try writer.finish()
            var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let header = try #require(
                data.indices.dropLast(4).first { data[$0..<($0 + 4)] == [0x50, 0x4B, 1, 2] })
            let sizeField = header + 46 + "stop_times.txt".utf8.count + 4  // ZIP64 extra: id, length, uncompressed
            data.replaceSubrange(sizeField..<(sizeField + 8), with: repeatElement(0xFF, count: 8))
            try Data(data).write(to: URL(fileURLWithPath: path))
            let error = try #require(throws: ZipError.self) { try ZipArchive(path: path) }
            #expect(error.entry == "stop_times.txt")
            #expect(error.description.contains("out of range"))
        }
    }

    @Test("Central headers beyond the end record's count (a count wrapped at 65,536) are read, not dropped")
    func understatedCount() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/wrapped.zip"
            let writer = try ZipWriter(path: path, compressionLevel: 1)
            for name in ["a.txt", "b.txt", "c.txt"] {
                try writer.beginEntry(name)
                try writer.write(Array("\(name)\n".utf8))
            }
            try writer.finish()
            var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let end = data.count - 22
            data.replaceSubrange((end + 8)..<(end + 12), with: [1, 0, 1, 0])  // entries on this disk, in total
            try Data(data).write(to: URL(fileURLWithPath: path))
            let archive = try ZipArchive(path: path)
            #expect(archive.entries.map(\.path) == ["a.txt", "b.txt", "c.txt"])
            #expect(
                try readAll(archive, try #require(archive.entry(named: "c.txt")), readSize: 100)
                    == Array("c.txt\n".utf8))
        }
    }

    // MARK: - Errors

    @Test("A missing, empty or non-zip file throws an error naming the archive")
    func notAnArchive() throws {
        try withTemporaryDirectory { directory in
            let missing = directory + "/missing.zip"
            let missingError = try #require(throws: ZipError.self) { try ZipArchive(path: missing) }
            #expect(missingError.archive == missing && missingError.entry == nil)
            #expect(missingError.description.hasPrefix(missing + ": cannot open: No such file or directory"))

            let empty = directory + "/empty.zip"
            try Data().write(to: URL(fileURLWithPath: empty))
            let emptyError = try #require(throws: ZipError.self) { try ZipArchive(path: empty) }
            #expect(emptyError.description == empty + ": not a zip archive (empty file)")

            let text = directory + "/text.zip"
            try Data(csvText(byteCount: 5_000, seed: 2)).write(to: URL(fileURLWithPath: text))
            let textError = try #require(throws: ZipError.self) { try ZipArchive(path: text) }
            #expect(textError.message.contains("not a zip archive"))
        }
    }

    @Test("A truncated or shortened archive throws, wherever it is cut")
    func truncated() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/whole.zip"
            try writeArchive(
                path, [("a.csv", csvText(byteCount: 50_000, seed: 4)), ("b.csv", csvText(byteCount: 50_000, seed: 5))])
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            let cut = directory + "/cut.zip"
            for length in [1, 4, 30, 1_000, whole.count / 2, whole.count - 30, whole.count - 22, whole.count - 1] {
                try whole.prefix(length).write(to: URL(fileURLWithPath: cut))
                let error = try #require(throws: ZipError.self, "cut at \(length)") { try readEverything(cut) }
                #expect(error.archive == cut)
            }
            // 100 bytes cut out of the first entry's data: the central directory no longer lines up.
            var shortened = whole
            shortened.removeSubrange(5_000..<5_100)
            try shortened.write(to: URL(fileURLWithPath: cut))
            #expect(throws: ZipError.self) { try readEverything(cut) }
        }
    }

    @Test("A flipped byte in an entry's data throws (CRC-32, size or zlib error) instead of returning wrong bytes")
    func corruptData() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/good.zip"
            let bytes = csvText(byteCount: 200_000, seed: 8)
            for level in [Int32(0), 1] {
                let writer = try ZipWriter(path: path, compressionLevel: level)
                try writer.beginEntry("stop_times.txt")
                try writer.write(bytes)
                try writer.finish()
                let entry = try #require(try ZipArchive(path: path).entries.first)
                let dataStart = Int(entry.localHeaderOffset) + 30 + "stop_times.txt".utf8.count
                let good = try Data(contentsOf: URL(fileURLWithPath: path))
                let bad = directory + "/bad.zip"
                for fraction in [0.1, 0.3, 0.5, 0.7, 0.95] {
                    var data = good
                    data[dataStart + Int(Double(entry.compressedSize) * fraction)] ^= 0x20
                    try data.write(to: URL(fileURLWithPath: bad))
                    let archive = try ZipArchive(path: bad)
                    let error = try #require(throws: ZipError.self, "level \(level) at \(fraction)") {
                        try readAll(archive, archive.entries[0])
                    }
                    #expect(error.archive == bad && error.entry == "stop_times.txt")
                    #expect(["CRC-32", "deflate", "size", "data"].contains { error.message.contains($0) })
                }
            }
        }
    }

    @Test("Unsupported methods and bad local headers are rejected when the entry is opened")
    func unsupportedEntries() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/method.zip"
            try writeArchive(path, [("a.txt", Array("hello\n".utf8))])
            var data = try Data(contentsOf: URL(fileURLWithPath: path))
            let end = data.count - 22
            let directoryStart = Int(data[end + 16]) | Int(data[end + 17]) << 8  // small archive: < 64 KiB
            data[directoryStart + 10] = 12  // central directory method: bzip2
            try data.write(to: URL(fileURLWithPath: path))
            let archive = try ZipArchive(path: path)
            #expect(archive.entries[0].method == nil && archive.entries[0].methodCode == 12)
            let error = try #require(throws: ZipError.self) { try archive.openEntry(archive.entries[0]) }
            #expect(
                error.description
                    == path + ": a.txt: unsupported compression method bzip2 (only stored and deflate can be read)")

            data[directoryStart + 10] = 8
            data[0] = 0  // local header signature
            try data.write(to: URL(fileURLWithPath: path))
            let reopened = try ZipArchive(path: path)
            #expect(throws: ZipError.self) { try reopened.openEntry(reopened.entries[0]) }
        }
    }
}

// MARK: - Helpers

/// Runs `body` with a fresh directory, removed afterwards.
private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ZipTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    try body(url.path)
}

/// Opens the archive and reads every entry to its end.
private func readEverything(_ path: String) throws {
    let archive = try ZipArchive(path: path)
    for entry in archive.entries { _ = try readAll(archive, entry) }
}

private func writeArchive(_ path: String, _ contents: [(String, [UInt8])]) throws {
    let writer = try ZipWriter(path: path)
    for (name, bytes) in contents {
        try writer.beginEntry(name)
        try writer.write(bytes)
    }
    try writer.finish()
}

/// Entries of the round-trip test: empty, small, 1 MB, many tiny writes, a non-ASCII path.
private func sampleContents() -> [(String, [UInt8])] {
    [
        ("empty.txt", []),
        ("small.txt", Array("hello, zip\n".utf8)),
        ("feed/stop_times.txt", csvText(byteCount: 1_000_000, seed: 42)),
        ("tiny-writes.txt", csvText(byteCount: 30_000, seed: 6)),
        ("données/arrêts.txt", Array("stop_id,stop_name\n1,Gare de l'Est\n".utf8)),
    ]
}

/// GTFS-like CSV text of exactly `byteCount` bytes.
private func csvText(byteCount: Int, seed: UInt64) -> [UInt8] {
    var generator = SeededRandomNumberGenerator(seed: seed)
    let names = ["Main St", "Central", "Harbour", "Old Mill", "Station Rd", "Market", "Park Ave"]
    var text = Array("trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_name\n".utf8)
    text.reserveCapacity(byteCount + 100)
    var sequence = 0
    while text.count < byteCount {
        let trip = generator.next() % 5_000
        let minutes = Int(generator.next() % 1_440)
        let time = "\(minutes / 60):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60):00"
        sequence += 1
        let name = names[Int(generator.next() % UInt64(names.count))]
        text += Array("T\(trip),\(time),\(time),S\(generator.next() % 90_000),\(sequence),\(name)\n".utf8)
    }
    return Array(text.prefix(byteCount))
}

private func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
    var generator = SeededRandomNumberGenerator(seed: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
}

/// Runs a tool (output discarded) and returns its exit status.
@discardableResult
private func run(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
