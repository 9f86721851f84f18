import Foundation
import Testing

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

/// Opening feeds of awkward shapes: folder entries that cannot be read, zip entry names with NUL bytes or
/// repeated, fingerprints of replaced files, entries the reader cannot decode.
@Suite("Opening a GTFS feed")
struct GTFSFeedTests {
    private func importFeed(_ path: String, into database: String, options: ImportOptions = ImportOptions())
        async throws -> ImportSummary
    {
        let feed = try GTFSFeed.open(path)
        return try await GTFSImporter(feed: feed, database: database, options: options).run()
    }

    @Test("a folder entry that cannot be read is listed as ignored, or stops the import if it is a GTFS file")
    func unreadableFolderEntries() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try QuirksFeed.writeFolder(scratch.file("feed"))
        try FileManager.default.createSymbolicLink(
            atPath: scratch.file("feed/readme.txt"), withDestinationPath: "nowhere")
        let feed = try GTFSFeed.open(scratch.file("feed"))
        #expect(feed.ignoredFiles.contains("readme.txt"))

        try FileManager.default.createSymbolicLink(
            atPath: scratch.file("feed/shapes.txt"), withDestinationPath: "nowhere")
        #expect { try GTFSFeed.open(scratch.file("feed")) } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .unreadableFeed && error.message.contains("shapes.txt: cannot read")
        }
    }

    @Test("a zip entry whose name holds a NUL byte is listed as ignored under its whole name")
    func zipEntryNameWithNul() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let writer = try ZipWriter(path: scratch.file("feed.zip"))
        var files = QuirksFeed.files
        files["stops.txtQx"] = "not a GTFS file"
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            try writer.beginEntry(name)
            try writer.write(Array(text.utf8))
            try writer.endEntry()
        }
        try writer.finish()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.file("feed.zip"))))
        let (source, target) = (Array("stops.txtQx".utf8), Array("stops.txt\u{0}x".utf8))
        for index in 0...(bytes.count - source.count) where Array(bytes[index..<(index + source.count)]) == source {
            bytes.replaceSubrange(index..<(index + source.count), with: target)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.file("feed.zip")))
        // Bound as a C string, the name was cut at the NUL: "stops.txt" twice, and the import failed (UNIQUE).
        let summary = try await importFeed(scratch.file("feed.zip"), into: scratch.file("db.sqlite"))
        #expect(summary.state == .complete)
        #expect(summary.ignoredFiles.contains { $0.hasPrefix("stops.txt\u{0}x") })
    }

    @Test("a zip with two entries of one name uses the first and lists the repeat as ignored")
    func repeatedZipEntries() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        // ZipWriter refuses repeated names, so write distinct same-length names and rename them in place.
        let writer = try ZipWriter(path: scratch.file("feed.zip"))
        var files = QuirksFeed.files
        files["stopz.txt"] = "stop_id,stop_name,stop_lat,stop_lon\nX9,Second copy,1,1\n"
        files["READMA.txt"] = "one"
        files["READMB.txt"] = "two"
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {  // stops.txt before stopz.txt
            try writer.beginEntry(name)
            try writer.write(Array(text.utf8))
            try writer.endEntry()
        }
        try writer.finish()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.file("feed.zip"))))
        for (from, to) in [("stopz.txt", "stops.txt"), ("READMA.txt", "README.txt"), ("READMB.txt", "README.txt")] {
            let (source, target) = (Array(from.utf8), Array(to.utf8))
            var index = 0
            while index + source.count <= bytes.count {
                if Array(bytes[index..<(index + source.count)]) == source {
                    bytes.replaceSubrange(index..<(index + source.count), with: target)
                }
                index += 1
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.file("feed.zip")))

        let summary = try await importFeed(scratch.file("feed.zip"), into: scratch.file("db.sqlite"))
        #expect(summary.state == .complete)
        #expect(summary.ignoredFiles.contains("stops.txt (repeated in the archive; the first entry is used)"))
        #expect(summary.ignoredFiles.contains("README.txt (repeated in the archive; the first entry is used)"))
        #expect(summary.ignoredFiles.filter { $0.hasPrefix("README.txt") }.count == 2)  // the first, and the repeat
        let names = try SQLiteConnection(path: scratch.file("db.sqlite"), readOnly: true)
            .rows("SELECT count(*) FROM stops WHERE stop_id = 'X9'")
        #expect(names == [[.integer(0)]])
    }

    #if os(Linux)  // st_mtim (Darwin calls it st_mtimespec)
        @Test("a folder file replaced by one of the same size and modification time changes the feed's fingerprint")
        func fingerprintSeesReplacedFiles() throws {
            let scratch = ScratchFolder()
            defer { scratch.remove() }
            try QuirksFeed.writeFolder(scratch.file("feed"))
            let path = scratch.file("feed/agency.txt")
            let before = try GTFSFeed.open(scratch.file("feed")).fingerprint
            #expect(try GTFSFeed.open(scratch.file("feed")).fingerprint == before, "unchanged: the same fingerprint")
            var old = stat()
            #expect(stat(path, &old) == 0)
            // What `cp -p` of another version does: new content, same size, the old modification time (to the
            // nanosecond).
            var changed = try Data(contentsOf: URL(fileURLWithPath: path))
            changed[changed.count - 2] =
                changed[changed.count - 2] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
            try FileManager.default.removeItem(atPath: path)
            try changed.write(to: URL(fileURLWithPath: path))
            var times = [old.st_atim, old.st_mtim]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
            var new = stat()
            #expect(stat(path, &new) == 0)
            #expect(new.st_size == old.st_size)
            #expect(new.st_mtim.tv_sec == old.st_mtim.tv_sec && new.st_mtim.tv_nsec == old.st_mtim.tv_nsec)
            #expect(try GTFSFeed.open(scratch.file("feed")).fingerprint != before)
        }

        @Test("a folder file dated before 1970 opens (its negative time is part of the fingerprint, not a crash)")
        func fileBefore1970() throws {
            let scratch = ScratchFolder()
            defer { scratch.remove() }
            try QuirksFeed.writeFolder(scratch.file("feed"))
            let path = scratch.file("feed/agency.txt")
            var times = [timespec(tv_sec: -86_400, tv_nsec: 0), timespec(tv_sec: -86_400, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
            let feed = try GTFSFeed.open(scratch.file("feed"))
            #expect(try GTFSFeed.open(scratch.file("feed")).fingerprint == feed.fingerprint)
        }
    #endif

    @Test("an encrypted or bzip2 GTFS entry is refused when the feed opens, naming it")
    func unreadableEntriesRefusedAtOpen() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        for (field, value, expected) in [
            (8, UInt8(1), "encrypted entries are not supported"),
            (10, UInt8(12), "compression method 12 is not supported"),
        ] {
            let zip = scratch.file("feed-\(field).zip")
            try QuirksFeed.writeZip(zip)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zip)))
            let name = Array("stops.txt".utf8)
            // The central header of stops.txt: signature, then its name at +46 (length at +28).
            let header = try #require(
                bytes.indices.dropLast(46).first { index in
                    bytes[index..<(index + 4)] == [0x50, 0x4B, 1, 2]
                        && Int(bytes[index + 28]) == name.count
                        && Array(bytes[(index + 46)..<(index + 46 + name.count)]) == name
                })
            bytes[header + field] = value
            try Data(bytes).write(to: URL(fileURLWithPath: zip))
            #expect { try GTFSFeed.open(zip) } throws: { error in
                guard let error = error as? ImportError else { return false }
                return error.kind == .corruptArchive && error.message.contains("stops.txt: \(expected)")
            }
        }
    }
}
