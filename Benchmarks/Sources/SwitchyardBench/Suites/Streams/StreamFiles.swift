import Foundation

/// The generated inputs of the `streams` suite, written to a temporary folder that `remove()` deletes.
struct StreamFiles {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchyard-bench-streams-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Text lines of 0…`longest` printable ASCII bytes (uniformly) plus `\n`, `bytes` in all; an 8 MiB block of
    /// deterministic lines repeated. Returns the path and the line count.
    func lines(bytes: Int, longest: Int, name: String) throws -> (path: String, lines: Int) {
        var state: UInt64 = 0x5357_4954_4348_5944
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let blockSize = min(bytes, 8 << 20)
        var block: [UInt8] = []
        block.reserveCapacity(blockSize + 64)
        var linesPerBlock = 0
        while true {
            let length = Int(next() % UInt64(longest + 1))
            if block.count + length + 1 > blockSize { break }
            for _ in 0..<length { block.append(UInt8(0x21 + next() % 94)) }
            block.append(0x0A)
            linesPerBlock += 1
        }
        let path = path(name)
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let blocks = max(1, bytes / blockSize)
        for _ in 0..<blocks { try handle.write(contentsOf: block) }
        try handle.synchronize()  // written back now, not by the kernel's flusher during a measurement
        return (path, blocks * linesPerBlock)
    }

    /// A GTFS `stop_times.txt`-shaped CSV file: a header and `rows` records of 9 fields, some head-signs quoted
    /// (with commas and doubled quotes inside), `\r\n` line endings as many real feeds have.
    func stopTimes(rows: Int, name: String = "stop_times.txt") throws -> String {
        let path = path(name)
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var text =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,shape_dist_traveled\r\n"
        let headsigns = ["", "S+U Alexanderplatz", "\"Berlin, Hauptbahnhof\"", "\"Zoo \"\"Garten\"\"\"", "Pankow"]
        for row in 0..<rows {
            let trip = 100_000 + row / 30
            let sequence = row % 30
            let seconds = 5 * 3600 + (row % 30) * 90 + (row / 30 % 500) * 60
            let time = String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            text += "\(trip)_1,\(time),\(time),\(900_000_000 + (row &* 7919) % 40_000),\(sequence),"
            text += "\(headsigns[row % headsigns.count]),0,0,\(Double(sequence) * 412.5)\r\n"
            if text.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        try handle.write(contentsOf: Data(text.utf8))
        try handle.synchronize()  // written back now, not by the kernel's flusher during a measurement
        return path
    }
}
