/// Something that gives memory back when a ``MemoryPressureMonitor`` says memory is short, such as a cache.
///
/// A monitor holds its responders weakly: registering does not keep a responder alive, and a responder that is
/// released is dropped from the monitor without being unregistered.
///
/// ## When and where `respond(to:)` is called
/// - Only with `.warning` or `.critical`, never with `.normal`.
/// - When the monitor's level rises, again every `renotifyInterval` while it stays at `.warning` or above, and on
///   every ``MemoryPressureMonitor/simulate(_:)``.
/// - Synchronously, on the monitor's polling task, on the task that called ``MemoryPressureMonitor/check()``, or on
///   the thread that called ``MemoryPressureMonitor/simulate(_:)``; never while the monitor holds its lock, so a
///   responder may call back into the monitor (register, unregister, read ``MemoryPressureMonitor/level``).
/// - Responders of one notification are called one after another, in registration order. Two notifications can run
///   at the same time (say a poll and a `simulate`), so an implementation must be thread-safe.
///
/// Keep `respond(to:)` short and non-blocking: it runs on Swift's cooperative pool. Hand long work (writing to disk)
/// to a `WorkQueue` or a ``BlockingExecutor``.
public protocol MemoryPressureResponder: AnyObject, Sendable {
    /// Gives memory back according to `level` (`.warning` or `.critical`).
    func respond(to level: MemoryPressureLevel)
}
