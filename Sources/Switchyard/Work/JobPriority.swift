/// How urgent a job is. The work engine enforces it: among jobs ready to start in the same limit domain, a job of
/// higher priority always starts first.
///
/// Linux ignores thread priorities and QoS overrides, so Switchyard does not rely on them: the engine keeps one FIFO
/// bucket of ready jobs per level and always starts from the highest non-empty one. The level is also passed to the
/// `Task` that runs the job (`taskPriority`), which matters on platforms that honour it.
///
/// Both vocabularies work: the levels' own names, and `TaskPriority`'s (``low`` is ``utility``, ``high`` is
/// ``userInitiated``, as for tasks).
///
/// A job's *effective* priority is the maximum of its own and that of everything waiting on it (dependent jobs and
/// tasks awaiting its value); see ``WorkQueue`` for escalation.
public struct JobPriority: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The level, `0` (lowest) to `4` (highest); also the index of the job's ready bucket.
    public let level: Int

    /// The number of distinct levels.
    public static let levelCount = 5

    /// Work the user will not notice being late: prefetching, indexing, clean-up.
    public static let background = JobPriority(level: 0)
    /// Long-running work the user knows about, such as an import with a progress bar.
    public static let utility = JobPriority(level: 1)
    /// The default.
    public static let medium = JobPriority(level: 2)
    /// Work the user asked for and is waiting on.
    public static let userInitiated = JobPriority(level: 3)
    /// Work that must finish before the next frame or response.
    public static let userInteractive = JobPriority(level: 4)

    /// ``utility``, under the name `TaskPriority` gives it (`TaskPriority.low == .utility`).
    public static let low = JobPriority.utility
    /// ``userInitiated``, under the name `TaskPriority` gives it (`TaskPriority.high == .userInitiated`).
    public static let high = JobPriority.userInitiated

    /// All levels, lowest first.
    public static let allLevels: [JobPriority] = (0..<levelCount).map(JobPriority.init(level:))

    init(level: Int) {
        precondition((0..<JobPriority.levelCount).contains(level), "JobPriority: level \(level) out of range")
        self.level = level
    }

    /// The nearest level to a task priority (`TaskPriority.high` and `.userInitiated` are the same value).
    public init(_ taskPriority: TaskPriority) {
        switch taskPriority.rawValue {
        case ..<TaskPriority.utility.rawValue: self = .background
        case ..<TaskPriority.medium.rawValue: self = .utility
        case ..<TaskPriority.high.rawValue: self = .medium
        case TaskPriority.high.rawValue: self = .userInitiated
        default: self = .userInteractive
        }
    }

    /// The task priority the engine gives the `Task` that runs a job at this level.
    public var taskPriority: TaskPriority {
        switch level {
        case 0: .background
        case 1: .utility
        case 2: .medium
        case 3: .high
        default: TaskPriority(rawValue: 33)
        }
    }

    public static func < (lhs: JobPriority, rhs: JobPriority) -> Bool { lhs.level < rhs.level }

    public var description: String {
        ["background", "utility", "medium", "userInitiated", "userInteractive"][level]
    }
}
