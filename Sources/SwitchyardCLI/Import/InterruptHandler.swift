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

    init(onInterrupt: @escaping @Sendable () -> Void) {
        signal(SIGPIPE, SIG_IGN)
        let count = count
        sources = Self.signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if count.value.add(1, ordering: .relaxed).newValue == 1 {
                    let name = number == SIGINT ? "interrupted" : number == SIGTERM ? "terminated" : "hung up"
                    FileHandle.standardError.write(Data("""

                        \(name): stopping at the next batch boundary, or the index or check at work \
                        (Ctrl-C again to quit at once)

                        """.utf8))
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
