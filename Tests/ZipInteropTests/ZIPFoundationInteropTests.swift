import Foundation
import SwitchyardSampleFeeds
import SwitchyardTransit
import Testing
import ZIPFoundation

/// Switchyard's zip code against another implementation, both ways: archives ZIPFoundation writes (stored and
/// deflated entries, a sub-folder with its directory entry, an empty file, binary data larger than one read buffer)
/// read back byte for byte through `ZipArchive`; and archives `ZipWriter` writes (deflated, with data descriptors)
/// extracted by ZIPFoundation with its CRC-32 check.
@Suite("Zip: cross-checked with ZIPFoundation")
struct ZIPFoundationInteropTests {
    /// GTFS-shaped text, a non-ASCII name, an empty file and 200 KB of binary data (more than one 64 KiB read).
    static let contents: [(path: String, bytes: [UInt8])] = [
        (
            "gtfs/agency.txt",
            Array("agency_id,agency_name,agency_url,agency_timezone\nBVG,BVG,https://bvg.de,Europe/Berlin\n".utf8)
        ),
        ("gtfs/stops.txt", Array("stop_id,stop_name,stop_lat,stop_lon\n1,\"Görlitzer Bahnhof\",52.499,13.428\n".utf8)),
        ("gtfs/empty.txt", []),
        ("gtfs/binary.bin", deterministicBytes(count: 200_000)),
    ]

    @Test("archives written by ZIPFoundation read back byte for byte", arguments: [false, true])
    func readsZIPFoundationArchives(deflated: Bool) throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent(deflated ? "deflated.zip" : "stored.zip")
            let archive = try Archive(url: url, accessMode: .create)
            try archive.addEntry(with: "gtfs/", type: .directory, uncompressedSize: Int64(0)) { (_: Int64, _: Int) in
                Data()
            }
            for (path, bytes) in Self.contents {
                let data = Data(bytes)
                try archive.addEntry(
                    with: path, type: .file, uncompressedSize: Int64(data.count),
                    compressionMethod: deflated ? .deflate : .none
                ) { (position: Int64, size: Int) in data.subdata(in: Int(position)..<Int(position) + size) }
            }

            let ours = try ZipArchive(path: url.path)
            #expect(ours.entries.map(\.path) == ["gtfs/"] + Self.contents.map(\.path))
            #expect(ours.entries.first?.isDirectory == true)
            for (path, bytes) in Self.contents {
                let entry = try #require(ours.entry(named: path))
                #expect(entry.uncompressedSize == UInt64(bytes.count), "\(path)")
                let same = try readAll(entry, of: ours) == bytes  // not in #expect: it would print both arrays
                #expect(same, "\(path)")
            }
        }
    }

    /// Without forced ZIP64 records: ZIPFoundation 0.9.20 lists no entries of an archive whose ZIP64 records are
    /// forced onto small sizes (Info-ZIP's `unzip -t` and Python's `zipfile` read it); Switchyard's own ZIP64
    /// reading is cross-checked with Python's archives in `SwitchyardTransitTests`.
    @Test("archives written by ZipWriter extract in ZIPFoundation with matching CRC-32s")
    func zipFoundationReadsOurArchives() throws {
        try withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("ours.zip")
            let writer = try ZipWriter(path: url.path, compressionLevel: 6)
            for (path, bytes) in Self.contents {
                try writer.beginEntry(path)
                try writer.write(bytes)
                try writer.endEntry()
            }
            try writer.finish()

            let theirs = try Archive(url: url, accessMode: .read)
            var extracted: [String: [UInt8]] = [:]
            for entry in theirs {
                var data = Data()
                _ = try theirs.extract(entry) { data.append($0) }  // throws on a CRC-32 mismatch
                extracted[entry.path] = Array(data)
            }
            #expect(extracted.count == Self.contents.count)
            for (path, bytes) in Self.contents {
                let same = extracted[path] == bytes  // not in #expect: it would print both arrays
                #expect(same, "\(path): \(extracted[path]?.count ?? -1) bytes extracted of \(bytes.count)")
            }
        }
    }
}

private func readAll(_ entry: ZipEntry, of archive: ZipArchive) throws -> [UInt8] {
    let reader = try archive.openEntry(entry, bufferSize: 4096)
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 10_000)
    while true {
        let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
        if count == 0 { return result }
        result += buffer[..<count]
    }
}

/// Bytes from a fixed linear congruential generator: the same on every run, and not compressible to nothing.
private func deterministicBytes(count: Int) -> [UInt8] {
    var state: UInt32 = 0x1234_5678
    return (0..<count).map { _ in
        state = state &* 1_664_525 &+ 1_013_904_223
        return UInt8(truncatingIfNeeded: state >> 24)
    }
}

private func withTemporaryDirectory(_ body: (URL) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zip-interop-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(directory)
}
