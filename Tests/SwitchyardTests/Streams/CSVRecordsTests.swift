import Foundation
import SwitchyardTesting
import Synchronization
import Testing

@testable import Switchyard

/// Reads every record of `text` (synchronously, zero-copy) as string arrays, with the summary.
private func records(
    _ text: String, _ options: CSVOptions = CSVOptions(), chunkSize: Int? = nil
) throws -> (records: [[String]], lines: [Int], summary: CSVSummary) {
    try records(Array(text.utf8), options, chunkSize: chunkSize)
}

private func records(
    _ bytes: [UInt8], _ options: CSVOptions = CSVOptions(), chunkSize: Int? = nil
) throws -> (records: [[String]], lines: [Int], summary: CSVSummary) {
    let file = try TemporaryFile(bytes, name: "fixture.csv")
    defer { file.remove() }
    var options = options
    if let chunkSize { options.chunkSize = chunkSize }
    var result: [[String]] = []
    var lines: [Int] = []
    let summary = try CSVRecords(file.input, options: options).forEachRecordBlocking { record in
        result.append(record.strings())
        lines.append(record.line)
    }
    return (result, lines, summary)
}

/// Collects skipped-record errors from the reading task.
private final class ErrorLog: Sendable {
    private let errors = Mutex<[StreamError]>([])
    func append(_ error: StreamError) { errors.withLock { $0.append(error) } }
    var all: [StreamError] { errors.withLock { $0 } }
}

@Suite("CSVRecords: RFC 4180 and real-world quirks, each with a fixture")
struct CSVRecordsTests {
    @Test("quoted fields hold delimiters, doubled quotes and line breaks; line numbers count them")
    func quoting() throws {
        let fixture = "id,name,note\n1,\"Alexanderplatz, Berlin\",\"say \"\"hi\"\"\"\n2,\"two\nlines\",x\n3,\"\",\n"
        for chunkSize in [1, 2, 5, 64 * 1024] {
            let (rows, lines, summary) = try records(fixture, chunkSize: chunkSize)
            #expect(
                rows == [["1", "Alexanderplatz, Berlin", "say \"hi\""], ["2", "two\nlines", "x"], ["3", "", ""]])
            #expect(lines == [2, 3, 5], "chunk \(chunkSize)")
            #expect(summary.records == 3 && summary.lines == 5)
            #expect(summary.header?.names == ["id", "name", "note"])
        }
    }

    @Test("line endings: CRLF, CR CR LF, lone CR, and no newline at the end")
    func lineEndings() throws {
        for (name, fixture) in [
            ("CRLF", "a,b\r\n1,2\r\n3,4\r\n"), ("CRCRLF", "a,b\r\r\n1,2\r\r\n3,4\r\r\n"), ("CR", "a,b\r1,2\r3,4\r"),
            ("no final newline", "a,b\n1,2\n3,4"), ("quoted last field, no newline", "a,b\n1,2\n3,\"4\""),
        ] {
            for chunkSize in [1, 3, 1024] {
                let (rows, lines, _) = try records(fixture, chunkSize: chunkSize)
                #expect(rows == [["1", "2"], ["3", "4"]], "\(name), chunk \(chunkSize)")
                #expect(lines == [2, 3], "\(name), chunk \(chunkSize)")
            }
        }
    }

    @Test("a UTF-8 byte order mark before the header is dropped")
    func byteOrderMark() throws {
        let fixture: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("stop_id,stop_name\n900100003,S+U Alexanderplatz\n".utf8)
        for chunkSize in [1, 2, 4, 100] {
            let (rows, _, summary) = try records(fixture, chunkSize: chunkSize)
            #expect(summary.header?.names == ["stop_id", "stop_name"], "chunk \(chunkSize)")
            #expect(rows == [["900100003", "S+U Alexanderplatz"]])
        }
    }

    @Test("fields are found by header name, zero-copy and as String; the first of duplicate names wins")
    func headerLookup() throws {
        let file = try TemporaryFile("trip_id,stop_id,stop_id\nT1,S1,S2\n")
        defer { file.remove() }
        try CSVRecords(file.input).forEachRecordBlocking { record in
            #expect(record["trip_id"]?.string == "T1")
            #expect(record["stop_id"]?.equals("S1") == true)
            #expect(record["missing"] == nil)
            #expect(record[2].string == "S2")
            #expect(record.header?.index(of: "stop_id") == 1)
        }
    }

    @Test("trimming drops spaces around unquoted fields, quoted fields and header names; off, they are data")
    func trailingSpaces() throws {
        let fixture = " id , name \n 1 ,  \"A, B\"  \n2,x   \n"
        let (rows, _, summary) = try records(fixture, CSVOptions(trimsWhitespace: true))
        #expect(summary.header?.names == ["id", "name"])
        #expect(rows == [["1", "A, B"], ["2", "x"]])
        let untrimmed = try records("id,name\n 1 ,x   \n")
        #expect(untrimmed.records == [[" 1 ", "x   "]])
        #expect(untrimmed.summary.header?.names == ["id", "name"])
        let error = #expect(throws: StreamError.self) { try records("a,b\n1,\"x\"  \n") }
        #expect(error?.kind == .textAfterClosingQuote && error?.line == 2 && error?.column == 6)
        #expect(error?.field == 2 && error?.fieldName == "b")
    }

    @Test("ragged rows stop reading by default, naming line and counts")
    func raggedRowsStop() throws {
        let error = #expect(throws: StreamError.self) { try records("a,b,c\n1,2,3\n4,5\n6,7,8\n") }
        #expect(error?.kind == .tooFewFields(expected: 3, found: 2))
        #expect(error?.line == 3)
        #expect(error?.description.hasSuffix("fixture.csv:3: 2 fields, expected 3") == true)
        let tooMany = #expect(throws: StreamError.self) { try records("a,b\n1,2,3\n") }
        #expect(tooMany?.kind == .tooManyFields(expected: 2, found: 3))
    }

    @Test("ragged and malformed records can be skipped, counted and reported, and reading goes on")
    func raggedRowsSkip() throws {
        let log = ErrorLog()
        let options = CSVOptions(malformedRecords: .skip, reportSkippedRecord: { log.append($0) })
        let fixture = "a,b,c\n1,2,3\n4,5\n6,\"x\"y,8\n9,\"multi\nline\",10,11\n12,13,14\n15,1\"6,17\n18,19,20"
        for chunkSize in [1, 4, 1000] {
            let before = log.all.count
            let (rows, lines, summary) = try records(fixture, options, chunkSize: chunkSize)
            #expect(rows == [["1", "2", "3"], ["12", "13", "14"], ["18", "19", "20"]], "chunk \(chunkSize)")
            #expect(lines == [2, 7, 9], "chunk \(chunkSize)")
            #expect(summary.skippedRecords == 4 && summary.records == 3)
            let errors = Array(log.all[before...])
            #expect(
                errors.map(\.kind) == [
                    .tooFewFields(expected: 3, found: 2), .textAfterClosingQuote,
                    .tooManyFields(expected: 3, found: 4), .quoteInUnquotedField,
                ])
            #expect(errors.map(\.line) == [3, 4, 5, 8])
            #expect(errors[1].column == 6 && errors[1].field == 2 && errors[1].fieldName == "b")
            #expect(errors[3].column == 5 && errors[3].field == 2)
        }
    }

    @Test(
        "a quote that never closes is a stray quote when lines follow it, in either policy; unterminated on the last line"
    )
    func unterminatedQuote() throws {
        let error = #expect(throws: StreamError.self) { try records("a,b\n1,2\n3,\"open\n4,5\n") }
        #expect(error?.kind == .strayQuote)
        #expect(error?.line == 3 && error?.column == 3 && error?.field == 2 && error?.fieldName == "b")
        let log = ErrorLog()
        let skipping = CSVOptions(malformedRecords: .skip, reportSkippedRecord: { log.append($0) })
        let (rows, _, _) = try records("a,b\n1,2\n3,\"open\n4,5\n", skipping)
        #expect(rows == [["1", "2"], ["4", "5"]])
        #expect(log.all.map(\.kind) == [.strayQuote] && log.all.first?.line == 3 && log.all.first?.resumedAtLine == 4)
        #expect(
            log.all.first?.description.hasSuffix(
                "fixture.csv:3:3: field 2 (b): quote not closed on its line (a stray quote?); its line was skipped and reading went on at line 4"
            ) == true)
        let last = #expect(throws: StreamError.self) { try records("a,b\n1,2\n3,\"open") }
        #expect(last?.kind == .unterminatedQuote && last?.line == 3 && last?.column == 3)
    }

    @Test("quotes inside unquoted fields are rejected by default and allowed on request")
    func quotesInUnquotedFields() throws {
        #expect(throws: StreamError.self) { try records("name\n5\" floppy\n") }
        let (rows, _, _) = try records("name\n5\" floppy\n", CSVOptions(quotesInUnquotedFields: .allow))
        #expect(rows == [["5\" floppy"]])
    }

    @Test("invalid UTF-8 is a malformed record with its column; validation can be switched off")
    func invalidUTF8() throws {
        let fixture = Array("a,b\nok,fine\nx,ab".utf8) + [0xFF] + Array("\n".utf8)
        let error = #expect(throws: StreamError.self) { try records(fixture) }
        #expect(error?.kind == .invalidUTF8 && error?.line == 3 && error?.column == 5 && error?.field == 2)
        let (rows, _, _) = try records(fixture, CSVOptions(validatesUTF8: false))
        #expect(rows.count == 2)
        #expect(try records("a\nÄpfel,\n".replacingOccurrences(of: ",", with: "")).records == [["Äpfel"]])
    }

    @Test("blank lines are skipped and counted as lines; without a header the first record sets the width")
    func blankLinesAndNoHeader() throws {
        let (rows, lines, summary) = try records("\n1,2\n\r\n\n3,4\n\n", CSVOptions(hasHeader: false))
        #expect(rows == [["1", "2"], ["3", "4"]])
        #expect(lines == [2, 5])
        #expect(summary.lines == 6)
        #expect(throws: StreamError.self) { try records("1,2\n3\n", CSVOptions(hasHeader: false)) }
    }

    @Test("an empty input with a header expected is an error; a header alone is zero records")
    func emptyInput() throws {
        #expect(throws: StreamError.self) { try records("") }
        let (rows, _, summary) = try records("a,b\n")
        #expect(rows.isEmpty && summary.header?.names == ["a", "b"])
        #expect(try records("", CSVOptions(hasHeader: false)).records.isEmpty)
    }

    @Test("a record longer than the limit stops reading in either policy")
    func recordTooLong() throws {
        let long = String(repeating: "x", count: 300)
        for policy in [CSVOptions.MalformedRecords.stop, .skip] {
            let error = #expect(throws: StreamError.self) {
                try records(
                    "a\n1\n\"\(long)\"\n", CSVOptions(malformedRecords: policy, maximumRecordLength: 200), chunkSize: 16
                )
            }
            #expect(error?.kind == .recordTooLong(limit: 200) && error?.line == 3)
        }
    }

    @Test("other delimiters: tab and semicolon")
    func delimiters() throws {
        #expect(
            try records("a\tb\n1 \t 2\n", CSVOptions(delimiter: 0x09, trimsWhitespace: true)).records == [["1", "2"]])
        #expect(try records("a;b\n\"x;y\";2\n", CSVOptions(delimiter: UInt8(ascii: ";"))).records == [["x;y", "2"]])
    }

    @Test("random records survive writing and reading back at every chunk size (sync, async, sequence)")
    func roundTrip() async throws {
        var random = SeededRandomNumberGenerator.forTest("CSVRecordsTests.roundTrip")
        let pieces = ["a", "Berlin", " ", "", ",", "\"", "\n", "\r\n", "ü", "x,y", "08:15:00"]
        for round in 0..<8 {
            let width = 1 + Int(random.next() % 4)
            let rows = (0..<(1 + Int(random.next() % 6))).map { _ in
                (0..<width).map { _ in
                    (0..<Int(random.next() % 3)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
                }
            }
            let header = (0..<width).map { "h\($0)" }
            let text = ([header] + rows).map { row in
                row.map { field in
                    field.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) })
                        || (width == 1 && field.isEmpty)
                        ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
                }.joined(separator: ",")
            }.joined(separator: random.next() % 2 == 0 ? "\n" : "\r\n")
            let bytes = Array(text.utf8)
            let file = try TemporaryFile(bytes)
            defer { file.remove() }
            for chunkSize in 1...min(bytes.count + 1, 40) {
                let options = CSVOptions(chunkSize: chunkSize)
                var read: [[String]] = []
                do {
                    try synchronously {
                        try CSVRecords(file.input, options: options).forEachRecordBlocking { read.append($0.strings()) }
                    }
                } catch {
                    Issue.record("\(error) reading \(text.debugDescription) at chunk size \(chunkSize)")
                    throw error
                }
                #expect(read == rows, "round \(round), chunk \(chunkSize): \(text.debugDescription)")
                var asyncRead: [[String]] = []
                for try await record in CSVRecords(file.input, options: options) { asyncRead.append(record.fields) }
                #expect(asyncRead == rows, "round \(round), chunk \(chunkSize) (async)")
                var sequenceRead: [[String]] = []
                let cut = CutBytes(bytes: bytes, sizes: [chunkSize, 1, 0])
                try await CSVRecords(.sequence(cut), options: options).forEachRecord {
                    sequenceRead.append($0.strings())
                }
                #expect(sequenceRead == rows, "round \(round), chunk \(chunkSize) (sequence)")
            }
        }
    }

    @Test("owned records keep their header and line; the async sequence stops on cancellation")
    func ownedRecordsAndCancellation() async throws {
        let body = (1...5000).map { "T\($0),S\($0 % 7)" }.joined(separator: "\n")
        let file = try TemporaryFile("trip_id,stop_id\n" + body + "\n")
        defer { file.remove() }
        var first: CSVRecord?
        for try await record in CSVRecords(file.input) {
            first = record
            break
        }
        #expect(first?["stop_id"] == "S1" && first?.line == 2)
        let task = Task {
            var count = 0
            for try await _ in CSVRecords(file.input, options: CSVOptions(chunkSize: 512)) {
                count += 1
                if count == 10 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }

    @Test("memory stays flat on a large input: the buffer never grows past one chunk")
    func flatMemory() async throws {
        let row = Array("T123456,08:15:00,08:16:00,S4711,12,,0,1,4.5\n".utf8)
        let block = Array([[UInt8]](repeating: row, count: (1 << 20) / row.count).joined())
        let file = try TemporaryFile(blocks: 16) { index in
            index == 0
                ? Array("trip_id,arrival_time,departure_time,stop_id,stop_sequence,headsign,pickup,drop,dist\n".utf8)
                    + block : block
        }
        defer { file.remove() }
        let summary = try await CSVRecords(file.input, options: CSVOptions(chunkSize: 64 * 1024)).forEachRecord { _ in }
        #expect(summary.records == 16 * ((1 << 20) / row.count))
        #expect(summary.peakBufferBytes == 64 * 1024)
    }
}
