import Foundation
import SwiftCSV

/// swiftcsv/SwiftCSV: loads the whole file into a `String` and parses every row into `[[String]]` (it cannot
/// stream).
enum SwiftCSVAnchor {
    /// Rows after the header, or nil if the file does not parse.
    static func count(_ path: String) -> Int? {
        guard let csv = try? EnumeratedCSV(url: URL(fileURLWithPath: path), delimiter: .comma, loadColumns: false)
        else { return nil }
        return csv.rows.count
    }
}
