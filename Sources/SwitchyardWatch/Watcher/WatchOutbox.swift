#if Watch
    import Switchyard

    /// Where the watcher's thread leaves batches for the consumer: at most one batch waits. While it waits, the
    /// watcher keeps merging later changes into its next batch (by net change per path), so a slow consumer costs
    /// memory bounded by the changed paths, and gets them all in its next batch.
    ///
    /// Thread-safety: ``offer(_:)`` and ``finish(throwing:)`` from the watcher's thread, ``next()`` from one
    /// consumer task at a time; the state is an `Isolated` (a lock Thread Sanitizer sees) that guards values only: no user code runs and no
    /// continuation is resumed under it.
    final class WatchOutbox: Sendable {
        private struct State {
            var batch: [FileEvent]?
            var waiter: CheckedContinuation<[FileEvent]?, any Error>?
            var waiterID = 0
            var finished = false
            var failure: (any Error)?

            /// Takes the waiting batch, or the end (nil, or the failure) once finished; nil if neither is there.
            mutating func takeReady() -> Result<[FileEvent]?, any Error>? {
                if let taken = batch {
                    batch = nil
                    return .success(taken)
                }
                if finished { return failure.map { .failure($0) } ?? .success(nil) }
                return nil
            }
        }

        private let state = Isolated(State(), label: "a file watcher's outbox")
        /// Called (outside the lock) after the consumer took a waiting batch: wakes the watcher's thread to offer
        /// what it merged meanwhile.
        private let onTaken: @Sendable () -> Void

        init(onTaken: @escaping @Sendable () -> Void) {
            self.onTaken = onTaken
        }

        /// Whether a batch still waits for the consumer (the watcher then keeps merging instead of offering).
        var isHoldingBatch: Bool { state.withValueBlocking { $0.batch != nil } }

        /// Hands `batch` to the waiting consumer, or keeps it. - Returns: false when a batch already waits (the
        /// caller keeps `batch` and offers it, merged with what follows, later).
        func offer(_ batch: [FileEvent]) -> Bool {
            let action: (CheckedContinuation<[FileEvent]?, any Error>?, Bool) = state.withValueBlocking { state in
                guard state.batch == nil, !state.finished else { return (nil, state.finished) }
                if let waiter = state.waiter {
                    state.waiter = nil
                    return (waiter, true)
                }
                state.batch = batch
                return (nil, true)
            }
            action.0?.resume(returning: batch)
            return action.1
        }

        /// Ends the sequence: the consumer gets the waiting batch, then nil (or `failure`).
        func finish(throwing failure: (any Error)? = nil) {
            let waiter: CheckedContinuation<[FileEvent]?, any Error>? = state.withValueBlocking { state in
                guard !state.finished else { return nil }
                state.finished = true
                state.failure = failure
                guard state.batch == nil else { return nil }
                defer { state.waiter = nil }
                return state.waiter
            }
            if let failure { waiter?.resume(throwing: failure) } else { waiter?.resume(returning: nil) }
        }

        /// The next batch; nil after ``finish(throwing:)`` or when the calling task is cancelled.
        func next() async throws -> [FileEvent]? {
            let id = state.withValueBlocking { state -> Int in
                state.waiterID += 1
                return state.waiterID
            }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let ready: Result<[FileEvent]?, any Error>? = state.withValueBlocking { state in
                        if let ready = state.takeReady() { return ready }
                        if Task.isCancelled { return .success(nil) }
                        precondition(state.waiter == nil, "FileWatcher: two tasks iterate at once")
                        state.waiter = continuation
                        state.waiterID = id
                        return nil
                    }
                    if let ready {
                        continuation.resume(with: ready)
                        if case .success(let batch?) = ready, !batch.isEmpty { onTaken() }
                    }
                }
            } onCancel: {
                let waiter: CheckedContinuation<[FileEvent]?, any Error>? = state.withValueBlocking { state in
                    guard state.waiterID == id, let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    return waiter
                }
                waiter?.resume(returning: nil)
            }
        }
    }
#endif
