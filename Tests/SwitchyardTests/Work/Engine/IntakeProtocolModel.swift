/// A pure value-type model of the engine's lock-free intake protocol (`Intake.swift`, `EngineRegion.swift`, the
/// `perform` functions of `Transaction.swift`), stepped without threads and explored exhaustively by
/// `IntakeProtocolModelTests`. It imports nothing from the module: it checks the protocol, not the code, so each
/// procedure below mirrors its source step by step (`pc` numbers the points of a procedure).
///
/// Sequential consistency (the real code orders these steps with seq_cst fences). One step is one atomic operation
/// (a push, a successor store or load, an intake exchange or emptiness check, a lock's `tryLock`, `lock` or
/// `unlock`) and what its thread then does without atomics (calls, branches, admissions under a lock it holds).
/// Two regions: A, which the mergers absorb into B (B has the smaller identifier: it survives, it is locked first).
///
/// Properties 2 to 5 (see ``Property``) are checked on each step, into ``problems``; 1 and 2 at a state where no
/// thread can step (``endViolation``).
struct IntakeProtocolModel: Hashable, Sendable {
    enum Region: Hashable, Sendable, CustomStringConvertible {
        case a, b
        var description: String { self == .a ? "A" : "B" }
    }

    struct PerRegion<Value: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
        var a, b: Value
        subscript(region: Region) -> Value {
            get { region == .a ? a : b }
            set { if region == .a { a = newValue } else { b = newValue } }
        }
        var description: String { "A: \(a), B: \(b)" }
    }

    /// A deliberate break of the protocol, to show the checks catch it.
    enum Mutation: Hashable, Sendable {
        case none
        /// `submitPlain` skips `if region.isMerged { return forward(region) }` after pushing.
        case skipSuccessorCheck
        /// `merge(into:)` does not take the absorbed intake into the leftovers.
        case keepAbsorbedIntake
    }

    enum Property: String, Hashable, Sendable, CaseIterable {
        case noDeadlock = "1. no deadlock: some thread can step, or all are done"
        case exactlyOnce = "2. every job admitted exactly once; at the end both intakes empty, both locks free"
        case admissionUnderHold = "3. admission only under the admitting thread's hold of a region not merged"
        case submissionOrder = "4. a submitter's jobs admitted in submission order"
        case visibility = "5. a hold sees the jobs whose submission returned before it took its lock"
    }

    enum Role: Hashable, Sendable, CustomStringConvertible {
        /// Submits `jobs` plain jobs (at most ``maximumJobs``), in order, to a queue of the region.
        case submitter(Region, index: Int, jobs: Int = maximumJobs)
        /// `Engine.perform(in:)`: lockCurrent, admitIntake, (body), finishHold.
        case holder(Region)
        /// A worker parking (`Worker.park`): locks the region's own lock bare, merged or not, then `Engine.unlock`.
        case parker(Region)
        /// `perform(uniting: [A, B])`: lockUnited(A, B), then perform(locked:leftovers:). (perform(uniting:)'s own
        /// check whether they are one region already is the same as lockUnited's first.)
        case merger
        /// `Task.detached { admitPushedWhileHeld(region) }`.
        case task(Region)

        var description: String {
            switch self {
            case .submitter(let region, let index, _): "submitter\(index)@\(region)"
            case .holder(let region): "holder@\(region)"
            case .parker(let region): "parker@\(region)"
            case .merger: "merger"
            case .task(let region): "task@\(region)"
            }
        }
    }

    enum Procedure: Hashable, Sendable {
        case submitter, submitPlain, tryLock, forward, lockCurrent, admitIntake, finishHold, admitPushedWhileHeld
        case engineUnlock, perform, park, merger
    }

    /// A call frame: `pc` is the next point of `procedure`.
    struct Frame: Hashable, Sendable {
        var procedure: Procedure
        var region: Region
        var pc = 0
        /// The region this frame resolved or locked.
        var locked: Region = .a
        /// submitter: how many of its jobs returned; submitPlain: its job; admitPushedWhileHeld: the passes made.
        var count = 0
    }

    /// A thread: its role and its call stack (empty once done).
    struct Agent: Hashable, Sendable {
        var role: Role
        var stack: [Frame]
        /// The return register (tryLock's and lockCurrent's result), read by the caller's next point only.
        var result: Region?
        /// The jobs this thread's hold must see admitted after its `admitIntake` (property 5).
        var mustSee: UInt32 = 0
        /// A merger's `UnionLeftovers.jobs`: taken from A's intake, admitted first in its hold of B.
        var leftovers: [Int] = []
    }

    /// The most jobs a submitter submits. Submitter `i`'s jobs are `maximumJobs * i` on.
    static let maximumJobs = 2

    let mutation: Mutation
    let maximumPasses: Int
    /// Each region's lock owner (a thread's index), nil when free.
    var owners = PerRegion<Int?>(a: nil, b: nil)
    /// Each region's intake, in push order (a stack taken whole and reversed is admitted in push order).
    var intakes = PerRegion<[Int]>(a: [], b: [])
    /// Whether A's successor is set (to B).
    var merged = false
    var admitted: UInt32 = 0
    var agents: [Agent]
    /// The properties the last step violated, with details (cleared by the explorer before storing a state).
    var problems: [Property: String] = [:]
    /// The last step's events when tracing a schedule, nil while exploring.
    var events: [String]?

    init(_ roles: [Role], maximumPasses: Int = 4, mutation: Mutation = .none) {
        self.mutation = mutation
        self.maximumPasses = maximumPasses
        agents = roles.map { role in
            let frame: Frame =
                switch role {
                case .submitter(let region, _, _): Frame(procedure: .submitter, region: region)
                case .holder(let region): Frame(procedure: .perform, region: region)
                case .parker(let region): Frame(procedure: .park, region: region)
                case .merger: Frame(procedure: .merger, region: .a)
                case .task(let region): Frame(procedure: .admitPushedWhileHeld, region: region)
                }
            return Agent(role: role, stack: [frame])
        }
        for thread in agents.indices { runLocalWork(thread) }
    }

    static func job(_ submitter: Int, _ index: Int) -> Int { submitter * maximumJobs + index }
    static func bit(_ job: Int) -> UInt32 { 1 << UInt32(job) }
    static func jobs(_ mask: UInt32) -> [Int] { (0..<32).filter { mask & bit($0) != 0 } }

    var allJobs: UInt32 {
        agents.reduce(0) { jobs, agent in
            guard case .submitter(_, let index, let count) = agent.role else { return jobs }
            return (0..<count).reduce(jobs) { $0 | Self.bit(Self.job(index, $1)) }
        }
    }

    var isFinal: Bool { agents.allSatisfy(\.stack.isEmpty) }

    /// `region.current`: the region standing for `region`.
    func current(_ region: Region) -> Region { isMerged(region) ? .b : region }
    func isMerged(_ region: Region) -> Bool { region == .a && merged }

    /// Whether `thread` can step: it is not done, and its next step is not a `lock()` of a lock held.
    func canStep(_ thread: Int) -> Bool {
        guard let frame = agents[thread].stack.last else { return false }
        let lock: Region? =
            switch (frame.procedure, frame.pc) {
            case (.lockCurrent, 1), (.park, 0): frame.locked
            case (.merger, 1): .b
            case (.merger, 2): .a
            default: nil
            }
        return lock.map { owners[$0] == nil } ?? true
    }

    /// The property violated by a state in which no thread can step, if any: a deadlock unless all are done; at a
    /// final state, a lock still held, a job left in an intake or never admitted.
    var endViolation: (Property, String)? {
        guard isFinal else {
            let blocked = agents.indices.filter { !agents[$0].stack.isEmpty }.map { "T\($0) \(agents[$0].role)" }
            return (.noDeadlock, "no thread can step; blocked: \(blocked); lock owners \(owners)")
        }
        guard intakes == PerRegion(a: [], b: []), owners == PerRegion(a: nil, b: nil), admitted == allJobs else {
            return (
                .exactlyOnce,
                "final state: intakes \(intakes), lock owners \(owners), "
                    + "never admitted \(Self.jobs(allJobs & ~admitted))"
            )
        }
        return nil
    }

    /// Whether `frame`'s next point is an atomic operation (a step of its own) rather than local work.
    func isAtomic(_ frame: Frame) -> Bool {
        switch (frame.procedure, frame.pc) {
        case (.submitPlain, 0), (.submitPlain, 4): true
        case (.submitPlain, 5): mutation != .skipSuccessorCheck
        // A successor load just after taking a region's lock (tryLock 1, lockCurrent 2, merger 3) is part of that
        // step: the successor is set only under that lock, so the load reads what it would have at the lock.
        case (.lockCurrent, 2): false
        case (.tryLock, 0), (.tryLock, 2), (.forward, 2), (.lockCurrent, _), (.admitIntake, _), (.finishHold, 0): true
        case (.admitPushedWhileHeld, 0), (.admitPushedWhileHeld, 2), (.engineUnlock, _), (.park, 0): true
        case (.merger, 0), (.merger, 1), (.merger, 2), (.merger, 5), (.merger, 6), (.merger, 7): true
        default: false
        }
    }

    /// Runs `thread`'s next atomic step and the local work after it, up to its next atomic step.
    mutating func step(_ thread: Int) {
        if events != nil { events = [] }
        execute(thread)
        runLocalWork(thread)
    }

    mutating func runLocalWork(_ thread: Int) {
        while let frame = agents[thread].stack.last, !isAtomic(frame) { execute(thread) }
    }

    // MARK: - Shared state, and the checks made on it

    mutating func note(_ event: @autoclosure () -> String) { events?.append(event()) }

    mutating func violate(_ property: Property, _ detail: String) {
        if problems[property] == nil { problems[property] = detail }
    }

    mutating func lock(_ region: Region, by thread: Int) {
        precondition(owners[region] == nil, "model error: lock \(region) is held")
        owners[region] = thread
        note("lock \(region)")
    }

    mutating func unlock(_ region: Region, by thread: Int) {
        precondition(owners[region] == thread, "model error: unlock of \(region), not held")
        owners[region] = nil
        note("unlock \(region)")
    }

    /// `intake.takeAll`: exchanges the stack for nil; the jobs come back in push order.
    mutating func take(_ region: Region) -> [Int] {
        note("take \(region).intake")
        defer { intakes[region] = [] }
        return intakes[region]
    }

    /// `admitPlain`: checks properties 2 (at most once), 3 and 4.
    mutating func admit(_ job: Int, in region: Region, by thread: Int) {
        note("admit j\(job) in \(region)")
        let owner = owners[region]
        if owner != thread || isMerged(region) {
            violate(
                .admissionUnderHold,
                "j\(job) admitted in \(region): owner \(owner.map { "T\($0)" } ?? "none")"
                    + (isMerged(region) ? ", merged" : ""))
        }
        if admitted & Self.bit(job) != 0 { violate(.exactlyOnce, "j\(job) admitted twice") }
        if job % Self.maximumJobs != 0 && admitted & Self.bit(job - 1) == 0 {
            violate(.submissionOrder, "j\(job) admitted before j\(job - 1)")
        }
        admitted |= Self.bit(job)
    }

    /// A hold of `region` starts (its lock taken, for good): the jobs whose submission returned, to a queue whose
    /// region `region` stands for, must be admitted once its `admitIntake` ran (property 5).
    mutating func startHold(_ thread: Int, _ region: Region) {
        var jobs: UInt32 = 0
        for agent in agents {
            guard case .submitter(let queue, let index, let count) = agent.role, current(queue) == region else {
                continue
            }
            for job in 0..<(agent.stack.first?.count ?? count) { jobs |= Self.bit(Self.job(index, job)) }
        }
        agents[thread].mustSee = jobs
    }

    mutating func checkVisibility(_ thread: Int) {
        let missing = agents[thread].mustSee & ~admitted
        if missing != 0 { violate(.visibility, "after admitIntake, returned jobs \(Self.jobs(missing)) not admitted") }
        agents[thread].mustSee = 0
    }

    mutating func spawn(_ region: Region) {
        note("spawn task@\(region)")
        agents.append(Agent(role: .task(region), stack: [Frame(procedure: .admitPushedWhileHeld, region: region)]))
    }
}
