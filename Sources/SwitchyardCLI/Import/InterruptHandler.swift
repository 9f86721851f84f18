#if CLI
    import Dispatch
    import Foundation
    import Synchronization

    /// Turns Ctrl-C (SIGINT), and SIGTERM and SIGHUP (`timeout`, `systemctl stop`, `docker stop`, a closed terminal),
    /// into cancellation: the first one calls `onInterrupt` (the import then stops at the next batch boundary, or stops
    /// the index or check statement at work, and records where), a second one exits at once with status 128 + the
    /// signal's number (the database is still consistent: only whole batches are ever committed). SIGPIPE is ignored,
    /// so a closed output pipe is a write error, not a silent death mid-batch. Restores the default handling when
    /// released.
    final class InterruptHandler {
        /// The signals that stop an import.
        static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

        private let sources: [any DispatchSourceSignal]
        private let count = InterruptCount()

        /// - Parameters:
        ///   - notice: where the first signal's notice goes (standard error unless live progress bars hold it back).
        ///   - onInterrupt: called once, on the first signal.
        ///   - stopping: what the first signal does, in the notice ("stopping at …").
        init(
            notice: InterruptNotice,
            stopping: String = "stopping at the next batch boundary, or the index or check at work",
            onInterrupt: @escaping @Sendable () -> Void
        ) {
            signal(SIGPIPE, SIG_IGN)
            let count = count
            sources = Self.signals.map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    if count.value.add(1, ordering: .relaxed).newValue == 1 {
                        let name = number == SIGINT ? "interrupted" : number == SIGTERM ? "terminated" : "hung up"
                        notice.post(
                            """
                            \(name): \(stopping) (Ctrl-C again to quit at once)
                            """)
                        onInterrupt()
                    } else {
                        exit(128 + number)
                    }
                }
                source.resume()
                return source
            }
        }

        deinit {
            for source in sources { source.cancel() }
            for number in Self.signals { signal(number, SIG_DFL) }
        }
    }

    /// How many SIGINTs arrived.
    private final class InterruptCount: Sendable {
        let value = Atomic<Int>(0)
    }

    /// What Ctrl-C cancels, once there is something: a Ctrl-C that comes first is remembered and applied when the
    /// action is set (so the handler can be installed before the import exists).
    final class CancellationTarget: Sendable {
        private let state = Mutex<(action: (@Sendable () -> Void)?, requested: Bool)>((nil, false))

        /// Sets what to cancel; runs it at once if a Ctrl-C already came.
        func set(_ action: @escaping @Sendable () -> Void) {
            let requested = state.withLock { state in
                state.action = action
                return state.requested
            }
            if requested { action() }
        }

        /// Cancels whatever is set, now or when it is set.
        func cancel() {
            let action = state.withLock { state in
                state.requested = true
                return state.action
            }
            action?()
        }
    }

    /// Where the notice of the first stop signal is shown. Normally it is written to standard error at once, on a line
    /// of its own. While live progress bars are drawn there, it is held for the bar renderer instead: the renderer
    /// redraws the bars in place by moving the cursor up over them, so a line written under them by another thread
    /// would be drawn over (and the bars drawn one line lower each time). The renderer prints it under the bars at
    /// its next redraw and draws the bars on under it.
    final class InterruptNotice: Sendable {
        private let state = Mutex<(held: Bool, pending: String?)>((false, nil))

        /// Shows `text` now, or keeps it for ``take()`` while held.
        func post(_ text: String) {
            let now = state.withLock { state in
                if state.held { state.pending = text }
                return !state.held
            }
            if now { Self.write(text) }
        }

        /// Holds notices for ``take()`` (`true`), or stops holding them and writes any still held (`false`).
        func hold(_ held: Bool) {
            let pending = state.withLock { state in
                state.held = held
                defer { if !held { state.pending = nil } }
                return held ? nil : state.pending
            }
            if let pending { Self.write(pending) }
        }

        /// The held notice, if one came; it is then the caller's to show.
        func take() -> String? {
            state.withLock { state in
                defer { state.pending = nil }
                return state.pending
            }
        }

        private static func write(_ text: String) {
            FileHandle.standardError.write(Data("\n\(text)\n\n".utf8))
        }
    }
#endif
