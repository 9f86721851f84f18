import Foundation
import SwitchyardTesting
import Testing

@testable import Switchyard

@Suite("ByteChunks: fixed-size reads, synchronous and asynchronous")
struct ByteChunksTests {
    @Test(
        "chunks have the configured size, the last one the rest, and concatenate to the file",
        arguments: [1, 7, 4096, 100_000])
    func chunkSizes(chunkSize: Int) async throws {
        var random = SeededRandomNumberGenerator.forTest("ByteChunksTests.chunkSizes \(chunkSize)")
        let bytes = (0..<(chunkSize == 1 ? 3_001 : 50_001)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let file = try TemporaryFile(bytes)
        defer { file.remove() }
        let chunks = ByteChunks(file.input, chunkSize: chunkSize)
        var sizes: [Int] = []
        var joined: [UInt8] = []
        let total = try synchronously {
            try chunks.forEachChunkBlocking { chunk in
                sizes.append(chunk.count)
                joined += chunk
            }
        }
        #expect(total == bytes.count)
        #expect(joined == bytes)
        #expect(sizes.dropLast().allSatisfy { $0 == chunkSize })
        var asyncJoined: [UInt8] = []
        for try await chunk in chunks {
            #expect(!chunk.isEmpty && chunk.count <= chunkSize)
            asyncJoined += chunk
        }
        #expect(asyncJoined == bytes)
        var zeroCopyJoined: [UInt8] = []
        try await chunks.forEachChunk { zeroCopyJoined += $0 }
        #expect(zeroCopyJoined == bytes)
    }

    @Test("a sequence input is re-chunked; empty buffers in it are skipped")
    func sequenceInput() async throws {
        let bytes = Array(0..<200).map { UInt8($0) }
        var joined: [UInt8] = []
        for try await chunk in ByteChunks(.sequence(CutBytes(bytes: bytes, sizes: [3, 0, 50, 1])), chunkSize: 16) {
            #expect(chunk.count == 16 || joined.count + chunk.count == 200)
            joined += chunk
        }
        #expect(joined == bytes)
    }

    @Test("an empty file has no chunks")
    func emptyFile() async throws {
        let file = try TemporaryFile([UInt8]())
        defer { file.remove() }
        var count = 0
        for try await _ in ByteChunks(file.input) { count += 1 }
        #expect(count == 0)
        #expect(try synchronously { try ByteChunks(file.input).forEachChunkBlocking { _ in count += 1 } } == 0)
        #expect(count == 0)
    }
}
