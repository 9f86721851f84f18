import SwitchyardTesting
import Testing

@testable import Switchyard

private struct LoadFailed: Error, Equatable { let attempt: Int }

@Suite("Cache: get-or-load with deduplication")
struct CacheLoadingTests {
    @Test("concurrent callers for one missing key share one load; the value is stored")
    func sharedLoad() async throws {
        let cache = Cache<String, Int>(memoryPressure: nil)
        let loads = SharedCounter()
        let gate = AsyncGate()
        let callers = (0..<5).map { _ in
            Task {
                try await cache.value(forKey: "a") { _ in
                    loads.add()
                    await gate.wait()
                    return 42
                }
            }
        }
        while cache.loader.waiterCount(for: "a") < 5 { await Task.yield() }
        gate.open()
        for caller in callers { #expect(try await caller.value == 42) }
        #expect(loads.value == 1)
        #expect(cache.value(forKey: "a") == 42)
        let statistics = cache.statistics
        #expect(statistics.loads == 1 && statistics.loadFailures == 0)
        // One caller's miss started the load; the other four waited for it: not misses of their own. (The
        // `value(forKey:)` above is a hit.)
        #expect(statistics.misses == 1 && statistics.sharedLoadWaits == 4 && statistics.hits == 1)
        #expect(statistics.hitRate == 0.5)
        #expect(try await cache.value(forKey: "a") { _ in 0 } == 42)  // a hit: no load
        #expect(cache.statistics.loads == 1)
    }

    @Test("one caller cancelling leaves the load running for the others")
    func oneCallerCancels() async throws {
        let cache = Cache<Int, Int>(memoryPressure: nil)
        let gate = AsyncGate()
        let load: @Sendable (Int) async throws -> Int = { key in
            await gate.wait()
            return key * 2
        }
        let leaving = Task { try await cache.value(forKey: 7, orLoad: load) }
        let staying = Task { try await cache.value(forKey: 7, orLoad: load) }
        while cache.loader.waiterCount(for: 7) < 2 { await Task.yield() }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        gate.open()
        #expect(try await staying.value == 14)
        #expect(cache.value(forKey: 7) == 14)
    }

    @Test("the load is cancelled when the last caller leaves; nothing is stored")
    func allCallersCancel() async throws {
        let cache = Cache<Int, Int>(memoryPressure: nil)
        let started = Arrivals()
        let cancelled = SharedFlag()
        let load: @Sendable (Int) async throws -> Int = { _ in
            started.arrive()
            do {
                try await Task.sleep(for: .seconds(600))  // until cancelled
            } catch {
                cancelled.set(true)
                throw error
            }
            return 1
        }
        let first = Task { try await cache.value(forKey: 1, orLoad: load) }
        let second = Task { try await cache.value(forKey: 1, orLoad: load) }
        await started.wait(for: 1)
        while cache.loader.waiterCount(for: 1) < 2 { await Task.yield() }
        first.cancel()
        second.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        await #expect(throws: CancellationError.self) { try await second.value }
        await cache.loader.queue.waitUntilIdle()
        #expect(cancelled.value)
        #expect(!cache.contains(1))
    }

    @Test("failures are not cached: the next call loads again and gets the loader's own error")
    func failuresNotCached() async throws {
        let cache = Cache<Int, Int>(memoryPressure: nil)
        let attempts = SharedCounter()
        let load: @Sendable (Int) async throws -> Int = { _ in
            attempts.add()
            throw LoadFailed(attempt: attempts.value)
        }
        await #expect(throws: LoadFailed(attempt: 1)) { try await cache.value(forKey: 1, orLoad: load) }
        await #expect(throws: LoadFailed(attempt: 2)) { try await cache.value(forKey: 1, orLoad: load) }
        #expect(cache.statistics.loadFailures == 2)
    }

    @Test("with a failure time-to-live, callers get the cached error until it runs out")
    func negativeCaching() async throws {
        let clock = ManualClock()
        let cache = Cache<Int, Int>(clock: clock, memoryPressure: nil, failureTimeToLive: .seconds(5))
        let attempts = SharedCounter()
        let load: @Sendable (Int) async throws -> Int = { _ in
            attempts.add()
            if attempts.value == 1 { throw LoadFailed(attempt: 1) }
            return 9
        }
        await #expect(throws: LoadFailed(attempt: 1)) { try await cache.value(forKey: 1, orLoad: load) }
        clock.advance(by: .seconds(4))
        await #expect(throws: LoadFailed(attempt: 1)) { try await cache.value(forKey: 1, orLoad: load) }
        #expect(attempts.value == 1)
        clock.advance(by: .seconds(1))
        #expect(try await cache.value(forKey: 1, orLoad: load) == 9)
        #expect(attempts.value == 2)
    }

    @Test("loaded values take the given cost and time-to-live")
    func loadedCostAndLifetime() async throws {
        let clock = ManualClock()
        let cache = Cache<Int, Int>(costLimit: 100, clock: clock, memoryPressure: nil)
        _ = try await cache.value(forKey: 1, cost: 60, timeToLive: .seconds(3)) { $0 }
        #expect(cache.totalCost == 60)
        clock.advance(by: .seconds(3))
        #expect(cache.value(forKey: 1) == nil)
    }
}
