import Foundation
import Synchronization

/// Runs an async body from the benchmark's main thread and waits for it.
func blockingRun<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
    let done = DispatchSemaphore(value: 0)
    let slot = Mutex<Result<Value, any Error>?>(nil)
    Task.detached {
        let result = await Result(catching: body)
        slot.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return try slot.withLock { $0! }.get()
}
