import CSV
import Foundation

/// yaslab/CSV.swift: streams rows from an `InputStream`, one `[String]` per row.
enum CSVSwiftAnchor {
    /// Rows after the header, or nil if the file does not open.
    static func count(_ path: String) -> Int? {
        guard let stream = InputStream(fileAtPath: path),
            let reader = try? CSVReader(stream: stream, hasHeaderRow: true)
        else { return nil }
        var rows = 0
        var fields = 0
        while let row = reader.next() {
            rows += 1
            fields &+= row.count
        }
        return rows
    }
}
