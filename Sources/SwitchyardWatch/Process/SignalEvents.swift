#if Watch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Signals sent to this process, as an `AsyncSequence` of their numbers.
    ///
    /// ```swift
    /// for await number in Signals([SIGINT, SIGTERM]) {
    ///     print("stopping (signal \(number))")   // Ctrl-C no longer ends the program while the iterator exists
    ///     break
    /// }
    /// ```
    ///
    /// **Disposition.** While at least one iterator observing a signal exists, the signal is delivered to the
    /// iterators instead of taking its usual action (for `SIGINT`, `SIGTERM` and `SIGHUP`: ending the process).
    /// When the last such iterator is released, the disposition the signal had before the first one was made is put
    /// back (normally `SIG_DFL`). Making an iterator sets this up at once: from then on the signal never takes its
    /// usual action. On Linux, the first time in a process that a signal is observed, libdispatch needs a moment
    /// after the iterator is made (well under a millisecond) before it reports that signal: one arriving in that
    /// moment is ignored (neither delivered nor acted on); and if the last iterator is released within that moment,
    /// the old disposition is back moments later rather than at once. Later iterators of the same signal see every
    /// signal from the moment they are made.
    ///
    /// **Delivery is coalesced.** Every iterator observing a signal gets it. The kernel keeps at most one pending
    /// instance of a signal, and an iterator holds at most one undelivered element per signal, so several arrivals
    /// of a signal before the consumer reads may come out as one element: two Ctrl-Cs in quick succession may be a
    /// single element. Read an element as "this signal came, at least once, since its previous element".
    /// Elements of different signals come out in the order their signals first arrived.
    ///
    /// **Where it runs.** No code of the program runs in a signal handler. Signals are observed by `DispatchSource`
    /// signal sources (kqueue on Darwin, signalfd on Linux) whose handlers run on one private serial dispatch queue
    /// of the process and hand each element to the task waiting in `next()`, which resumes on its own executor.
    ///
    /// **Iteration.** One task at a time calls `next()` on an iterator (a second concurrent call traps). `next()`
    /// returns `nil` once the iterating task is cancelled, and from then on; otherwise the sequence never ends.
    ///
    /// `SIGKILL` and `SIGSTOP` cannot be observed, nor should the signals of faults (`SIGSEGV`, `SIGBUS`, `SIGFPE`,
    /// `SIGILL`): asking for them is a programming error (a precondition).
    public struct Signals: AsyncSequence, Sendable {
        public typealias Element = Int32
        public typealias Failure = Never

        /// The signals observed, in the order given, without duplicates.
        public let signals: [Int32]

        /// A sequence of the given signals' deliveries. Nothing is set up until an iterator is made.
        /// - Precondition: `signals` is not empty and holds no `SIGKILL`, `SIGSTOP` or fault signal.
        public init(_ signals: [Int32]) {
            var unique: [Int32] = []
            for number in signals where !unique.contains(number) {
                precondition(
                    number > 0 && ![SIGKILL, SIGSTOP, SIGSEGV, SIGBUS, SIGFPE, SIGILL].contains(number),
                    "Signals: signal \(number) cannot be observed")
                unique.append(number)
            }
            precondition(!unique.isEmpty, "Signals: no signal given")
            self.signals = unique
        }

        /// Starts observing the signals (see ``Signals``) until the iterator, and every copy of it, is released.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(subscription: SignalSubscription(signals))
        }

        /// Waits for the next signal; see ``Signals``.
        public struct AsyncIterator: AsyncIteratorProtocol {
            public typealias Element = Int32
            public typealias Failure = Never

            let subscription: SignalSubscription

            /// The next signal's number; `nil` once the calling task is cancelled.
            public mutating func next() async -> Int32? {
                await subscription.inbox.next()
            }
        }
    }

    /// One iterator's registration with ``SignalRegistry``: made with the iterator, withdrawn when the last copy of
    /// the iterator is released.
    final class SignalSubscription: Sendable {
        let inbox: SignalInbox
        private let signals: Set<Int32>
        private let id: UInt64

        init(_ signals: [Int32]) {
            let inbox = SignalInbox()
            let numbers = Set(signals)
            self.inbox = inbox
            self.signals = numbers
            id = SignalRegistry.shared.subscribe(inbox, to: numbers)
        }

        deinit {
            SignalRegistry.shared.unsubscribe(id, from: signals)
        }
    }
#endif
