import Foundation
import Testing

@_spi(ImportDestinations) @testable import SwitchyardTransit

/// Proves that the zip reader reads archives written by another implementation, CPython's `zipfile`, exactly as that
/// writer recorded them: stored and deflated entries, ZIP64 extra fields (in local headers, and in central headers
/// holding sizes, sizes and offset, or the offset alone) with a ZIP64 end record and locator, data descriptors
/// (flag bit 3, zero CRC and sizes in the local headers), archive and entry comments, and a sub-folder with its
/// directory entry.
///
/// The archives and `expected.json` (each entry's path, directory flag, sizes, CRC-32, method, local header offset,
/// data-descriptor flag and exact bytes, as Python recorded them) are checked in under `Fixtures/`; regenerate them
/// with `python3 Fixtures/make-fixtures.py`, which also checks them with its own parser.
@Suite("Zip reader: archives written by Python's zipfile")
struct ZipInteropTests {
    @Test(
        "Entries are listed as Python recorded them and read back byte for byte",
        arguments: [
            "python-stored.zip", "python-deflated.zip", "python-zip64.zip", "python-data-descriptors.zip",
            "python-comment.zip", "python-subfolder.zip",
        ]
    )
    func readsPythonArchive(name: String) throws {
        let expected = try Self.expectedArchive(name)
        let archive = try ZipArchive(path: Self.fixturePath(name))
        #expect(archive.entries.map(\.path) == expected.entries.map(\.path), "\(name)")
        for item in expected.entries {
            let label = "\(item.path) in \(name)"
            let entry = try #require(archive.entry(named: item.path), "\(label)")
            #expect(entry.isDirectory == item.isDirectory, "\(label)")
            #expect(entry.uncompressedSize == item.size, "\(label)")
            #expect(entry.compressedSize == item.compressedSize, "\(label)")
            #expect(entry.crc32 == item.crc32, "\(label)")
            #expect(entry.methodCode == item.method, "\(label)")
            #expect(entry.method != nil && !entry.isEncrypted, "\(label)")
            #expect(entry.localHeaderOffset == item.localHeaderOffset, "\(label)")
            #expect((entry.flags & 0x8 != 0) == item.dataDescriptor, "\(label)")

            let bytes = try #require(Data(base64Encoded: item.contentBase64), "\(label): manifest content")
            let expectedBytes = [UInt8](bytes)
            #expect(UInt64(expectedBytes.count) == item.size, "\(label): manifest content")
            #expect(expectedBytes.withUnsafeBytes { ZipCRC32.update(0, with: $0) } == item.crc32, "\(label)")
            // Whole reads, then 7 bytes at a time from a 5-byte input buffer (many refills, many partial inflates).
            for (readSize, bufferSize) in [(65_536, 64 * 1024), (7, 5)] {
                let back = try readAll(archive, entry, readSize: readSize, bufferSize: bufferSize)
                #expect(back == expectedBytes, "\(label) read \(readSize) at a time, buffer \(bufferSize)")
            }
        }
    }

    @Test("A complete fake end-of-central-directory record inside the archive comment is not taken for the real one")
    func fakeEndRecordInComment() throws {
        let name = "python-comment.zip"
        let path = Self.fixturePath(name)
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The fixture holds two end-record signatures: the real record, then the fake one inside its comment, far
        // enough from the end (more than 22 bytes) that a backwards search meets it first and has to reject it.
        let signature: [UInt8] = [0x50, 0x4B, 0x05, 0x06]
        let hits = data.indices.dropLast(3).filter { Array(data[$0..<($0 + 4)]) == signature }
        #expect(hits.count == 2)
        let fake = try #require(hits.last)
        #expect(data.count - fake > ZipLimits.endSize)

        let expected = try Self.expectedArchive(name)
        let archive = try ZipArchive(path: path)
        #expect(!archive.entries.isEmpty)
        #expect(archive.entries.map(\.path) == expected.entries.map(\.path))
        for item in expected.entries {
            let entry = try #require(archive.entry(named: item.path))
            let bytes = try #require(Data(base64Encoded: item.contentBase64))
            #expect(try readAll(archive, entry) == [UInt8](bytes), "\(item.path)")
        }
    }

    // MARK: - Fixtures

    /// `expected.json`, as written by `make-fixtures.py`.
    struct Manifest: Decodable {
        let archives: [Archive]
    }

    struct Archive: Decodable {
        let name: String
        let entries: [Entry]
    }

    /// One entry as Python's `ZipInfo` recorded it; `contentBase64` holds its exact uncompressed bytes.
    struct Entry: Decodable {
        let path: String
        let isDirectory: Bool
        let size: UInt64
        let compressedSize: UInt64
        let crc32: UInt32
        let method: UInt16
        let localHeaderOffset: UInt64
        let dataDescriptor: Bool
        let contentBase64: String
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func fixturePath(_ name: String) -> String {
        fixtures.appendingPathComponent(name).path
    }

    static func expectedArchive(_ name: String) throws -> Archive {
        let json = try Data(contentsOf: fixtures.appendingPathComponent("expected.json"))
        let manifest = try JSONDecoder().decode(Manifest.self, from: json)
        return try #require(manifest.archives.first { $0.name == name }, "\(name) in expected.json")
    }
}
