import Switchyard
import Testing

/// The engine's intake protocol (``IntakeProtocolModel``), checked exhaustively: every interleaving of each
/// configuration's threads under sequential consistency, each distinct state once. In every reachable state:
/// 1. no deadlock: some thread can step, or every thread is done;
/// 2. every job is admitted at most once, and at every final state every job was admitted, both intakes are empty
///    and both locks are free;
/// 3. a job is admitted only under its admitting thread's hold of a region that is not merged;
/// 4. each submitter's jobs are admitted in its submission order;
/// 5. a hold (`perform(in:)`, or the merger's `perform(locked:leftovers:)`) whose lock was taken after a submission
///    returned, to a queue whose region the held one then stands for, sees that job admitted once its
///    `admitIntake` ran.
/// A violation is recorded with a shortest schedule reaching it, step by step.
@Suite("Intake protocol model")
struct IntakeProtocolModelTests {
    typealias Model = IntakeProtocolModel

    /// Threads to interleave, and the paths of the protocol their exploration must take (see ``Model/Point``).
    struct Configuration: Sendable, CustomTestStringConvertible {
        var name: String
        var roles: [Model.Role]
        var maximumPasses = 4
        /// `tryLock` found its region merged: unlock, forward.
        var forwardsAfterTryLock = false
        /// `lockCurrent` locked a region merged while it waited, and followed the successor.
        var followsSuccessor = false
        /// `lockUnited` found the regions one already, or merged while it waited (``Model/Role/merger``).
        var mergesRaced = false
        var testDescription: String { name }
    }

    static let configurations = [
        Configuration(
            name: "two submitters on A, a merger",
            roles: [.submitter(.a, index: 0), .submitter(.a, index: 1, jobs: 1), .merger],
            forwardsAfterTryLock: true),
        Configuration(
            name: "a submitter on A, one on B, a merger, a holder on A",
            roles: [.submitter(.a, index: 0, jobs: 1), .submitter(.b, index: 1, jobs: 1), .merger, .holder(.a)],
            forwardsAfterTryLock: true, followsSuccessor: true),
        Configuration(
            name: "a submitter on A, one on B, a merger",
            roles: [.submitter(.a, index: 0), .submitter(.b, index: 1, jobs: 1), .merger],
            forwardsAfterTryLock: true),
        Configuration(
            name: "a submitter, a holder on A, a merger; maximumPasses 1",
            roles: [.submitter(.a, index: 0), .holder(.a), .merger], maximumPasses: 1,
            forwardsAfterTryLock: true, followsSuccessor: true),
        Configuration(
            name: "a submitter, a holder on B, a merger; maximumPasses 1",
            roles: [.submitter(.a, index: 0), .holder(.b), .merger], maximumPasses: 1,
            forwardsAfterTryLock: true),
        Configuration(
            name: "a submitter, a worker parking in A, a merger; maximumPasses 1",
            roles: [.submitter(.a, index: 0), .parker(.a), .merger], maximumPasses: 1,
            forwardsAfterTryLock: true),
        Configuration(
            name: "a submitter, two mergers",
            roles: [.submitter(.a, index: 0, jobs: 1), .merger, .merger],
            forwardsAfterTryLock: true, mergesRaced: true),
        Configuration(
            name: "two submitters, a holder, no merge; maximumPasses 1",
            roles: [.submitter(.a, index: 0), .submitter(.a, index: 1, jobs: 1), .holder(.a)], maximumPasses: 1),
    ]

    @Test("every interleaving keeps properties 1 to 5", arguments: configurations)
    func protocolHolds(_ configuration: Configuration) async throws {
        // On the blocking executor: an exploration keeps its thread busy for seconds (more under Thread
        // Sanitizer), which on the cooperative pool would starve the tests running alongside.
        let exploration = try await BlockingExecutor.shared.run {
            Model(configuration.roles, maximumPasses: configuration.maximumPasses).explore()
        }
        print(
            "IntakeProtocolModelTests: \(configuration.name): \(exploration.states) states, "
                + "\(exploration.transitions) transitions, \(exploration.finalStates) final")
        for (property, trace) in exploration.violations.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            Issue.record("\(property.rawValue): violated in \(configuration.name)\n\(trace)")
        }
        #expect(exploration.finalStates > 0)
        // The paths the configuration is for, by their points: tryLock's unlock of a merged region; lockCurrent's;
        // lockUnited's Engine.unlock of both after finding A merged; its lockCurrent of the region both stand for.
        let points = exploration.points
        #expect(points.contains(Model.Point(.tryLock, 2)) == configuration.forwardsAfterTryLock)
        #expect(points.contains(Model.Point(.lockCurrent, 3)) == configuration.followsSuccessor)
        #expect(points.contains(Model.Point(.merger, 4)) == configuration.mergesRaced)
        #expect(points.contains(Model.Point(.merger, 8)) == configuration.mergesRaced)
        if configuration.maximumPasses == 1 {
            #expect(exploration.maximumThreads > configuration.roles.count, "admitPushedWhileHeld spawns a task")
        }
    }

    /// (a) A submitter that skips reading the successor after pushing, when its push came after the merger took A's
    /// intake and its `tryLock` failed on the merger's hold of A, returns with its job left in A's intake for good:
    /// property 2 (and 5: the merger's hold, or a later one of B, misses it).
    /// (b) A merger that leaves A's intake, when a submitter pushed before the merge and its `tryLock` failed on
    /// the merger's hold, leaves that job there for good: property 2 (and 5: its own hold misses it).
    @Test(
        "each deliberate break of the protocol is caught",
        arguments: [Model.Mutation.skipSuccessorCheck, .keepAbsorbedIntake])
    func mutationsAreCaught(_ mutation: Model.Mutation) async throws {
        let roles: [Model.Role] = [.submitter(.a, index: 0), .holder(.b), .merger]
        let exploration = try await BlockingExecutor.shared.run {
            Model(roles, maximumPasses: 1, mutation: mutation).explore()
        }
        print(
            "IntakeProtocolModelTests: mutation \(mutation): \(exploration.states) states, violated "
                + exploration.violations.keys.map(\.rawValue).sorted().joined(separator: "; "))
        #expect(exploration.violations[.exactlyOnce] != nil, "a job left in A's intake")
        #expect(exploration.violations[.visibility] != nil, "a hold that misses a returned submission")
        #expect(exploration.violations[.noDeadlock] == nil)
        #expect(exploration.violations[.admissionUnderHold] == nil)
    }
}

// MARK: - Exploration

extension IntakeProtocolModel {
    /// A program point: a procedure and a point in it.
    struct Point: Hashable, Sendable {
        var procedure: Procedure
        var pc: Int
        init(_ procedure: Procedure, _ pc: Int) { (self.procedure, self.pc) = (procedure, pc) }
    }

    /// What an exploration found.
    struct Exploration: Sendable {
        var states = 0
        var transitions = 0
        var finalStates = 0
        /// The most threads of a state, spawned tasks included.
        var maximumThreads = 0
        /// Every point some thread was at in some state (the top of its stack or a return point below).
        var points: Set<Point> = []
        /// The first violation found of each property (breadth-first: on a shortest schedule), with its trace.
        var violations: [Property: String] = [:]
    }

    /// Explores every interleaving from this state breadth-first, each distinct state once, checking properties 2
    /// to 5 on every step and 1 and 2 at every state where no thread can step.
    func explore() -> Exploration {
        var exploration = Exploration()
        var seen: Set = [self]
        var states = [self]
        // The state each state was first reached from, and the thread that stepped: a shortest schedule to each.
        var parents = [-1]
        var threads = [-1]
        func schedule(to state: Int) -> [Int] {
            var schedule: [Int] = []
            var state = state
            while state > 0 {
                schedule.append(threads[state])
                state = parents[state]
            }
            return schedule.reversed()
        }
        func report(_ property: Property, _ detail: String, after schedule: [Int]) {
            if exploration.violations[property] == nil { exploration.violations[property] = trace(schedule, detail) }
        }
        for frame in agents.flatMap(\.stack) { exploration.points.insert(Point(frame.procedure, frame.pc)) }
        var current = 0
        while current < states.count {
            let state = states[current]
            var stepped = false
            for thread in state.agents.indices where state.canStep(thread) {
                stepped = true
                var next = state
                next.step(thread)
                for (property, detail) in next.problems {
                    report(property, detail, after: schedule(to: current) + [thread])
                }
                next.problems = [:]
                exploration.transitions += 1
                guard seen.insert(next).inserted else { continue }
                for frame in next.agents[thread].stack { exploration.points.insert(Point(frame.procedure, frame.pc)) }
                exploration.maximumThreads = max(exploration.maximumThreads, next.agents.count)
                states.append(next)
                parents.append(current)
                threads.append(thread)
            }
            if !stepped {
                if state.isFinal { exploration.finalStates += 1 }
                if let (property, detail) = state.endViolation {
                    report(property, detail, after: schedule(to: current))
                }
            }
            current += 1
        }
        exploration.states = states.count
        return exploration
    }

    /// `schedule` (the threads stepping, in order) replayed from this state, one line per step, then `violation`.
    func trace(_ schedule: [Int], _ violation: String) -> String {
        var model = self
        model.events = []
        var lines = ["start: \(agents.map(\.role)), maximumPasses \(maximumPasses), mutation \(mutation)"]
        for thread in schedule {
            let role = model.agents[thread].role
            model.step(thread)
            lines.append("T\(thread) \(role): " + (model.events ?? []).joined(separator: ", "))
        }
        return (lines + ["VIOLATED: " + violation]).joined(separator: "\n")
    }
}
