/// The mutable state of a ``MemoryPressureMonitor``: its responders, the decided level, and the bookkeeping of the
/// notification rule and of the polling task.
///
/// Not thread-safe by itself: the monitor only touches it inside its `PlatformLock`. No method calls a responder or
/// starts a task; they return what the monitor must do once the lock is released.
struct MemoryPressureMonitorState {
    /// A registered responder, held weakly, and its identity (compared only while the responder is alive, since a
    /// released object's identity can be reused).
    struct Entry {
        weak var responder: (any MemoryPressureResponder)?
        let identity: ObjectIdentifier
    }

    /// Registered responders, in registration order; released ones are pruned when the list is next walked.
    private(set) var entries: [Entry] = []
    /// The last decided level.
    private(set) var level = MemoryPressureLevel.normal
    /// The reading the last decision was made from.
    private(set) var lastReading: MemoryPressureReading?
    /// When responders were last told about a level of `.warning` or above, as time elapsed on the monitor's clock;
    /// `nil` while the level is `.normal`.
    private(set) var lastNotification: Duration?
    /// Whether a polling task is running (or about to).
    private(set) var isPolling = false

    /// Adds `responder` unless it is registered already. Returns whether the caller must start a polling task.
    /// O(responders).
    mutating func register(_ responder: any MemoryPressureResponder) -> Bool {
        let identity = ObjectIdentifier(responder)
        pruneReleased()
        if !entries.contains(where: { $0.identity == identity }) {
            entries.append(Entry(responder: responder, identity: identity))
        }
        guard !isPolling else { return false }
        isPolling = true
        return true
    }

    /// Removes `responder` if registered. O(responders).
    mutating func unregister(_ responder: any MemoryPressureResponder) {
        let identity = ObjectIdentifier(responder)
        pruneReleased()
        entries.removeAll { $0.identity == identity }
    }

    /// The responders still alive, in registration order (released ones are pruned). O(responders).
    mutating func liveResponders() -> [any MemoryPressureResponder] {
        pruneReleased()
        return entries.compactMap(\.responder)
    }

    /// Called by the polling task at each tick: whether it should go on. When no responder is alive, marks polling
    /// as stopped (a later registration starts a new task) and returns false. O(responders).
    mutating func continuePolling() -> Bool {
        pruneReleased()
        if entries.isEmpty { isPolling = false }
        return isPolling
    }

    /// Records a decision and applies the notification rule: returns the level to tell responders about, or `nil`.
    ///
    /// Responders are told when the level rises into `.warning` or `.critical`, and again once `renotifyInterval`
    /// has passed since they were last told while the level stays at `.warning` or above (a fall from `.critical`
    /// to `.warning` is not a rise: it is told at the next renotification). O(1).
    mutating func decide(
        _ newLevel: MemoryPressureLevel, reading: MemoryPressureReading, at now: Duration, renotifyInterval: Duration
    ) -> MemoryPressureLevel? {
        let oldLevel = level
        level = newLevel
        lastReading = reading
        guard newLevel >= .warning else {
            lastNotification = nil
            return nil
        }
        if newLevel > oldLevel || lastNotification.map({ now - $0 >= renotifyInterval }) ?? true {
            lastNotification = now
            return newLevel
        }
        return nil
    }

    private mutating func pruneReleased() {
        entries.removeAll { $0.responder == nil }
    }
}
