import Foundation
import Testing

@testable import Switchyard

/// One record as the tests compare it: its fields as strings, its quirks, and how many fields the input had.
private struct Read: Equatable, CustomStringConvertible {
    var fields: [String]
    var quirks: CSVQuirks
    var fieldsRead: Int
    var transcoded: [Int] = []

    var description: String { "\(fields) \(quirks) read \(fieldsRead) transcoded \(transcoded)" }
}

/// Reads `bytes` with `options` (synchronously, in chunks of `chunkSize`), returning every record and the header.
private func read(
    _ bytes: [UInt8], _ options: CSVOptions, chunkSize: Int = 1000
) throws -> (records: [Read], header: CSVHeader?) {
    let file = try TemporaryFile(bytes, name: "stops.txt")
    defer { file.remove() }
    var options = options
    options.chunkSize = chunkSize
    var records: [Read] = []
    let summary = try CSVRecords(file.input, options: options).forEachRecordBlocking { record in
        records.append(
            Read(
                fields: record.strings(), quirks: record.quirks, fieldsRead: record.fieldsRead,
                transcoded: record.indices.filter { record[$0].wasTranscoded }))
    }
    return (records, summary.header)
}

private func read(_ text: String, _ options: CSVOptions, chunkSize: Int = 1000) throws -> [Read] {
    try read(Array(text.utf8), options, chunkSize: chunkSize).records
}

/// What the GTFS import reads with: every tolerance on.
private let tolerant = CSVOptions(
    quotesInUnquotedFields: .allow, textAfterClosingQuote: .accept, raggedRecords: .accept,
    encoding: .utf8OrWindows1252)

@Suite("CSVRecords: the quirks mainstream readers tolerate, read on request and reported per record")
struct CSVToleranceTests {
    @Test(
        "spaces after a closing quote are dropped, with a quirk; by default they are text after the quote",
        arguments: [1, 3, 1000])
    func blankAfterClosingQuote(chunkSize: Int) throws {
        // A real agency.txt's only row ended this way and was lost.
        let text = "agency_name,agency_fare_url\nWMATA,\"https://www.wmata.com/fares/\" \n"
        #expect(
            try read(text, tolerant, chunkSize: chunkSize) == [
                Read(fields: ["WMATA", "https://www.wmata.com/fares/"], quirks: .blankAfterClosingQuote, fieldsRead: 2)
            ])
        // Before the delimiter too, tabs as well, and at the very end of the input.
        #expect(
            try read("a,b\n\"x\" \t,\"y\"  ", tolerant, chunkSize: chunkSize) == [
                Read(fields: ["x", "y"], quirks: .blankAfterClosingQuote, fieldsRead: 2)
            ])
        #expect(throws: StreamError.self) { try read(text, CSVOptions(), chunkSize: chunkSize) }
    }

    @Test(
        "text after a closing quote is appended to the field; a multi-line field followed by text stays a stray quote",
        arguments: [1, 4, 1000])
    func textAfterClosingQuote(chunkSize: Int) throws {
        let records = try read("a,b,c\n\"x\"y,\"p\"\"q\" r,3\n", tolerant, chunkSize: chunkSize)
        #expect(records == [Read(fields: ["xy", "p\"q r", "3"], quirks: .textAfterClosingQuote, fieldsRead: 3)])
        var skipping = tolerant
        skipping.malformedRecords = .skip
        skipping.chunkSize = chunkSize
        let file = try TemporaryFile("a,b\n1,\"x\ny\"z\n2,ok\n", name: "f.csv")
        defer { file.remove() }
        var kinds: [StreamError.Kind] = []
        var rows: [[String]] = []
        try CSVRecords(file.input, options: skipping).forEachRecordBlocking(
            onSkipped: { error, _ in kinds.append(error.kind) }, { rows.append($0.strings()) })
        #expect(kinds == [.strayQuote])
        #expect(rows.last == ["2", "ok"])
    }

    @Test(
        "short records are padded with empty fields and long ones delivered whole, each with a quirk",
        arguments: [1, 7, 1000])
    func raggedRecords(chunkSize: Int) throws {
        // The canonical GTFS sample's stop_times.txt leaves trailing optional fields out.
        let text = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,shape_dist_traveled
            AAMV1,8:00:00,8:00:00,BEATTY_AIRPORT,1
            AAMV1,9:00:00,9:00:00,AMV,2,,,,
            AAMV2,10:00:00,10:00:00,AMV,1,,,,,
            AAMV3,11:00:00,11:00:00,AMV,1,,,,,extra

            """
        let records = try read(text, tolerant, chunkSize: chunkSize)
        #expect(records.map(\.fields.count) == [9, 9, 10, 10])
        #expect(records[0].fields == ["AAMV1", "8:00:00", "8:00:00", "BEATTY_AIRPORT", "1", "", "", "", ""])
        #expect(records.map(\.quirks) == [.missingFields, [], .extraFields, .extraFields])
        #expect(records.map(\.fieldsRead) == [5, 9, 10, 10])
        #expect(records[3].fields.last == "extra")
        let error = #expect(throws: StreamError.self) { try read(text, CSVOptions(), chunkSize: chunkSize) }
        #expect(error?.kind == .tooFewFields(expected: 9, found: 5))
    }

    @Test(
        "a field that is not UTF-8 is decoded as Windows-1252 field by field; valid UTF-8 is never reinterpreted",
        arguments: [1, 5, 1000])
    func windows1252Fallback(chunkSize: Int) throws {
        // "Gare de l'Est" in UTF-8 beside "Café" and "€5" in Windows-1252, in one record.
        let bytes =
            Array("id,a,b,c\n1,Gare de l\u{2019}Est,Caf".utf8) + [0xE9] + Array(",".utf8) + [0x80] + Array("5\n".utf8)
        let (records, _) = try read(bytes, tolerant, chunkSize: chunkSize)
        #expect(
            records == [
                Read(
                    fields: ["1", "Gare de l\u{2019}Est", "Café", "€5"], quirks: .transcoded, fieldsRead: 4,
                    transcoded: [2, 3])
            ])
        // UTF-8 only: the record is malformed at its first bad byte.
        let error = #expect(throws: StreamError.self) { try read(bytes, CSVOptions(), chunkSize: chunkSize) }
        #expect(error?.kind == .invalidUTF8 && error?.line == 2 && error?.field == 3)
    }

    @Test("forced Windows-1252 and Latin-1 decode every byte above 0x7F, valid UTF-8 included")
    func forcedEncodings() throws {
        let bytes: [UInt8] = Array("a,b\n".utf8) + [0xC3, 0xA9, 0x2C, 0x80, 0x0A]  // "Ã©" (UTF-8 é) and 0x80
        var options = CSVOptions(encoding: .windows1252)
        #expect(try read(bytes, options).records.first?.fields == ["Ã©", "€"])
        options.encoding = .latin1
        #expect(try read(bytes, options).records.first?.fields == ["Ã©", "\u{80}"])
        options.encoding = .utf8OrWindows1252
        #expect(try read(bytes, options).records.first?.fields == ["é", "€"])
    }

    @Test("a header that is not UTF-8 never stops the reader: repaired with U+FFFD, or decoded as Windows-1252")
    func headerEncoding() throws {
        // "naïve" in Windows-1252.
        let bytes = Array("stop_id,stop_name,na".utf8) + [0xEF, 0x76] + Array("e\nS1,x,y\n".utf8)
        let strict = try read(bytes, CSVOptions())
        #expect(strict.header?.names == ["stop_id", "stop_name", "na\u{FFFD}ve"])
        #expect(strict.header?.quirks == .repairedUTF8)
        #expect(strict.records.map(\.fields) == [["S1", "x", "y"]])
        let decoded = try read(bytes, tolerant)
        #expect(decoded.header?.names == ["stop_id", "stop_name", "naïve"])
        #expect(decoded.header?.quirks == .transcoded)
        #expect(decoded.records.first?.quirks == [])
    }

    @Test("a NUL byte is delivered and flagged")
    func nulBytes() throws {
        let records = try read("a,b\nx\u{0}y,z\nclean,row\n", CSVOptions())
        #expect(records.map(\.quirks) == [.nulBytes, []])
        #expect(records[0].fields[0].utf8.count == 3)
        // Long records too (the word-at-a-time check), wherever the NUL falls.
        for offset in 0..<40 {
            var field = Array(repeating: UInt8(ascii: "x"), count: 40)
            field[offset] = 0
            let text = Array("a\n".utf8) + field + [0x0A]
            #expect(try read(text, CSVOptions()).records.first?.quirks == .nulBytes, "NUL at \(offset)")
        }
    }

    @Test(
        "UTF-16 is refused with a message naming it, for either byte order, read synchronously or not",
        arguments: [[0xFF, 0xFE] as [UInt8], [0xFE, 0xFF]])
    func utf16(mark: [UInt8]) async throws {
        let bytes = mark + Array("a\u{0},\u{0}".utf8)
        let error = #expect(throws: StreamError.self) { try read(bytes, tolerant, chunkSize: 1) }
        let name = mark[0] == 0xFF ? "UTF-16LE" : "UTF-16BE"
        #expect(error?.kind == .unsupportedEncoding(name) && error?.line == 1)
        #expect(error?.reason.contains("iconv -f \(name) -t UTF-8") == true)
        let file = try TemporaryFile(bytes, name: "stops.txt")
        defer { file.remove() }
        await #expect(throws: StreamError.self) { try await CSVRecords(file.input).forEachRecord { _ in } }
        // A single 0xFF that is not a byte order mark is ordinary (Windows-1252 ÿ) text.
        #expect(try read([0xFF, 0x0A, 0x41, 0x0A], tolerant).records.map(\.fields) == [["A"]])
    }

    @Test(
        "line numbers stay right after a skipped record whose doubled quotes and line breaks were read",
        arguments: [1, 1000])
    func linesAfterSkippedRecord(chunkSize: Int) throws {
        var skipping = CSVOptions(malformedRecords: .skip)
        skipping.chunkSize = chunkSize
        // Line 2 holds a quoted `"` and a line break, and has one field too many: skipped.
        let file = try TemporaryFile("a,b\n\"x\"\"\n\",y,z\n1,2\n", name: "f.csv")
        defer { file.remove() }
        var lines: [Int] = []
        try CSVRecords(file.input, options: skipping).forEachRecordBlocking(onSkipped: { _, _ in }) {
            lines.append($0.line)
        }
        #expect(lines == [4])
    }

    @Test("an unclosed quote on the last line is unterminated, also before a final line ending")
    func unterminatedAtTheEnd() throws {
        let error = #expect(throws: StreamError.self) { try read("a,b\n1,2\n3,\"open\n", CSVOptions()) }
        #expect(error?.kind == .unterminatedQuote && error?.line == 3)
    }

    @Test("UTF-16 is refused even when a byte order mark would be kept")
    func utf16WithoutStripping() throws {
        let error = #expect(throws: StreamError.self) {
            try read([0xFF, 0xFE, 0x61, 0x00], CSVOptions(stripsByteOrderMark: false))
        }
        #expect(error?.kind == .unsupportedEncoding("UTF-16LE"))
        // A UTF-8 byte order mark is then data.
        #expect(
            try read([0xEF, 0xBB, 0xBF] + Array("a\nx\n".utf8), CSVOptions(stripsByteOrderMark: false)).header?.names
                == ["\u{FEFF}a"])
    }

}
