import Switchyard
import Testing

/// The README's isolation and blocking-work examples, as written there (the observing task returns the first
/// snapshot instead of printing every one; `readWholeFile` is a stand-in).
@Suite("README: the isolation and blocking-work examples")
struct IsolationReadmeExampleTests {
    @Test("isolated values read, written, observed; a reader-writer write; a blocking read off the pool")
    func example() async throws {
        let counts = Isolated([String: Int](), label: "word counts")
        let total = await counts.withValue { $0.values.reduce(0, +) }  // suspends, never blocks
        counts.withValueBlocking { $0["swift", default: 0] += 1 }  // blocks briefly, like Mutex.withLock
        let observer = Task {
            for await snapshot in counts.values() { return snapshot.count }  // latest value after writes
            return -1
        }
        let routes = ReadWriteIsolated([String: String](), label: "routes")
        await routes.write { $0["U2"] = "Pankow" }  // readers share, a writer runs alone

        @Sendable func readWholeFile(_ path: String) throws -> [UInt8] { Array(path.utf8) }
        let path = "stops.txt"
        let bytes = try await BlockingExecutor.shared.run { try readWholeFile(path) }

        #expect(total == 0)
        #expect(await observer.value == 1)
        #expect(counts.withValueBlocking { $0 } == ["swift": 1])
        #expect(await routes.read { $0 } == ["U2": "Pankow"])
        #expect(bytes == Array("stops.txt".utf8))
    }
}
