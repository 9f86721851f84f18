import SwitchyardTesting
import Testing

@testable import Switchyard

private struct LoadFailed: Error, Equatable { let attempt: Int }

/// A load that starts, then waits at a gate the test opens, returning `value`.
private func gatedLoad(_ value: Int, started: Arrivals, gate: AsyncGate) -> @Sendable (Int) async throws -> Int {
    { _ in
        started.arrive()
        await gate.wait()
        return value
    }
}

/// A load that starts, then waits at a gate the test opens, and fails.
private func gatedFailure(started: Arrivals, gate: AsyncGate) -> @Sendable (Int) async throws -> Int {
    { _ in
        started.arrive()
        await gate.wait()
        throw LoadFailed(attempt: 1)
    }
}

@Suite("Cache: writes that race with a load")
struct CacheLoadRaceTests {
    @Test("a key removed while its load runs is not stored again; the caller still gets the loaded value")
    func removedDuringLoad() async throws {
        let cache = Cache<Int, Int>(memoryPressure: nil)
        let (started, gate) = (Arrivals(), AsyncGate())
        let caller = Task { try await cache.value(forKey: 1, orLoad: gatedLoad(10, started: started, gate: gate)) }
        await started.wait(for: 1)
        cache.removeValue(forKey: 1)  // e.g. the data behind the key changed
        gate.open()
        #expect(try await caller.value == 10)
        #expect(!cache.contains(1))
        #expect(cache.statistics.loads == 1)
    }

    @Test("a value set while the load runs wins over the loaded one, and nothing is reported replaced")
    func setDuringLoad() async throws {
        let removals = Log<CacheRemoval<Int, Int>>()
        let cache = Cache<Int, Int>(memoryPressure: nil) { removals.append($0) }
        let (started, gate) = (Arrivals(), AsyncGate())
        let caller = Task { try await cache.value(forKey: 1, orLoad: gatedLoad(10, started: started, gate: gate)) }
        await started.wait(for: 1)
        cache.setValue(99, forKey: 1)
        gate.open()
        #expect(try await caller.value == 10)
        #expect(cache.value(forKey: 1) == 99)
        #expect(removals.all.isEmpty)
    }

    @Test("removeAll while loads run: none of them stores its value")
    func removeAllDuringLoads() async throws {
        let cache = Cache<Int, Int>(memoryPressure: nil, loadQueue: WorkQueue(name: "loads", width: 4))
        let (started, gate) = (Arrivals(), AsyncGate())
        let callers = (0..<4).map { key in
            Task { try await cache.value(forKey: key, orLoad: gatedLoad(key * 10, started: started, gate: gate)) }
        }
        await started.wait(for: 4)
        cache.removeAll()
        gate.open()
        for (key, caller) in callers.enumerated() { #expect(try await caller.value == key * 10) }
        #expect(cache.count == 0)
    }

    @Test("a load that ignores cancellation stores nothing once its callers left, not even over a newer load")
    func abandonedLoadStoresNothing() async throws {
        // Two loads run at once (the abandoned one holds a slot), whatever the processor count.
        let cache = Cache<Int, Int>(memoryPressure: nil, loadQueue: WorkQueue(name: "loads", width: 2))
        let (firstStarted, firstGate) = (Arrivals(), AsyncGate())
        let first = Task {
            try await cache.value(forKey: 1, orLoad: gatedLoad(1, started: firstStarted, gate: firstGate))
        }
        await firstStarted.wait(for: 1)
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        // The first load still runs (it ignores cancellation); a new caller starts a second one.
        let (secondStarted, secondGate) = (Arrivals(), AsyncGate())
        let second = Task {
            try await cache.value(forKey: 1, orLoad: gatedLoad(2, started: secondStarted, gate: secondGate))
        }
        await secondStarted.wait(for: 1)
        secondGate.open()
        #expect(try await second.value == 2)
        firstGate.open()  // the older value comes back last
        await cache.loader.queue.waitUntilIdle()
        #expect(cache.value(forKey: 1) == 2)
    }

    @Test("an error thrown after the load was cancelled is not cached as the key's failure")
    func cancelledFailureNotCached() async throws {
        let cache = Cache<Int, Int>(memoryPressure: nil, failureTimeToLive: .seconds(600))
        let (started, gate) = (Arrivals(), AsyncGate())
        // The error stands for a client library's own "cancelled" error.
        let caller = Task { try await cache.value(forKey: 1, orLoad: gatedFailure(started: started, gate: gate)) }
        await started.wait(for: 1)
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        gate.open()
        await cache.loader.queue.waitUntilIdle()
        #expect(try await cache.value(forKey: 1) { _ in 5 } == 5)
    }

    @Test("a failed load superseded by a removal is not cached")
    func supersededFailureNotCached() async throws {
        let cache = Cache<Int, Int>(memoryPressure: nil, failureTimeToLive: .seconds(600))
        let (started, gate) = (Arrivals(), AsyncGate())
        let caller = Task { try await cache.value(forKey: 1, orLoad: gatedFailure(started: started, gate: gate)) }
        await started.wait(for: 1)
        cache.removeValue(forKey: 1)
        gate.open()
        await #expect(throws: LoadFailed(attempt: 1)) { try await caller.value }
        #expect(try await cache.value(forKey: 1) { _ in 5 } == 5)
    }

    @Test("randomized: loads, sets and removals of a few keys never leave a value older than the last write")
    func randomizedNoStaleStore() async throws {
        var random = SeededRandomNumberGenerator.forTest("CacheLoadRaceTests.randomizedNoStaleStore")
        let seed = random.seed
        let cache = Cache<Int, Int>(countLimit: 64, memoryPressure: nil)
        // Every value written or loaded is a fresh, increasing version; a write removes or sets the newest.
        let versions = TestCounter()
        for _ in 0..<200 {
            let key = Int(random.next() % 4)
            let gate = AsyncGate()
            let started = Arrivals()
            let version = versions.next()
            let caller = Task {
                try await cache.value(forKey: key, orLoad: gatedLoad(version, started: started, gate: gate))
            }
            let loaded = cache.contains(key)
            if !loaded { await started.wait(for: 1) }
            let action = random.next() % 3
            var written: Int?
            switch action {
            case 0: cache.removeValue(forKey: key)
            case 1:
                written = versions.next()
                cache.setValue(written!, forKey: key)
            default: break
            }
            gate.open()
            _ = try await caller.value
            await cache.loader.queue.waitUntilIdle()
            let stored = cache.value(forKey: key)
            if loaded { continue }  // a hit: no load ran
            switch action {
            case 0: #expect(stored == nil, "seed \(seed): removed key \(key) was stored again")
            case 1: #expect(stored == written, "seed \(seed): the write to \(key) was overwritten by its load")
            default: #expect(stored == version, "seed \(seed): the load of \(key) was not stored")
            }
        }
    }
}

/// A counter handing out increasing numbers.
private final class TestCounter: Sendable {
    private let value = TestMutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
