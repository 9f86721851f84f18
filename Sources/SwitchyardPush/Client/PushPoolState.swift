#if Push
    import DequeModule

    /// Which connection a notification goes out on: the client's connections to APNs and the senders waiting for a
    /// stream, as a value. Each method changes the state and returns what the caller must do (grant a stream, open
    /// or close a connection, fail a sender); it does no I/O, so every rule is tested without a network.
    ///
    /// - At most `maximumConnections` connections are open or opening; a new one is opened only when a sender waits
    ///   and every usable connection is full.
    /// - A connection takes at most its server's `SETTINGS_MAX_CONCURRENT_STREAMS` streams (1 until the server says
    ///   otherwise: APNs allows one stream on a new connection until a request succeeded). A sender gets the usable
    ///   connection with the most free streams.
    /// - Senders wait in FIFO order when every connection is full: the back-pressure of a batch.
    /// - A connection that received `GOAWAY` takes no new stream and is closed once its streams are done; one that
    ///   closed is replaced at once while senders wait. When no connection is open or opening and opening one failed,
    ///   the waiting senders fail with that error.
    /// - **After a connection fails to open, none opens until the caller ends the backoff** (``backOffEnded()``): the
    ///   failure's actions carry ``Actions/backOff``, the openings failed in a row, and the caller waits a delay that
    ///   grows with it before reporting the end. Senders that arrive meanwhile wait for the next opening. A
    ///   connection that opens resets the count. So a server that refuses every connection (a certificate the client
    ///   does not trust, say) sees openings spaced ever wider apart, not one per notification.
    /// - A connection the pool no longer knows when it reports being open (it closed meanwhile, or the pool was shut
    ///   down) is to be closed: ``opened(_:limit:)`` returns it in ``Actions/close``.
    /// - **After ``shutDown()``, nothing opens**: no sender waits, every later call returns no opening and no
    ///   backoff, and a sender that asks for a stream fails at once.
    ///
    /// Complexity: O(connections) per call (a handful), without allocating beyond the actions returned; waiters are a
    /// FIFO with O(1) cancellation.
    ///
    /// SPI (`@_spi(PushInternals)`) so the tests of the tools, built without testability, can drive it.
    @_spi(PushInternals)
    public struct PushPoolState: Sendable {
        public let maximumConnections: Int
        private var connections: [Int: Connection] = [:]
        private var nextConnection = 1
        private var waiters = Deque<Int>()
        private var cancelled: Set<Int> = []
        private var waiting: Set<Int> = []
        /// Openings that failed since the last one that succeeded.
        private var openFailures = 0
        /// Between a failed opening and ``backOffEnded()``: nothing opens.
        private var isBackingOff = false
        /// Set by ``shutDown()``, for good.
        public private(set) var isShutDown = false

        public init(maximumConnections: Int) {
            precondition(maximumConnections >= 1, "PushPoolState: at least one connection")
            self.maximumConnections = maximumConnections
        }

        public struct Connection: Sendable, Equatable {
            public enum Phase: Sendable, Equatable {
                case opening
                case ready
                /// `GOAWAY` received: finishing its streams.
                case draining
            }
            public var phase: Phase
            public var limit = 1
            public var open = 0
        }

        /// What the caller does next.
        public struct Actions: Sendable, Equatable {
            /// Senders that now have a stream on a connection.
            public var grants: [(sender: Int, connection: Int)] = []
            /// Connections to open (their numbers).
            public var open: [Int] = []
            /// Connections to close: drained, or reported open when the pool no longer knew them.
            public var close: [Int] = []
            /// Senders to fail: no connection could be opened, or the pool is shut down.
            public var fail: [Int] = []
            /// Set when an opening failed: the openings failed in a row. Wait a delay that grows with it, then call
            /// ``PushPoolState/backOffEnded()``.
            public var backOff: Int?

            public init(
                grants: [(sender: Int, connection: Int)] = [], open: [Int] = [], close: [Int] = [], fail: [Int] = [],
                backOff: Int? = nil
            ) {
                self.grants = grants
                self.open = open
                self.close = close
                self.fail = fail
                self.backOff = backOff
            }

            public static func == (left: Actions, right: Actions) -> Bool {
                left.grants.map(\.sender) == right.grants.map(\.sender)
                    && left.grants.map(\.connection) == right.grants.map(\.connection) && left.open == right.open
                    && left.close == right.close && left.fail == right.fail && left.backOff == right.backOff
            }
        }

        /// Sender `sender` wants a stream. After ``shutDown()`` it fails at once (``Actions/fail``).
        public mutating func acquire(_ sender: Int) -> Actions {
            guard !isShutDown else { return Actions(fail: [sender]) }
            waiters.append(sender)
            waiting.insert(sender)
            return grant()
        }

        /// Sender `sender` no longer wants a stream (cancelled while waiting). No effect if it got one already.
        public mutating func cancel(_ sender: Int) {
            if waiting.remove(sender) != nil { cancelled.insert(sender) }
        }

        /// Connection `connection` is open, and its server allows `limit` streams.
        ///
        /// A connection the pool no longer knows (its ``closed(_:failedToOpen:)`` came first, or the pool was shut
        /// down) changes nothing: the actions are to close it (``Actions/close`` holds it, and only it).
        public mutating func opened(_ connection: Int, limit: Int) -> Actions {
            guard connections[connection] != nil else { return Actions(close: [connection]) }
            openFailures = 0
            connections[connection]?.phase = .ready
            connections[connection]?.limit = max(1, limit)
            return grant()
        }

        /// The server of `connection` changed its stream limit.
        public mutating func limitChanged(_ connection: Int, to limit: Int) -> Actions {
            connections[connection]?.limit = max(1, limit)
            return grant()
        }

        /// A stream on `connection` ended.
        public mutating func released(_ connection: Int) -> Actions {
            guard var state = connections[connection] else { return Actions() }
            state.open -= 1
            connections[connection] = state
            if state.phase == .draining, state.open == 0 {
                connections[connection] = nil
                var actions = grant()
                actions.close.append(connection)
                actions.open += openIfNeeded()
                return actions
            }
            return grant()
        }

        /// `connection` received `GOAWAY`: it takes no new streams.
        public mutating func goingAway(_ connection: Int) -> Actions {
            guard var state = connections[connection] else { return Actions() }
            state.phase = .draining
            connections[connection] = state
            var actions = Actions()
            if state.open == 0 {
                connections[connection] = nil
                actions.close.append(connection)
            }
            actions.open = openIfNeeded()
            return actions
        }

        /// `connection` closed, or failed to open with an error the caller holds. Its streams end with it (the
        /// caller retries their notifications). A closed connection is replaced at once if senders wait; a failed
        /// opening begins a backoff (``Actions/backOff``). After ``shutDown()``: nothing.
        public mutating func closed(_ connection: Int, failedToOpen: Bool = false) -> Actions {
            connections[connection] = nil
            guard !isShutDown else { return Actions() }
            guard failedToOpen else { return Actions(open: openIfNeeded()) }
            openFailures += 1
            isBackingOff = true
            var actions = Actions(backOff: openFailures)
            if connections.isEmpty {
                // Nothing open or opening: the waiting senders fail with the error rather than wait for ever.
                while let sender = waiters.popFirst() {
                    if waiting.remove(sender) != nil { actions.fail.append(sender) }
                }
                cancelled.removeAll()
            }
            return actions
        }

        /// The backoff after a failed opening is over: a connection opens again if senders wait.
        public mutating func backOffEnded() -> Actions {
            isBackingOff = false
            return grant()
        }

        /// The client shuts down: the pool forgets its waiting senders (the caller fails them) and its connections
        /// (the caller closes them), and from now on opens nothing and begins no backoff. Later events of those
        /// connections change nothing; one that reports being open is to be closed (``opened(_:limit:)``); a sender
        /// that asks for a stream fails at once. Calling it again does nothing more.
        /// - Complexity: O(senders waiting + connections).
        public mutating func shutDown() {
            isShutDown = true
            isBackingOff = false
            waiters.removeAll()
            waiting.removeAll()
            cancelled.removeAll()
            connections.removeAll()
        }

        /// Streams open on each connection, and its limit (for snapshots and tests).
        public var connectionStates: [Int: Connection] { connections }

        /// How many senders wait for a stream (cancelled ones not counted).
        public var waitingCount: Int { waiting.count }

        /// The ready connection with the most free streams (the lowest number among equals), if any has one.
        /// - Complexity: O(connections), without allocating: it runs under the client's lock once per stream granted.
        private func freest() -> Int? {
            var best: (connection: Int, free: Int)?
            for (number, connection) in connections
            where connection.phase == .ready && connection.open < connection.limit {
                let free = connection.limit - connection.open
                if let current = best, (current.free, -current.connection) >= (free, -number) { continue }
                best = (number, free)
            }
            return best?.connection
        }

        /// Grants free streams to waiting senders, in order.
        private mutating func grant() -> Actions {
            var actions = Actions()
            while let sender = waiters.first {
                if cancelled.remove(sender) != nil {
                    waiters.removeFirst()
                    continue
                }
                guard let connection = freest() else { break }
                waiters.removeFirst()
                waiting.remove(sender)
                connections[connection]?.open += 1
                actions.grants.append((sender, connection))
            }
            actions.open = openIfNeeded()
            return actions
        }

        /// A new connection to open, when senders wait, no usable connection has a free stream, none is opening,
        /// fewer than the maximum exist, no backoff runs, and the pool is not shut down.
        private mutating func openIfNeeded() -> [Int] {
            guard !isShutDown, !waiting.isEmpty, !isBackingOff, connections.count < maximumConnections,
                !connections.values.contains(where: { $0.phase == .opening })
            else {
                return []
            }
            let number = nextConnection
            nextConnection += 1
            connections[number] = Connection(phase: .opening)
            return [number]
        }
    }
#endif
