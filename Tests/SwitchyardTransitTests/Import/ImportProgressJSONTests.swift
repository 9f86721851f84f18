import Foundation
import Testing

@_spi(ImportDestinations) @testable import SwitchyardTransit

@Suite("ImportProgress: the JSON line of --progress json")
struct ImportProgressJSONTests {
    /// File names come from the feed's archive, so they may hold quotes, backslashes or control characters; each
    /// line must still be one valid JSON object whose keys are the names as they are.
    @Test("a file name with quotes, a backslash and a newline stays one valid JSON object")
    func escapedNames() throws {
        let name = "we\"ird\\name\n.txt"
        let file = ImportProgress.File(
            name: name, bytesRead: 50, totalBytes: 200, recordsRead: 7, rowsCommitted: 6, skipped: 1, warnings: 2,
            isComplete: false, rowsThisRun: 6, secondsThisRun: 0.5)
        let progress = ImportProgress(phase: .loading, files: [file], seconds: 1.25)
        #expect(!progress.json.contains("\n"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(progress.json.utf8)) as? [String: Any])
        let body = try #require(object["progress"] as? [String: Any])
        #expect(body["phase"] as? String == "loading")
        #expect(body["fraction"] as? Double == 0.25)
        #expect(body["seconds"] as? Double == 1.25)
        let files = try #require(body["files"] as? [String: Any])
        let entry = try #require(files[name] as? [String: Any])
        #expect(entry["bytes"] as? Int == 50)
        #expect(entry["total_bytes"] as? Int == 200)
        #expect(entry["rows"] as? Int == 6)
        #expect(entry["records"] as? Int == 7)
        #expect(entry["skipped"] as? Int == 1)
        #expect(entry["warnings"] as? Int == 2)
        #expect(entry["complete"] as? Bool == false)
    }
}
