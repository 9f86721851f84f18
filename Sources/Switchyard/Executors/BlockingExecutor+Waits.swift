#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: Blocking waits on its own threads

extension BlockingExecutor {
    /// The most threads it runs while some of them wait in blocking calls: twice ``maximumThreads``.
    public var hardThreadLimit: Int { 2 * maximumThreads }

    private static let workerKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "Switchyard: pthread_key_create failed")
        return key
    }()

    /// Records `executor` as the calling worker thread's (unretained: the worker's context retains it).
    static func setCurrentWorker(_ executor: BlockingExecutor) {
        pthread_setspecific(workerKey, Unmanaged.passUnretained(executor).toOpaque())
    }

    /// The executor whose worker thread is calling, or nil on any other thread.
    static var currentWorker: BlockingExecutor? {
        pthread_getspecific(workerKey).map { Unmanaged<BlockingExecutor>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Called by a blocking wait (a channel's `sendBlocking`/`receiveBlocking`, a group's `waitBlocking`) before it
    /// blocks: if the calling thread is one of an executor's, its slot is given up for the duration (a replacement
    /// thread starts for queued work, up to ``hardThreadLimit``), so waiters can never take every thread from the
    /// work they wait for. Returns that executor; pass it to ``reacquireSlot()`` when the wait ends.
    static func releaseSlotForWait() -> BlockingExecutor? {
        guard let executor = currentWorker else { return nil }
        let number: Int? = executor.withLock {
            executor.busy -= 1
            executor.threadsInWaits += 1
            return executor.reserveThread()
        }
        if let number { executor.spawnThread(number: number) }
        return executor
    }

    /// Ends a wait begun with ``releaseSlotForWait()``.
    func reacquireSlot() {
        withLock {
            threadsInWaits -= 1
            busy += 1
        }
    }

    /// Whether work waits that no thread can ever take: every thread, at ``hardThreadLimit``, is in a blocking
    /// wait. A wait that sees this fails instead of waiting for ever.
    var isStarved: Bool {
        withLock { !pending.isEmpty && idle == 0 && busy == 0 && threads >= hardThreadLimit }
    }
}
