#if Watch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import Foundation
    @testable import SwitchyardWatch
    import Testing

    /// `Signals`: a signal raised in this process arrives as an element instead of taking its default action, and the
    /// old disposition is back once the last iterator is released. Each test uses signals of its own (tests run in
    /// parallel in one process). No sleeps: waits are for conditions, with deadlines.
    @Suite("Signals", .timeLimit(.minutes(1)))
    struct SignalsTests {
        @Test("a raised SIGUSR1 is delivered as an element, and SIG_DFL is back after the iterator")
        func delivered() async {
            #expect(Self.handlerAddress(SIGUSR1) == 0)
            #expect(await Self.receiveOne(SIGUSR1) == SIGUSR1)
            #expect(Self.handlerAddress(SIGUSR1) == 0)
        }

        @Test("the disposition stays taken while any iterator of the signal exists, and comes back after the last")
        func restored() async {
            #expect(Self.handlerAddress(SIGUSR2) == 0)
            #expect(Self.handlerAddress(SIGVTALRM) == 0)
            Self.observeNested(SIGUSR2, SIGVTALRM)
            // At once, unless the iterators went away before libdispatch had set their sources up; then once it has
            // taken them down.
            #if SWITCHYARD_TEST_HOOKS
                await SignalRegistry.shared.settled([SIGUSR2, SIGVTALRM])
            #endif
            #expect(Self.handlerAddress(SIGUSR2) == 0)
            #expect(Self.handlerAddress(SIGVTALRM) == 0)
        }

        @Test("next() returns nil once the iterating task is cancelled")
        func cancelled() async {
            let waiting = Task {
                var iterator = Signals([SIGALRM]).makeAsyncIterator()
                return await iterator.next()
            }
            waiting.cancel()
            #expect(await waiting.value == nil)
        }

        /// Observes `number`, raises it until an element comes, stops raising, then releases the iterator (so that no
        /// raise can meet the restored default action, which ends the process).
        private static func receiveOne(_ number: Int32) async -> Int32? {
            var iterator = Signals([number]).makeAsyncIterator()
            // Raised over and over: the first time in a process, libdispatch ignores the signal for a moment after
            // the iterator is made.
            let raiser = Task {
                while !Task.isCancelled {
                    await raiseOnNewThread(number)
                    await Task.yield()
                }
            }
            let received = await iterator.next()
            raiser.cancel()
            await raiser.value
            withExtendedLifetime(iterator) {}
            return received
        }

        /// Two iterators of `number`, the second also of `other`: the disposition is taken while either exists.
        private static func observeNested(_ number: Int32, _ other: Int32) {
            let outer = Signals([number]).makeAsyncIterator()
            do {
                let inner = Signals([number, other]).makeAsyncIterator()
                #expect(handlerAddress(number) != 0)
                #expect(handlerAddress(other) != 0)
                withExtendedLifetime(inner) {}
            }
            #expect(handlerAddress(number) != 0)
            withExtendedLifetime(outer) {}
        }

        /// Raises `number` on a new thread with the signal unblocked (threads started from the cooperative pool
        /// inherit its blocked signals), so that it is delivered before `raise` returns: nothing is left in flight.
        private static func raiseOnNewThread(_ number: Int32) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    var unblocked = sigset_t()
                    sigemptyset(&unblocked)
                    sigaddset(&unblocked, number)
                    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
                    raise(number)
                    continuation.resume()
                }
            }
        }

        /// The signal's handler as `sigaction` reports it: 0 is SIG_DFL, 1 SIG_IGN, anything else a handler.
        static func handlerAddress(_ number: Int32) -> UInt {
            var action = sigaction()
            sigaction(number, nil, &action)
            #if canImport(Darwin)
                return unsafeBitCast(action.__sigaction_u.__sa_handler, to: UInt.self)
            #else
                return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
            #endif
        }
    }
#endif
