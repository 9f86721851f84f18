#if Watch
    import Switchyard

    /// The exit of one child process: set once, by the thread that collects it; awaited by any number of tasks, each
    /// with or without a deadline.
    ///
    /// Thread-safe (an `Isolated`, which Thread Sanitizer checks); no continuation is resumed under the lock. A waiter
    /// is resumed exactly once: with the ending, or with `nil` when its deadline passes first.
    final class ChildExit: Sendable {
        private struct State {
            var termination: ChildProcess.Termination?
            var waiters: [UInt64: CheckedContinuation<ChildProcess.Termination?, Never>] = [:]
            var nextWaiter: UInt64 = 0
        }

        private enum Registration {
            case ended(ChildProcess.Termination)
            case waiting(UInt64)
        }

        private let state = Isolated(State(), label: "a child's exit")

        /// The ending, once it is known.
        var termination: ChildProcess.Termination? { state.withValueBlocking { $0.termination } }

        /// Records the ending and resumes every waiter with it. Called once.
        func finish(_ termination: ChildProcess.Termination) {
            let waiters = state.withValueBlocking { state in
                precondition(state.termination == nil, "ChildExit: a child's exit was collected twice")
                state.termination = termination
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(returning: termination) }
        }

        /// The ending, once known; `nil` if `deadline` (on the continuous clock) passes first. No deadline: waits
        /// for the ending. A timer task lives only while a wait with a deadline is pending.
        func wait(until deadline: ContinuousClock.Instant?) async -> ChildProcess.Termination? {
            var timer: Task<Void, Never>?
            let ending = await withCheckedContinuation {
                (continuation: CheckedContinuation<ChildProcess.Termination?, Never>) in
                let registration = state.withValueBlocking { state -> Registration in
                    if let termination = state.termination { return .ended(termination) }
                    state.nextWaiter += 1
                    state.waiters[state.nextWaiter] = continuation
                    return .waiting(state.nextWaiter)
                }
                switch registration {
                case .ended(let termination):
                    continuation.resume(returning: termination)
                case .waiting(let id):
                    guard let deadline else { return }
                    timer = Task { [self] in
                        do {
                            try await Task.sleep(until: deadline, clock: .continuous)
                        } catch {
                            return  // cancelled: the ending came first
                        }
                        expire(id)
                    }
                }
            }
            timer?.cancel()
            return ending
        }

        /// Resumes waiter `id` with `nil`, unless the ending already resumed it.
        private func expire(_ id: UInt64) {
            let waiter = state.withValueBlocking { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }
#endif
