/// Watches how close the process is to running out of memory and tells registered responders (caches) to give
/// memory back.
///
/// ```swift
/// final class ImageCache: MemoryPressureResponder { func respond(to level: MemoryPressureLevel) { … } }
///
/// let cache = ImageCache()
/// MemoryPressureMonitor.shared.register(cache)     // polling starts now, every second
/// ```
///
/// ## Readings and decisions
/// Every `interval`, the monitor takes a ``MemoryPressureReading`` from its ``MemoryPressureSource`` (on
/// ``BlockingExecutor``, since it reads files) and decides a ``MemoryPressureLevel`` with its
/// ``MemoryPressureThresholds``, comparing event counters with the previous reading.
///
/// ## Polling
/// Polling starts with the first registration: a detached task sleeps `interval` on the monitor's clock, then reads
/// and decides. At each tick it first checks for a live responder; when none is left, the task ends, and the next
/// registration starts another. The task holds the monitor and the responders weakly, so it keeps neither alive:
/// a monitor released while its task sleeps is gone, and the task ends at its next tick.
///
/// ## Notification rule
/// Responders are called with the level when it rises (`.normal` → `.warning`, anything → `.critical`), and again
/// every `renotifyInterval` (measured on the monitor's clock, checked at each reading) while it stays at `.warning`
/// or above. They are never called with `.normal`. ``simulate(_:)`` calls them at once. Calls happen without the
/// monitor's lock held, one responder after another in registration order; see ``MemoryPressureResponder``.
///
/// ## Thread safety and complexity
/// Every member may be used from any thread or task. State sits behind one lock, held only for O(responders)
/// bookkeeping; no file is read, no task created and no responder called under it.
public final class MemoryPressureMonitor: Sendable, CustomStringConvertible {
    /// The process-wide monitor: ``MemoryPressureSource/detect(root:)`` under `/`, a reading every second, responders
    /// told again every 10 seconds, on `ContinuousClock`. Creating it does no I/O. Where there is no `/proc` (Darwin),
    /// its readings hold only diagnostics and its level stays `.normal`: feed the system's own signals to
    /// ``simulate(_:)``.
    public static let shared = MemoryPressureMonitor(source: .detect())

    /// The name shown in ``description``.
    public let name: String
    /// Where readings come from.
    public let source: MemoryPressureSource
    /// The time between two readings of the polling task.
    public let interval: Duration
    /// How often responders are told again while the level stays at `.warning` or above.
    public let renotifyInterval: Duration
    /// The rules that turn a reading into a level.
    public let thresholds: MemoryPressureThresholds

    private let sleep: @Sendable (Duration) async throws -> Void
    /// Time elapsed on the monitor's clock since the monitor was created.
    private let elapsed: @Sendable () -> Duration
    private let state = PlatformLock(MemoryPressureMonitorState())
    /// Test hook: called when a polling task ends because no responder is left.
    private let pollingStopped: (@Sendable () -> Void)?

    /// Creates a monitor. It reads nothing until a responder registers or ``check()`` is called.
    ///
    /// - Parameters:
    ///   - source: where readings come from.
    ///   - interval: the time between readings while polling; must be positive.
    ///   - renotifyInterval: how often responders are told again while the level stays at `.warning` or above;
    ///     must not be negative.
    ///   - clock: the clock the polling task sleeps on and renotifications are measured on (a `ManualClock` in
    ///     tests).
    ///   - thresholds: the rules that turn a reading into a level.
    ///   - name: the name shown in ``description``.
    public convenience init(
        source: MemoryPressureSource,
        interval: Duration = .seconds(1),
        renotifyInterval: Duration = .seconds(10),
        clock: some Clock<Duration> = ContinuousClock(),
        thresholds: MemoryPressureThresholds = .init(),
        name: String = "memory pressure"
    ) {
        self.init(
            source: source, interval: interval, renotifyInterval: renotifyInterval, clock: clock,
            thresholds: thresholds, name: name, pollingStopped: nil)
    }

    /// The designated initializer, with the test hook `pollingStopped`.
    init(
        source: MemoryPressureSource,
        interval: Duration,
        renotifyInterval: Duration,
        clock: some Clock<Duration>,
        thresholds: MemoryPressureThresholds,
        name: String,
        pollingStopped: (@Sendable () -> Void)?
    ) {
        precondition(interval > .zero, "MemoryPressureMonitor \"\(name)\": interval must be positive (\(interval))")
        precondition(
            renotifyInterval >= .zero,
            "MemoryPressureMonitor \"\(name)\": renotifyInterval must not be negative (\(renotifyInterval))")
        self.source = source
        self.interval = interval
        self.renotifyInterval = renotifyInterval
        self.thresholds = thresholds
        self.name = name
        self.pollingStopped = pollingStopped
        self.sleep = { try await clock.sleep(for: $0) }
        let origin = clock.now
        self.elapsed = { origin.duration(to: clock.now) }
    }

    // MARK: Responders

    /// Registers `responder`, held weakly; registering an object that is registered already does nothing. Starts
    /// polling if it is not running. O(responders).
    public func register(_ responder: some MemoryPressureResponder) {
        let startPolling = state.withLock { $0.register(responder) }
        if startPolling { startPollingTask() }
    }

    /// Unregisters `responder`; does nothing if it is not registered. Polling stops at its next tick if no live
    /// responder remains. O(responders).
    public func unregister(_ responder: some MemoryPressureResponder) {
        state.withLock { $0.unregister(responder) }
    }

    // MARK: State

    /// The last decided level (`.normal` before the first reading). ``simulate(_:)`` does not change it. O(1).
    public var level: MemoryPressureLevel {
        state.withLock { $0.level }
    }

    /// The reading the last decision was made from, or `nil` before the first. O(1) (a copy of the reading).
    public var lastReading: MemoryPressureReading? {
        state.withLock { $0.lastReading }
    }

    /// Takes one reading now (on ``BlockingExecutor``), decides the level, tells responders if the notification
    /// rule says so (on the calling task, before returning), and returns the level.
    ///
    /// If the task is cancelled before the reading starts, nothing is read and the current ``level`` is returned.
    public func check() async -> MemoryPressureLevel {
        let source = self.source
        guard let reading = try? await BlockingExecutor.shared.run({ source.read() }) else { return level }
        return apply(reading)
    }

    /// Tells every live responder `level` now, on the calling thread, in registration order. Does nothing for
    /// `.normal`. Does not change ``level`` or the notification schedule: for tests, and for apps that receive
    /// pressure signals of their own. O(responders).
    public func simulate(_ level: MemoryPressureLevel) {
        guard level >= .warning else { return }
        let responders = state.withLock { $0.liveResponders() }
        for responder in responders { responder.respond(to: level) }
    }

    /// The name, source, level, polling state and live responders (their type names), for example
    /// `memory pressure [cgroup v2 /sys/fs/cgroup]: warning, polling every 1.0 seconds, 1 responder (ImageCache)`.
    /// O(responders); takes the lock briefly.
    public var description: String {
        let (level, responders, isPolling) = state.withLock { ($0.level, $0.liveResponders(), $0.isPolling) }
        let names = responders.map { String(describing: type(of: $0)) }.joined(separator: ", ")
        let polling = isPolling ? "polling every \(interval)" : "not polling"
        let count = responders.count == 1 ? "1 responder" : "\(responders.count) responders"
        return "\(name) [\(source)]: \(level), \(polling), \(count)" + (names.isEmpty ? "" : " (\(names))")
    }

    // MARK: Polling

    /// Decides the level for `reading` and notifies responders (outside the lock) if the rule says so.
    private func apply(_ reading: MemoryPressureReading) -> MemoryPressureLevel {
        let now = elapsed()
        let (level, notification, responders) = state.withLock { state in
            let level = thresholds.level(for: reading, previous: state.lastReading)
            let notification = state.decide(level, reading: reading, at: now, renotifyInterval: renotifyInterval)
            return (level, notification, notification == nil ? [] : state.liveResponders())
        }
        if let notification {
            for responder in responders { responder.respond(to: notification) }
        }
        return level
    }

    /// Starts the polling task. It holds the monitor only during a tick, never while it sleeps.
    private func startPollingTask() {
        let sleep = self.sleep
        let interval = self.interval
        Task.detached { [weak self] in
            while true {
                do {
                    try await sleep(interval)
                } catch {
                    return  // cancelled: nobody cancels this task, but a clock may throw
                }
                guard let monitor = self, await monitor.tick() else { return }
            }
        }
    }

    /// One tick of the polling task: returns false (and the task ends) when no live responder is left.
    private func tick() async -> Bool {
        guard state.withLock({ $0.continuePolling() }) else {
            pollingStopped?()
            return false
        }
        _ = await check()
        return true
    }
}
