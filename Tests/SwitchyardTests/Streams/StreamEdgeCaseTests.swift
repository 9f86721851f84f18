import Foundation
import SwitchyardTesting
import Testing

@testable import Switchyard

/// Limits that hold however reads split the input, resynchronisation in every line-ending style, and inputs that
/// must not be kept waiting.
@Suite("Streams: edge cases")
struct StreamEdgeCaseTests {
    private func csv(_ text: String, _ options: CSVOptions) async throws -> (
        rows: [[String]], lines: [Int], summary: CSVSummary
    ) {
        var rows: [[String]] = []
        var lines: [Int] = []
        let cut = CutBytes(bytes: Array(text.utf8), sizes: [options.chunkSize])
        let summary = try await CSVRecords(.sequence(cut, name: "edge.csv"), options: options).forEachRecord {
            rows.append($0.strings())
            lines.append($0.line)
        }
        return (rows, lines, summary)
    }

    @Test("the record limit holds whatever the chunk size; a record at the limit passes with any line ending")
    func recordLimitIndependentOfChunks() async throws {
        let long = "a\n" + String(repeating: "x", count: 50) + "\n"
        for chunkSize in [1, 7, 16, 64 * 1024] {
            await #expect(throws: StreamError(.recordTooLong(limit: 10), input: "edge.csv", line: 2)) {
                _ = try await csv(long, CSVOptions(maximumRecordLength: 10, chunkSize: chunkSize))
            }
            for ending in ["\n", "\r\n", "\r\r\n", "\r"] {
                let atLimit = try await csv(
                    "h\n12345\(ending)6\(ending)", CSVOptions(maximumRecordLength: 5, chunkSize: chunkSize))
                #expect(atLimit.rows == [["12345"], ["6"]], "chunk \(chunkSize), ending \(ending.debugDescription)")
            }
        }
    }

    @Test("skipping resynchronises at lone CR line endings too")
    func skipWithLoneCarriageReturns() async throws {
        for chunkSize in [1, 3, 4096] {
            let (rows, lines, summary) = try await csv(
                "a,b\r1,\"x\"y\r3,4\r5,6\r", CSVOptions(malformedRecords: .skip, chunkSize: chunkSize))
            #expect(rows == [["3", "4"], ["5", "6"]], "chunk \(chunkSize)")
            #expect(lines == [3, 4])
            #expect(summary.skippedRecords == 1 && summary.lines == 4)
        }
    }

    @Test("with the stop policy the first malformation is reported at once, not the length of its line")
    func stopReportsTheRealError() async throws {
        let text = "a\n1\"" + String(repeating: "x", count: 300) + "\n"
        let error = await #expect(throws: StreamError.self) {
            _ = try await csv(text, CSVOptions(maximumRecordLength: 200, chunkSize: 16))
        }
        #expect(error?.kind == .quoteInUnquotedField && error?.line == 2 && error?.column == 2)
    }

    @Test("line endings are counted one at a time: CR CR is two lines, CR CR LF is one")
    func carriageReturnRuns() async throws {
        let (rows, lines, summary) = try await csv("a,b\r\r1,2\r\r\n3,4\r", CSVOptions(chunkSize: 2))
        #expect(rows == [["1", "2"], ["3", "4"]])
        #expect(lines == [3, 4])
        #expect(summary.lines == 4)
    }

    @Test("a space delimiter survives trimming")
    func spaceDelimiter() async throws {
        let (rows, _, _) = try await csv("a  b\n", CSVOptions(delimiter: 0x20, hasHeader: false, trimsWhitespace: true))
        #expect(rows == [["a", "", "b"]])
    }

    @Test("a final line without a newline is held to the line limit, a trailing CR included")
    func finalLineLimit() async throws {
        let file = try TemporaryFile("12345\n12345\r")
        defer { file.remove() }
        await #expect(throws: StreamError(.lineTooLong(limit: 5), input: file.path, line: 2)) {
            for try await _ in Lines(file.input, options: LineOptions(maximumLineLength: 5)) {}
        }
    }

    @Test("an interactive input is not kept waiting for a possible byte order mark", .timeLimit(.minutes(1)))
    func interactiveInputAndByteOrderMark() async throws {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.yield(Array("y\n".utf8))  // the peer then waits for an answer before sending more
        var first: String?
        for try await line in Lines(.sequence(stream)) {
            first = line
            continuation.finish()
        }
        #expect(first == "y")
        let (records, recordsContinuation) = AsyncStream<[UInt8]>.makeStream()
        recordsContinuation.yield(Array("h\n1\n".utf8))
        for try await record in CSVRecords(.sequence(records)) {
            #expect(record.fields == ["1"])
            recordsContinuation.finish()
        }
    }

    @Test("a long record read one byte at a time is rescanned a bounded number of times")
    func longRecordSmallReads() async throws {
        let field = String(repeating: "q", count: 20_000)
        let text = "h\n\"\(field)\"\n"
        var count = 0
        let cut = CutBytes(bytes: Array(text.utf8), sizes: [1])
        try await CSVRecords(.sequence(cut)).forEachRecord { record in
            #expect(record[0].bytes.count == 20_000)
            count += 1
        }
        #expect(count == 1)
    }

    @Test("a descriptor handed over with closeWhenDone is closed even if iteration never reads")
    func descriptorClosedWhenAbandoned() throws {
        let file = try TemporaryFile("a\n")
        defer { file.remove() }
        let descriptor = open(file.path, O_RDONLY)
        #expect(descriptor >= 0)
        do {
            let iterator = Lines(.fileDescriptor(descriptor, closeWhenDone: true)).makeAsyncIterator()
            _ = iterator
        }
        // Other tests may reuse the number at once: check that it no longer names this file.
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
        #expect(target != file.path, "closed")
    }
}
