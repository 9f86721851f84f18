import Foundation
import Switchyard
import Testing

/// The README's streams example, kept true (paths point at generated files instead of a real log and feed).
@Suite("README: the streams example")
struct StreamsReadmeExampleTests {
    @Test("the example counts errors, prints headings and finds S+U stops, skipping the malformed one")
    func example() async throws {
        let log = try TemporaryFile("INFO start\nERROR disk full\r\nINFO retry\nERROR disk full", name: "app.log")
        let notes = try TemporaryFile("# Lines\ntext\n# CSV\n", name: "notes.txt")
        let feed = try TemporaryFile(
            """
            stop_id,stop_name,stop_lat,stop_lon
            900100003,"S+U Alexanderplatz",52.521508,13.411267
            900100001,"S+U Friedrichstr. Bhf",52.520519
            900003201,"S+U Berlin Hauptbahnhof",52.525592,13.369545

            """, name: "stops.txt")
        defer { [log, notes, feed].forEach { $0.remove() } }
        var printed: [String] = []
        let skipped = Log<String>()

        // Zero-copy: count ERROR lines in a log of any size, in 64 KiB of memory.
        var errors = 0
        try await Lines(.file(log.path)).forEachLine { line in
            if line.starts(with: "ERROR".utf8) { errors += 1 }
        }

        // One String per line, UTF-8 validated.
        for try await line in Lines(.file(notes.path)) where line.hasPrefix("#") { printed.append(line) }

        // CSV: GTFS stops by name; a malformed record is skipped and reported with its line, the rest go on.
        let stops = CSVRecords(
            .file(feed.path),
            options: CSVOptions(
                malformedRecords: .skip, reportSkippedRecord: { skipped.append("skipped: \($0)") }))
        let summary = try await stops.forEachRecord { stop in
            if stop["stop_name"]?.string.hasPrefix("S+U") == true { printed.append(stop["stop_id"]!.string) }
        }

        // The README's one-liners.
        var names: [String] = []
        func print(_ name: String) { names.append(name) }
        errors = 0
        try await Lines(.file(log.path)).forEachLine { line in if line.starts(with: "ERROR".utf8) { errors += 1 } }
        try await CSVRecords(.file(notes.path)).forEachRecord { stop in print(stop["stop_name"]?.string ?? "") }

        #expect(errors == 2)
        #expect(names == ["", ""])
        #expect(printed == ["# Lines", "# CSV", "900100003", "900003201"])
        #expect(skipped.all == ["skipped: \(feed.path):3: 3 fields, expected 4"])
        #expect(summary.records == 2 && summary.skippedRecords == 1 && summary.lines == 4)
    }
}
