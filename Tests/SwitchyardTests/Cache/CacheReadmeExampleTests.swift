import Switchyard
import Testing

/// The README's cache example, kept true.
@Suite("README: the cache example")
struct CacheReadmeExampleTests {
    @Test("the example runs one render and trims the discardable placeholder first")
    func example() async throws {
        let printed = Log<String>()
        let renders = SharedCounter()
        @Sendable func render(_ path: String) async throws -> [UInt8] {
            renders.add()
            return [0x42, 0x42]
        }

        let thumbnails = Cache<String, [UInt8]>(
            name: "thumbnails", costLimit: 64 << 20, cost: { $0.count }, memoryPressure: nil
        ) { removal in printed.append("\(removal.key) left: \(removal.reason)") }

        let views = (0..<10).map { _ in
            Task { try await thumbnails.value(forKey: "stop-42.png") { path in try await render(path) } }
        }
        for view in views { #expect(try await view.value == [0x42, 0x42]) }

        thumbnails.setValue([0, 0, 0], forKey: "loading.png", isDiscardable: true)
        thumbnails.respond(to: .warning)  // what MemoryPressureMonitor does on a warning
        #expect(printed.all == ["loading.png left: pressure"])
        #expect(thumbnails.count == 1 && thumbnails.totalCost == 2)
        #expect(renders.value == 1)  // late callers find the stored value, or a load that finds it
    }
}
