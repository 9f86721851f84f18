import Switchyard
import Testing

/// The README's isolation and blocking-work examples, as written there (the observing loop stops after the first
/// snapshot instead of running forever; `readWholeFile` is a stand-in).
@Suite("README: the isolation and blocking-work examples")
struct IsolationReadmeExampleTests {
    @Test("isolated values read, written, observed; a reader-writer write; a blocking read off the pool")
    func example() async throws {
        var printed: [Int] = []

        let counts = Isolated([String: Int](), label: "word counts")
        let total = await counts.withValue { $0.values.reduce(0, +) }  // suspends, never blocks
        counts.withValueBlocking { $0["swift", default: 0] += 1 }  // blocks briefly, like Mutex.withLock
        for await snapshot in counts.values() {  // observe every write
            printed.append(snapshot.count)
            break
        }
        let routes = ReadWriteIsolated([String: String](), label: "routes")
        await routes.write { $0["U2"] = "Pankow" }  // readers share, a writer runs alone

        @Sendable func readWholeFile(_ path: String) throws -> [UInt8] { Array(path.utf8) }
        let path = "stops.txt"
        let bytes = try await BlockingExecutor.shared.run { try readWholeFile(path) }

        #expect(total == 0)
        #expect(printed == [1])
        #expect(counts.withValueBlocking { $0 } == ["swift": 1])
        #expect(await routes.read { $0 } == ["U2": "Pankow"])
        #expect(bytes == Array("stops.txt".utf8))
    }
}
