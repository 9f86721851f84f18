#if Watch
    import Switchyard

    /// The signals delivered to one ``Signals`` iterator and not yet read: at most one element per signal, in the
    /// order the signals first arrived, and at most one waiting `next()`.
    ///
    /// Thread-safe (an `Isolated`, which Thread Sanitizer checks); the waiting continuation is resumed outside the
    /// lock, exactly once.
    final class SignalInbox: Sendable {
        private struct State {
            var pending: [Int32] = []
            var waiter: CheckedContinuation<Int32?, Never>?
            var finished = false
        }

        private let state = Isolated(State(), label: "a Signals iterator's inbox")

        /// Hands `number` to the waiting `next()`, or keeps it (once) for the next call.
        func post(_ number: Int32) {
            let waiter = state.withValueBlocking { state -> CheckedContinuation<Int32?, Never>? in
                guard !state.finished else { return nil }
                if let waiter = state.waiter {
                    state.waiter = nil
                    return waiter
                }
                if !state.pending.contains(number) { state.pending.append(number) }
                return nil
            }
            waiter?.resume(returning: number)
        }

        /// The oldest pending signal, or the next one to arrive; `nil` once the calling task is cancelled.
        func next() async -> Int32? {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Int32?, Never>) in
                    let ready = state.withValueBlocking { state -> Int32?? in
                        if !state.pending.isEmpty { return state.pending.removeFirst() }
                        if state.finished || Task.isCancelled {
                            state.finished = true
                            return .some(nil)
                        }
                        precondition(state.waiter == nil, "Signals: next() called while another next() waits")
                        state.waiter = continuation
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                let waiter = state.withValueBlocking { state -> CheckedContinuation<Int32?, Never>? in
                    state.finished = true
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume(returning: nil)
            }
        }
    }
#endif
