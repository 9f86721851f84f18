import Foundation

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

/// A unique scratch folder, removed by `remove()`.
struct ScratchFolder {
    let path: String

    init(_ name: String = #function) {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        path = NSTemporaryDirectory() + "switchyard-transit-\(safe)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
