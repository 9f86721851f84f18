#if Watch
    import Dispatch
    import Switchyard

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The process-wide table behind ``Signals``: per observed signal, one `DispatchSource` and the inboxes of the
    /// iterators that observe it.
    ///
    /// The first subscriber of a signal records the signal's disposition, sets it to `SIG_IGN` (unless a handler is
    /// installed: see below) and starts a signal source on the registry's serial queue; the last one to leave
    /// cancels the source and puts the recorded disposition back.
    ///
    /// On Linux, libdispatch receives a source's signals through a signalfd, and makes sure they reach it with a
    /// handler of its own, installed with `sigaction` when the first source of that signal is registered (once per
    /// process: it never installs it again). Restoring the old disposition removes that handler, so the registry
    /// keeps it (`forwarders`) and installs it again for the next first subscriber, instead of `SIG_IGN`, which
    /// libdispatch would not replace and which discards the signal before any signalfd sees it. For the same reason
    /// a handler found in place (another source's) is left there. libdispatch registers a source a moment after it
    /// is resumed: when the source is cancelled before that, the handler may be installed after the disposition was
    /// restored, so the source's cancel handler, which runs once libdispatch is done with the source, restores it
    /// again (unless the signal is observed again by then).
    ///
    /// All state is behind one `Isolated`. `sigaction` calls and creating, resuming and cancelling sources happen under
    /// it (system calls that do not wait); inboxes are posted to outside it.
    final class SignalRegistry: Sendable {
        static let shared = SignalRegistry()

        private struct Observed {
            var source: any DispatchSourceSignal
            var inboxes: [UInt64: SignalInbox]
        }

        private struct State {
            var observed: [Int32: Observed] = [:]
            /// The disposition each signal had when it was last first observed.
            var priors: [Int32: sigaction] = [:]
            /// libdispatch's handler of each signal it has handled (Linux), taken off when a disposition was restored.
            var forwarders: [Int32: sigaction] = [:]
            var nextID: UInt64 = 0
            /// Sources cancelled whose cancel handler has not run yet, per signal.
            var cancelling: [Int32: Int] = [:]
            /// Waiters for signals to be neither observed nor being taken down (tests).
            var settleWaiters: [(signals: Set<Int32>, continuation: CheckedContinuation<Void, Never>)] = []

            func isSettled(_ signals: Set<Int32>) -> Bool {
                signals.allSatisfy { observed[$0] == nil && cancelling[$0] == nil }
            }
        }

        private let state = Isolated(State(), label: "signal registry")
        private let queue = DispatchQueue(label: "switchyard-signals")

        /// Adds `inbox` to every signal in `signals`, starting their sources as needed; returns the id to
        /// unsubscribe with.
        func subscribe(_ inbox: SignalInbox, to signals: Set<Int32>) -> UInt64 {
            state.withValueBlocking { state in
                state.nextID += 1
                let id = state.nextID
                for number in signals {
                    if state.observed[number] == nil {
                        let source = startSource(number, state: &state)
                        state.observed[number] = Observed(source: source, inboxes: [:])
                    }
                    state.observed[number]?.inboxes[id] = inbox
                }
                return id
            }
        }

        /// Removes subscriber `id` from `signals`; a signal left without subscribers gets its source cancelled and
        /// its disposition back.
        func unsubscribe(_ id: UInt64, from signals: Set<Int32>) {
            state.withValueBlocking { state in
                for number in signals {
                    state.observed[number]?.inboxes[id] = nil
                    guard state.observed[number]?.inboxes.isEmpty == true,
                        let observed = state.observed.removeValue(forKey: number)
                    else { continue }
                    state.cancelling[number, default: 0] += 1
                    observed.source.cancel()
                    Self.restore(number, state: &state)
                }
            }
        }

        private func startSource(_ number: Int32, state: inout State) -> any DispatchSourceSignal {
            var prior = sigaction()
            sigaction(number, nil, &prior)
            state.priors[number] = prior
            if var forwarder = state.forwarders[number] {
                sigaction(number, &forwarder, nil)
            } else if Self.isDefaultOrIgnored(prior) {
                signal(number, SIG_IGN)
            }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [self] in deliver(number) }
            source.setCancelHandler { [self] in sourceCancelled(number) }
            source.resume()
            return source
        }

        /// A source's event: `number` arrived (once or more).
        private func deliver(_ number: Int32) {
            let inboxes = state.withValueBlocking { state -> [SignalInbox] in
                guard let observed = state.observed[number] else { return [] }
                return Array(observed.inboxes.values)
            }
            for inbox in inboxes { inbox.post(number) }
        }

        /// A source is torn down: restores the disposition again unless the signal is observed anew.
        private func sourceCancelled(_ number: Int32) {
            let settled = state.withValueBlocking { state -> [CheckedContinuation<Void, Never>] in
                let left = (state.cancelling[number] ?? 1) - 1
                state.cancelling[number] = left > 0 ? left : nil
                if state.observed[number] == nil { Self.restore(number, state: &state) }
                let (ready, waiting) = (
                    state.settleWaiters.filter { state.isSettled($0.signals) },
                    state.settleWaiters.filter { !state.isSettled($0.signals) }
                )
                state.settleWaiters = waiting
                return ready.map(\.continuation)
            }
            for continuation in settled { continuation.resume() }
        }

        #if SWITCHYARD_TEST_HOOKS
            /// Tests: returns once none of `signals` is observed and every source of theirs has been taken down (their
            /// dispositions restored for good).
            func settled(_ signals: Set<Int32>) async {
                await withCheckedContinuation { continuation in
                    let ready = state.withValueBlocking { state -> Bool in
                        guard !state.isSettled(signals) else { return true }
                        state.settleWaiters.append((signals, continuation))
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        #endif

        /// Puts back the disposition recorded for `number`, keeping libdispatch's handler if it is installed.
        private static func restore(_ number: Int32, state: inout State) {
            var current = sigaction()
            sigaction(number, nil, &current)
            if !isDefaultOrIgnored(current) { state.forwarders[number] = current }
            if var prior = state.priors[number] {
                sigaction(number, &prior, nil)
            } else {
                signal(number, SIG_DFL)
            }
        }

        /// Whether `action` is `SIG_DFL` (0) or `SIG_IGN` (1) rather than a handler.
        private static func isDefaultOrIgnored(_ action: sigaction) -> Bool {
            #if canImport(Darwin)
                let handler = action.__sigaction_u.__sa_handler
            #elseif canImport(Musl)
                let handler = action.__sa_handler.sa_handler
            #else
                let handler = action.__sigaction_handler.sa_handler
            #endif
            return unsafeBitCast(handler, to: UInt.self) <= 1
        }
    }
#endif
