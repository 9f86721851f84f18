extension Cache {
    /// The value for `key`, loading it with `load` if it is absent or expired.
    ///
    /// - Concurrent callers for the same missing key share one load (the cache's ``Coalescer`` on its load
    ///   queue). The load's priority is the highest of its callers'.
    /// - A caller whose task is cancelled leaves at once with `CancellationError`; the load goes on for the
    ///   others and is cancelled only when the last caller leaves.
    /// - A successful load is stored (with `cost` and `timeToLive`, or the cache's defaults) before any caller
    ///   returns, unless the key was written or removed (or the cache emptied with ``removeAll()``) while it
    ///   ran: that write wins, and the callers still get the loaded value. A load whose callers all left is
    ///   cancelled and stores nothing, even if it returns a value.
    /// - A failed load is not cached: the next call loads again, unless the cache has a `failureTimeToLive`, in
    ///   which case callers get the same error until it runs out. An error thrown after the load was cancelled
    ///   is never cached.
    ///
    /// - Throws: the error `load` threw; `CancellationError` if this caller was cancelled; a ``JobError`` if the
    ///   load could not run (``JobError/wouldDeadlock(_:)``, or a bounded load queue that is full).
    public func value(
        forKey key: Key, priority: JobPriority? = nil, cost: Int? = nil, timeToLive: Duration? = nil,
        orLoad load: @escaping @Sendable (Key) async throws -> Value
    ) async throws -> Value {
        if let value = value(forKey: key) { return value }
        if let failure = cachedFailure(for: key) { throw failure }
        loadCounters.withLock { $0.waits += 1 }
        do {
            return try await loader.value(for: key, priority: priority) { key in
                self.loadCounters.withLock { $0.jobs += 1 }
                if let value = self.peek(key) { return value }  // stored while this caller was joining
                if let failure = self.cachedFailure(for: key) { throw failure }
                let start = self.now()
                let ticket = self.beginLoad(of: key)
                do {
                    let value = try await load(key)
                    self.recordLoad(since: start, failed: false)
                    if Task.isCancelled {  // every caller left: nobody asked for this value any more
                        self.endLoad(ticket, of: key)
                    } else {
                        self.store(
                            value, forKey: key, cost: cost, timeToLive: timeToLive, isDiscardable: false,
                            load: ticket)
                    }
                    return value
                } catch {
                    self.recordLoad(since: start, failed: true)
                    let superseded = !self.endLoad(ticket, of: key)
                    // An error caused by the load's cancellation says nothing about the key.
                    if !(error is CancellationError) && !Task.isCancelled && !superseded {
                        self.rememberFailure(error, for: key)
                    }
                    throw error
                }
            }
        } catch {
            switch error {
            case .failed(let underlying) where !(underlying is SubmissionError): throw underlying
            case .cancelled: throw CancellationError()
            default: throw error
            }
        }
    }

    /// Registers a load of `key` in its stripe (see ``CacheStripe``).
    private func beginLoad(of key: Key) -> CacheLoadTicket {
        let stripe = stripes[key.hashValue & stripeMask]
        stripe.mutex.lock()
        defer { stripe.mutex.unlock() }
        return stripe.beginLoad(of: key)
    }

    /// Ends a load that stores nothing; returns whether it was still current (not superseded).
    @discardableResult
    private func endLoad(_ ticket: CacheLoadTicket, of key: Key) -> Bool {
        let stripe = stripes[key.hashValue & stripeMask]
        stripe.mutex.lock()
        defer { stripe.mutex.unlock() }
        return stripe.endLoad(ticket, of: key)
    }

    private func recordLoad(since start: Int64, failed: Bool) {
        let elapsed = now() - start
        loadCounters.withLock { counters in
            counters.loads += 1
            if failed { counters.failures += 1 }
            counters.nanoseconds += elapsed
        }
    }

    private func cachedFailure(for key: Key) -> (any Error)? {
        guard failureTimeToLive != nil else { return nil }
        let time = now()
        return failures.withLock { $0.error(for: key, at: time) }
    }

    private func rememberFailure(_ error: any Error, for key: Key) {
        guard let failureTimeToLive else { return }
        let expiresAt = Cache.expiry(after: failureTimeToLive, from: now())
        let limit = max(16, min(countLimit ?? 1024, 1 << 20))
        let time = now()
        failures.withLock { $0.insert(error, for: key, expiresAt: expiresAt, limit: limit, now: time) }
    }
}

/// Errors of failed loads kept for the cache's `failureTimeToLive`. Guarded by the cache's `failures` lock.
///
/// Bounded: when `limit` keys are held, expired ones are dropped (O(n), at most once per `limit / 2`
/// insertions), then the oldest go.
struct FailureTable<Key: Hashable & Sendable> {
    private var errors: [Key: (error: any Error, expiresAt: Int64)] = [:]
    private var order: [Key] = []
    private var orderStart = 0

    mutating func error(for key: Key, at time: Int64) -> (any Error)? {
        guard let entry = errors[key] else { return nil }
        if entry.expiresAt > time { return entry.error }
        errors.removeValue(forKey: key)
        return nil
    }

    mutating func insert(_ error: any Error, for key: Key, expiresAt: Int64, limit: Int, now: Int64) {
        if errors.count >= limit || order.count - orderStart >= 2 * limit {
            errors = errors.filter { $0.value.expiresAt > now }
            order = order[orderStart...].filter { errors[$0] != nil }
            orderStart = 0
            while errors.count >= max(1, limit / 2), orderStart < order.count {
                errors.removeValue(forKey: order[orderStart])
                orderStart += 1
            }
        }
        if errors.updateValue((error, expiresAt), forKey: key) == nil { order.append(key) }
    }
}
