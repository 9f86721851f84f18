#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// State behind a pthread mutex (ThreadSanitizer sees its ordering; it does not see `Mutex`'s contended path).
///
/// Unchecked-Sendable invariant: `value` is only touched inside `withLock`, between lock and unlock of
/// `mutex`, which is heap-allocated and lives as long as the instance.
final class TestMutex<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

/// A gate tasks wait at until the test opens it. Opening is permanent.
final class AsyncGate: Sendable {
    private let state = TestMutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Counts arrivals; tests wait until a number of arrivals has happened.
final class Arrivals: Sendable {
    private let state = TestMutex<(count: Int, waiters: [(Int, CheckedContinuation<Void, Never>)])>((0, []))

    var count: Int { state.withLock { $0.count } }

    func arrive() {
        let ready = state.withLock { state in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.0 <= count }.map(\.1)
            state.waiters.removeAll { $0.0 <= count }
            return ready
        }
        for waiter in ready { waiter.resume() }
    }

    func wait(for count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// An ordered log that tasks append to.
final class Log<Element: Sendable>: Sendable {
    private let entries = TestMutex<[Element]>([])
    func append(_ element: Element) { entries.withLock { $0.append(element) } }
    var all: [Element] { entries.withLock { $0 } }
}
