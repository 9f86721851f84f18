import Foundation
import Testing

@_spi(ImportDestinations) @testable import SwitchyardTransit

@Suite("JSONLineEncoder: ordered one-line JSON from any Encodable")
struct JSONLineEncoderTests {
    struct Sample: Encodable {
        var name = "Görlitzer \"Bahnhof\"\u{1B}"
        var count = -3
        var ratio = 0.25
        var flags = [true, false]
        var missing: String? = nil
        var nested = [[1, 2], []]
        var empty: [String: Int] = [:]
    }

    /// Synthesized conformances leave a nil optional out (`encodeIfPresent`); `encode(_:forKey:)` of one writes null.
    @Test("members in encoding order, nested arrays and objects, escapes as jsonString")
    func shapes() throws {
        let line = try JSONLineEncoder.encode(Sample())
        #expect(
            line == #"{"name": "Görlitzer \"Bahnhof\"\u001b", "count": -3, "ratio": 0.25, "flags": [true, false], "#
                + #""nested": [[1, 2], []], "empty": {}}"#)
    }

    @Test("a non-finite number is an encoding error naming its path, array indexes included")
    func nonFinite() {
        struct Bad: Encodable { var values = [1.0, .nan] }
        let error = #expect(throws: EncodingError.self) { try JSONLineEncoder.encode(Bad()) }
        guard case .invalidValue(_, let context) = error else { return }
        #expect(context.codingPath.map(\.stringValue) == ["values", "Index 1"])
        #expect(context.codingPath.last?.intValue == 1)
    }

    @Test("a nested value that encodes nothing is {}, as with JSONEncoder; a Float keeps its own digits")
    func edges() throws {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        struct Outer: Encodable {
            var inner = Nothing()
            var ratio: Float = 0.1
        }
        #expect(try JSONLineEncoder.encode(Outer()) == #"{"inner": {}, "ratio": 0.1}"#)
        #expect(throws: EncodingError.self) { try JSONLineEncoder.encode(Nothing()) }
    }

    /// The importer's types encode the same keys and values through Foundation's encoder: only order, spacing,
    /// number digits and escapes are the line encoder's own.
    @Test("JSONEncoder sees the same members and values")
    func sameThroughJSONEncoder() throws {
        let summary = ImportJSONOutputTests.summary
        let ours = try JSONSerialization.jsonObject(with: Data(summary.json.utf8)) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: JSONEncoder().encode(summary)) as? NSDictionary
        #expect(ours != nil)
        #expect(ours == theirs)
        let status = ImportJSONOutputTests.status
        #expect(
            try JSONSerialization.jsonObject(with: Data(status.json.utf8)) as? NSDictionary
                == JSONSerialization.jsonObject(with: JSONEncoder().encode(status)) as? NSDictionary)
    }
}
