import Foundation
import SwitchyardTesting
import Testing

@testable import Switchyard

/// What one read saw: records (as strings, with their lines) and skipped records, in input order.
private enum Event: Equatable {
    case record([String], line: Int)
    case skipped(StreamError.Kind, line: Int?, column: Int?, field: String?)
}

/// Reads `text` synchronously with `forEachRecord(onSkipped:_:)`, logging records and skipped records in order.
private func events(
    _ text: String, _ options: CSVOptions, chunkSize: Int
) throws -> (events: [Event], summary: CSVSummary) {
    let file = try TemporaryFile(Array(text.utf8), name: "stops.txt")
    defer { file.remove() }
    var options = options
    options.chunkSize = chunkSize
    var log: [Event] = []
    let summary = try CSVRecords(file.input, options: options).forEachRecordBlocking(
        onSkipped: { error, _ in
            log.append(.skipped(error.kind, line: error.line, column: error.column, field: error.fieldName))
        },
        { record in log.append(.record(record.strings(), line: record.line)) })
    return (log, summary)
}

private struct TooManyProblems: Error {}

@Suite("CSVRecords: skipped records reach the caller in order; a stray quote costs one line, not the rest")
struct CSVSkippedRecordsTests {
    private let skipping = CSVOptions(malformedRecords: .skip, quotesInUnquotedFields: .allow)

    @Test(
        "a stray opening quote skips its own line only, reported at the quote; the lines it ran into are read",
        arguments: [1, 4, 7, 1000])
    func strayQuote(chunkSize: Int) throws {
        let text = """
            stop_id,stop_name,stop_lat,stop_lon
            S10,"Main St,52.52,13.40
            S11,Oak Ave,52.53,13.41
            S12,"Park",52.54,13.42

            """
        let (log, summary) = try events(text, skipping, chunkSize: chunkSize)
        #expect(
            log == [
                .skipped(.strayQuote, line: 2, column: 5, field: "stop_name"),
                .record(["S11", "Oak Ave", "52.53", "13.41"], line: 3),
                .record(["S12", "Park", "52.54", "13.42"], line: 4),
            ])
        #expect(summary.records == 2 && summary.skippedRecords == 1 && summary.lines == 4)
    }

    @Test("stopping at a stray quote names the quote's line, column and field")
    func strayQuoteStops() throws {
        let file = try TemporaryFile(Array("a,b\n1,\"x\n2,\"y\"z\n".utf8), name: "f.csv")
        defer { file.remove() }
        let error = #expect(throws: StreamError.self) { try CSVRecords(file.input).forEachRecordBlocking { _ in } }
        #expect(error?.kind == .strayQuote && error?.line == 2 && error?.column == 3 && error?.fieldName == "b")
    }

    @Test(
        "a quoted field spanning lines that is merely followed by text is still a stray quote; one that closes cleanly is data"
    )
    func multiLineFields() throws {
        let text = "a,b,c\n1,\"two\nlines\",3\n4,\"x\ny\"z,6\n7,8,9\n"
        let (log, _) = try events(text, skipping, chunkSize: 1000)
        #expect(
            log == [
                .record(["1", "two\nlines", "3"], line: 2),
                .skipped(.strayQuote, line: 4, column: 3, field: "b"),
                .skipped(.tooFewFields(expected: 3, found: 2), line: 5, column: nil, field: nil),  // `y"z,6`
                .record(["7", "8", "9"], line: 6),
            ])
    }

    @Test(
        "skipping: a stray quote with more than the record limit after it is skipped as such, not fatal",
        arguments: [1, 16, 1000])
    func strayQuotePastTheLimit(chunkSize: Int) throws {
        var options = skipping
        options.maximumRecordLength = 64
        let filler = (0..<20).map { "F\($0),filler line without quotes" }  // about 600 bytes, no quote
        let text = (["id,name", "S1,\"stray"] + filler + ["S2,last"]).joined(separator: "\n") + "\n"
        let (log, summary) = try events(text, options, chunkSize: chunkSize)
        #expect(log.first == .skipped(.strayQuote, line: 2, column: 4, field: "name"))
        #expect(log.dropFirst().count == 21)
        #expect(log.last == .record(["S2", "last"], line: 23))
        #expect(summary.skippedRecords == 1 && summary.records == 21)

        // Stopping, the same input gets the same diagnosis, at the same quote.
        let file = try TemporaryFile(Array(text.utf8), name: "f.csv")
        defer { file.remove() }
        var stopping = CSVOptions(quotesInUnquotedFields: .allow)
        stopping.maximumRecordLength = 64
        stopping.chunkSize = chunkSize
        let error = #expect(throws: StreamError.self) {
            try CSVRecords(file.input, options: stopping).forEachRecordBlocking { _ in }
        }
        #expect(error?.kind == .strayQuote && error?.line == 2 && error?.column == 4 && error?.fieldName == "name")
        #expect(error?.resumedAtLine == nil)
    }

    @Test("onSkipped sees every skipped record even when no record follows, with the header; the callback too")
    func onlyMalformed() async throws {
        let text = "a,b\n" + (1...5).map { "\($0),x,extra" }.joined(separator: "\n") + "\n"
        let file = try TemporaryFile(Array(text.utf8), name: "f.csv")
        defer { file.remove() }
        let reported = Log<Int>()
        var options = skipping
        options.reportSkippedRecord = { reported.append($0.line ?? 0) }
        var lines: [Int] = []
        var headers: [[String]] = []
        let readSynchronously = {
            try CSVRecords(file.input, options: options).forEachRecordBlocking(
                onSkipped: { error, header in
                    lines.append(error.line ?? 0)
                    headers.append(header?.names ?? [])
                },
                { _ in Issue.record("no record is well-formed") })
        }
        let summary = try readSynchronously()
        #expect(lines == [2, 3, 4, 5, 6] && reported.all == lines)
        #expect(headers.allSatisfy { $0 == ["a", "b"] })
        #expect(summary.skippedRecords == 5 && summary.records == 0)

        // The asynchronous form, the same.
        var asyncLines: [Int] = []
        _ = try await CSVRecords(file.input, options: skipping).forEachRecord(
            onSkipped: { error, _ in asyncLines.append(error.line ?? 0) }, { _ in })
        #expect(asyncLines == lines)
    }

    @Test("an error thrown by onSkipped stops reading and is rethrown")
    func onSkippedThrows() throws {
        let text = "a,b\n1,2\n3\n4,5\n6\n7\n8,9\n"
        let file = try TemporaryFile(Array(text.utf8), name: "f.csv")
        defer { file.remove() }
        var skipped = 0
        var records: [Int] = []
        #expect(throws: TooManyProblems.self) {
            try CSVRecords(file.input, options: skipping).forEachRecordBlocking(
                onSkipped: { _, _ in
                    skipped += 1
                    if skipped == 2 { throw TooManyProblems() }
                },
                { record in records.append(record.line) })
        }
        #expect(records == [2, 4] && skipped == 2)  // nothing after the second skipped record (line 5)
    }
}
