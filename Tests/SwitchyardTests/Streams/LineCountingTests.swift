import Foundation
import SwitchyardTesting
import Testing

@testable import Switchyard

@Suite("Lines.countLines: the counts of the other forms, without framing a line")
struct LineCountingTests {
    /// The summary `forEachLineBlocking` gives, without the buffer's peak (counting never grows a buffer).
    private static func framedCounts(_ input: ByteInput, _ options: LineOptions) throws -> [Int] {
        let summary = try synchronously { try Lines(input, options: options).forEachLineBlocking { _ in } }
        return [summary.lines, summary.terminatedLines, summary.bytes]
    }

    private static func counts(_ summary: LineSummary) -> [Int] {
        [summary.lines, summary.terminatedLines, summary.bytes]
    }

    @Test("line endings and BOMs, at every chunk size from 1 to 8, BOM stripped or kept, sync and async")
    func lineEndings() async throws {
        for (name, bytes, _, _) in LinesTests.endingCases {
            let file = try TemporaryFile(bytes)
            defer { file.remove() }
            for stripping in [true, false] {
                for chunkSize in 1...8 {
                    let options = LineOptions(
                        chunkSize: chunkSize, stripsByteOrderMark: stripping, invalidUTF8: .repair)
                    let expected = try Self.framedCounts(file.input, options)
                    let blocking = try synchronously { try Lines(file.input, options: options).countLinesBlocking() }
                    #expect(Self.counts(blocking) == expected, "\(name), strip \(stripping), chunk \(chunkSize)")
                    #expect(blocking.peakBufferBytes == chunkSize)
                    let asynchronous = try await Lines(file.input, options: options).countLines()
                    #expect(Self.counts(asynchronous) == expected, "\(name), async, chunk \(chunkSize)")
                }
            }
        }
    }

    @Test("random inputs at random chunk sizes: the framed counts; sequences cut anywhere too")
    func randomInputs() async throws {
        var random = SeededRandomNumberGenerator.forTest("LineCountingTests.randomInputs")
        let alphabet = Array("ab \r\n\n\r".utf8) + [0xEF, 0xBB, 0xBF, 0x00, 0xFF]
        for round in 0..<40 {
            let length = Int(random.next() % 5000)
            let prefix: [UInt8] = random.next() % 4 == 0 ? [0xEF, 0xBB, 0xBF] : []
            let bytes = prefix + (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let file = try TemporaryFile(bytes)
            defer { file.remove() }
            let options = LineOptions(chunkSize: 1 + Int(random.next() % 700), invalidUTF8: .repair)
            let expected = try Self.framedCounts(file.input, options)
            let counted = try synchronously { try Lines(file.input, options: options).countLinesBlocking() }
            #expect(Self.counts(counted) == expected, "round \(round), chunk \(options.chunkSize)")
            let cut = CutBytes(bytes: bytes, sizes: [1 + Int(random.next() % 40), 0, 3, 1 + Int(random.next() % 900)])
            let sequence = try await Lines(.sequence(cut), options: options).countLines()
            #expect(Self.counts(sequence) == expected, "round \(round), sequence")
        }
    }

    @Test("the newline counter at every alignment, and past its per-byte counters' 255 (all newlines)")
    func newlineCounter() {
        var random = SeededRandomNumberGenerator.forTest("LineCountingTests.newlineCounter")
        let dense = [UInt8](repeating: 0x0A, count: 20_000)
        let mixed = (0..<20_000).map { _ in
            random.next() % 3 == 0 ? UInt8(0x0A) : UInt8(truncatingIfNeeded: random.next())
        }
        for bytes in [dense, mixed] {
            bytes.withUnsafeBytes { all in
                for _ in 0..<200 {
                    let start = Int(random.next() % 64)
                    let end = start + Int(random.next() % UInt64(all.count - start))
                    let slice = UnsafeRawBufferPointer(rebasing: all[start..<end])
                    #expect(NewlineCounter.count(slice) == slice.count { $0 == 0x0A }, "\(start)..<\(end)")
                }
                #expect(NewlineCounter.count(all) == all.count { $0 == 0x0A })
            }
        }
        #expect(NewlineCounter.count(UnsafeRawBufferPointer(start: nil, count: 0)) == 0)
    }

    @Test("a line longer than maximumLineLength is counted, not refused; bytes that are not UTF-8 too")
    func noLimits() async throws {
        let file = try TemporaryFile(Array(String(repeating: "x", count: 10_000).utf8) + [0x0A, 0xFF, 0xFE])
        defer { file.remove() }
        let options = LineOptions(chunkSize: 100, maximumLineLength: 10)
        let summary = try await Lines(file.input, options: options).countLines()
        #expect(summary.lines == 2 && summary.terminatedLines == 1 && summary.bytes == 10_003)
    }

    @Test("a missing file throws openFailed; synchronous counting rejects a sequence input")
    func errors() async throws {
        await #expect(throws: StreamError.self) { try await Lines(.file("/nonexistent/switchyard/file")).countLines() }
        let input = ByteInput.sequence(CutBytes(bytes: Array("a\n".utf8), sizes: [1]), name: "upload")
        #expect(throws: StreamError(.requiresAsynchronousReading, input: "upload")) {
            try synchronously { try Lines(input).countLinesBlocking() }
        }
    }

    @Test("a cancelled task stops before the next read, in both forms")
    func cancellation() async throws {
        let file = try TemporaryFile(blocks: 4) { _ in Array(String(repeating: "line\n", count: 2000).utf8) }
        defer { file.remove() }
        let options = LineOptions(chunkSize: 1024)
        let asynchronous = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Lines(file.input, options: options).countLines()
        }
        await #expect(throws: CancellationError.self) { _ = try await asynchronous.value }
        let blocking = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try synchronously { try Lines(file.input, options: options).countLinesBlocking() }
        }
        await #expect(throws: CancellationError.self) { _ = try await blocking.value }
    }
}
