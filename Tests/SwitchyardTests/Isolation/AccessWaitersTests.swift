import SwitchyardTesting
import Testing

@testable import Switchyard

/// `AccessWaiters` as a value: its decisions, and a model of `AccessLock` built on it, explored exhaustively for small
/// configurations and over random interleavings for larger ones (threads, pool-bound synchronous accessors, tasks and
/// enqueued jobs on a pool of 1 or 2 threads), checking that every schedule finishes (no state in which nobody can
/// move) and that holds never conflict.
@Suite("AccessWaiters")
struct AccessWaitersTests {
    typealias Waiters = AccessWaiters<Int, Int>

    @Test("a thread never waits for a woken task: it takes a free lock the task has reserved")
    func threadsIgnoreTaskReservations() {
        for barging in [true, false] {
            var waiters = Waiters(threadsBarge: barging)
            waiters.append(job: 1, exclusive: true)
            let wakes = waiters.dispatch(held: .free)
            #expect(wakes.jobs == [1])
            #expect(waiters.mayClaimExclusive(.thread, woken: false, held: .free))
            #expect(!waiters.mayClaimExclusive(.task, woken: false, held: .free), "a later task queues behind")
            if !barging { #expect(waiters.mayClaimShared(.thread, woken: false, held: .free)) }
        }
    }

    @Test("a woken task that lost its claim keeps its place ahead of later tasks")
    func wokenTaskKeepsItsPlace() {
        var waiters = Waiters(threadsBarge: true)
        waiters.append(job: 1, exclusive: true)
        _ = waiters.dispatch(held: .free)
        waiters.append(job: 2, exclusive: true)
        waiters.consumeReservation(of: .task, exclusive: true)
        let held = Waiters.Held(exclusive: true, readers: 0)
        #expect(!waiters.mayClaimExclusive(.task, woken: true, held: held))
        waiters.append(job: 1, exclusive: true, front: true)
        #expect(waiters.dispatch(held: held).isEmpty)
        #expect(waiters.dispatch(held: .free).jobs == [1])
    }

    @Test("barging: a release wakes the oldest parked thread and the head task; they compete")
    func bargingReleaseWakesBoth() {
        var waiters = Waiters(threadsBarge: true)
        waiters.append(thread: 10, exclusive: true)
        waiters.append(thread: 11, exclusive: true)
        waiters.append(job: 1, exclusive: true)
        let wakes = waiters.dispatch(held: .free)
        #expect(wakes.threads == [10])
        #expect(wakes.jobs == [1])
        #expect(waiters.threadWriters.count == 1)
    }

    @Test("hand-off: phase-fair among threads; tasks wait while a thread is pending")
    func handOffPhases() {
        var waiters = Waiters(threadsBarge: false)
        waiters.noteFastPathPhase(held: Waiters.Held(exclusive: true, readers: 0))
        waiters.append(thread: 20, exclusive: false)
        waiters.append(thread: 21, exclusive: true)
        waiters.append(thread: 22, exclusive: false)
        waiters.append(job: 1, exclusive: true)
        // The write phase ended: both readers go before the writer; the task waits for the threads.
        let wakes = waiters.dispatch(held: .free)
        #expect(wakes.threads == [20, 22])
        #expect(wakes.jobs.isEmpty)
        #expect(!waiters.mayClaimExclusive(.task, woken: false, held: .free))
    }
}

/// The model of `AccessLock` (below) explored: every state of small configurations, and random schedules of larger
/// ones. Each exploration runs on the blocking executor, off the cooperative pool.
@Suite("AccessWaiters: model")
struct AccessWaitersModelTests {
    @Test("model, exhaustive: every schedule of two or three agents of every form, pool width 1 and 2, can finish")
    func exhaustiveExploration() async throws {
        // On the blocking executor: the exploration keeps its thread busy for seconds (more under Thread
        // Sanitizer), which on the cooperative pool would starve the tests running alongside.
        let outcome = try await BlockingExecutor.shared.run { () -> Result<(Int, Int), LockModel.Failure> in
            var states = 0
            let configurations = LockModel.smallConfigurations()
            for model in configurations {
                switch model.exploreAll() {
                case .success(let count): states += count
                case .failure(let failure): return .failure(failure)
                }
            }
            return .success((configurations.count, states))
        }
        switch outcome {
        case .success(let (configurations, states)):
            print("AccessWaiters model: \(configurations) configurations, \(states) states, all schedules finish")
        case .failure(let failure):
            Issue.record("\(failure.description)\n\(failure.trace.suffix(30).joined(separator: "\n"))")
        }
    }

    @Test("model, exhaustive: threads that wait for a woken task's reservation hang a narrow pool (caught)")
    func exhaustiveExplorationCatchesHandOff() async throws {
        let caught = try await BlockingExecutor.shared.run {
            LockModel.smallConfigurations().contains { model in
                var mutated = model
                mutated.threadsWaitForTaskReservations = true
                guard case .failure(let failure) = mutated.exploreAll() else { return false }
                return failure.description.hasPrefix("deadlock") || failure.description.hasPrefix("livelock")
            }
        }
        #expect(caught)
    }

    @Test("model: random schedules of up to six agents finish, holds never conflict")
    func modelExploration() async throws {
        let start = SeededRandomNumberGenerator.forTest("AccessWaitersTests.modelExploration")
        let failure = try await BlockingExecutor.shared.run { () -> String? in  // off the cooperative pool
            var random = start
            for round in 0..<3_000 {
                var model = LockModel.random(using: &random)
                if let outcome = model.run(using: &random) {
                    return "seed \(random.seed), round \(round): \(outcome)\n"
                        + model.trace.suffix(30).joined(separator: "\n")
                }
            }
            return nil
        }
        if let failure { Issue.record("\(failure)") }
    }
}

/// A model of `AccessLock` on top of the real `AccessWaiters`: the lock word, the fast paths and the slow-path
/// steps, each one atomic step, with agents that need a pool thread to run where a task would.
struct LockModel {
    enum Kind: CaseIterable, Hashable { case plainThread, poolThread, task, job }
    enum Phase: Hashable { case start, parked, woken, holding, done }

    struct Agent: Hashable {
        var kind: Kind
        var exclusive: Bool
        var accesses: Int
        var phase: Phase = .start
        /// A job that has been enqueued (its `start` is pending a wake).
        var enqueued = false
        /// A pool-bound synchronous accessor that has its pool thread (it keeps it until done).
        var started = false
    }

    var waiters: AccessWaiters<Int, Int>
    var exclusive = false
    var readers = 0
    var agents: [Agent]
    let width: Int
    var trace: [String] = []
    /// A deliberate bug, to show the exploration catches it: a thread does not take a free lock while a woken task
    /// holds a reservation (the old "hand the value to a task" design, which deadlocks a narrow pool).
    var threadsWaitForTaskReservations = false

    var queued: Bool { waiters.needsSlowPath }
    var held: AccessWaiters<Int, Int>.Held { .init(exclusive: exclusive, readers: readers) }

    static func random(using random: inout SeededRandomNumberGenerator) -> LockModel {
        let barging = Bool.random(using: &random)
        var agents: [Agent] = []
        for _ in 0..<Int.random(in: 2...6, using: &random) {
            let kind = Kind.allCases.randomElement(using: &random)!
            agents.append(
                Agent(
                    kind: kind, exclusive: barging || Bool.random(using: &random),
                    accesses: Int.random(in: 1...3, using: &random)))
        }
        return LockModel(
            waiters: AccessWaiters(threadsBarge: barging), agents: agents,
            width: Int.random(in: 1...2, using: &random))
    }

    /// Pool threads in use: pool-bound synchronous accessors from start to finish, tasks while they hold.
    var poolInUse: Int {
        agents.reduce(0) { used, agent in
            switch (agent.kind, agent.phase) {
            case (.poolThread, let phase) where agent.started && phase != .done: used + 1
            case (.task, .holding), (.job, .holding): used + 1
            default: used
            }
        }
    }

    func isEnabled(_ index: Int) -> Bool {
        let agent = agents[index]
        switch agent.phase {
        case .done, .parked: return false
        case .holding: return true
        case .start, .woken:
            switch agent.kind {
            case .plainThread: return true
            case .poolThread:
                // Starts only while a pool thread is free; from then on it keeps its thread.
                return agent.started || poolInUse < width
            case .task: return poolInUse < width
            case .job: return agent.phase == .start ? !agent.enqueued : poolInUse < width
            }
        }
    }

    /// Runs a random schedule to the end; returns a failure description, or nil.
    mutating func run(using random: inout SeededRandomNumberGenerator) -> String? {
        for _ in 0..<10_000 {
            if agents.allSatisfy({ $0.phase == .done }) { return nil }
            let enabled = agents.indices.filter(isEnabled)
            guard let index = enabled.randomElement(using: &random) else {
                return "deadlock: \(agents.map { "\($0.kind)/\($0.phase)" }) word E=\(exclusive) R=\(readers)"
            }
            if let failure = step(index) { return failure }
        }
        return "no progress after 10,000 steps"
    }

    private mutating func step(_ index: Int) -> String? {
        if agents[index].kind == .poolThread { agents[index].started = true }
        let agent = agents[index]
        trace.append("\(index) \(agent.kind) \(agent.exclusive ? "W" : "R") \(agent.phase)")
        switch agent.phase {
        case .holding:
            release(index)
        case .start where agent.kind == .job:
            agents[index].enqueued = true
            beginSlowPath()
            waiters.append(job: index, exclusive: agent.exclusive)
            endSlowPath()
        case .start:
            if !queued, agent.exclusive ? (!exclusive && readers == 0) : !exclusive {
                take(index)
            } else {
                acquireSlow(index, woken: false)
            }
        case .woken:
            acquireSlow(index, woken: true)
        case .parked, .done:
            return "stepped a blocked agent"
        }
        if exclusive, readers > 0 { return "a writer and readers hold at once" }
        return nil
    }

    private mutating func take(_ index: Int) {
        if agents[index].exclusive { exclusive = true } else { readers += 1 }
        agents[index].phase = .holding
    }

    private mutating func acquireSlow(_ index: Int, woken: Bool) {
        let agent = agents[index]
        let party: AccessWaiters<Int, Int>.Party =
            agent.kind == .plainThread || agent.kind == .poolThread ? .thread : .task
        beginSlowPath()
        if woken { waiters.consumeReservation(of: party, exclusive: agent.exclusive) }
        let reserved = waiters.wokenTaskWriter || waiters.wokenTaskReaders > 0
        let may =
            threadsWaitForTaskReservations && party == .thread && reserved
            ? false
            : agent.exclusive
                ? waiters.mayClaimExclusive(party, woken: woken, held: held)
                : waiters.mayClaimShared(party, woken: woken, held: held)
        if may {
            waiters.claimed(exclusive: agent.exclusive)
            take(index)
        } else if party == .thread {
            waiters.append(thread: index, exclusive: agent.exclusive, front: woken && !waiters.threadsBarge)
            agents[index].phase = .parked
        } else {
            waiters.append(job: index, exclusive: agent.exclusive, front: woken)
            agents[index].phase = .parked
        }
        endSlowPath()
    }

    private mutating func release(_ index: Int) {
        if agents[index].exclusive { exclusive = false } else { readers -= 1 }
        agents[index].accesses -= 1
        agents[index].phase = agents[index].accesses == 0 ? .done : .start
        if agents[index].kind == .job { agents[index].enqueued = false }
        if queued {
            beginSlowPath()
            endSlowPath()
        }
    }

    /// A critical section of the internal mutex is bracketed by these two; the end dispatches and wakes.
    private mutating func beginSlowPath() {
        if !waiters.needsSlowPath { waiters.noteFastPathPhase(held: held) }
    }

    private mutating func endSlowPath() {
        let wakes = waiters.dispatch(held: held)
        for thread in wakes.threads { agents[thread].phase = .woken }
        for job in wakes.jobs { agents[job].phase = .woken }
    }
}

/// Exhaustive exploration: every state reachable from a small configuration, each visited once.
extension LockModel {
    struct Failure: Error {
        var description: String
        var trace: [String]
    }

    /// What identifies a state (the trace that led to it does not).
    struct Key: Hashable {
        var agents: [Agent]
        var queues: [[Int]]
        var woken: [Int]
        var lastPhaseWasWrite: Bool
        var exclusive: Bool
        var readers: Int
    }

    var key: Key {
        Key(
            agents: agents,
            queues: [waiters.threadWriters, waiters.threadReaders, waiters.taskWriters, waiters.taskReaders].map {
                // Not `Array($0)` for an empty one: copying an empty Deque writes to the shared empty-array storage,
                // which Thread Sanitizer reports as a race between tests running in parallel.
                $0.isEmpty ? [] : $0.map { $0 }
            },
            woken: [
                waiters.wokenThreadWriter ? 1 : 0, waiters.wokenThreadReaders, waiters.wokenTaskWriter ? 1 : 0,
                waiters.wokenTaskReaders,
            ],
            lastPhaseWasWrite: waiters.lastPhaseWasWrite, exclusive: exclusive, readers: readers)
    }

    /// Every configuration of two agents (two accesses each) and of three (two accesses for the first, one for the
    /// others: bounded for Thread Sanitizer runs), of every kind and access mode, with and without barging, on pools
    /// of 1 and 2 threads.
    static func smallConfigurations() -> [LockModel] {
        var models: [LockModel] = []
        for barging in [true, false] {
            // A barging lock (`Isolated`) has exclusive accesses only.
            let forms = Kind.allCases.flatMap { kind in (barging ? [true] : [true, false]).map { (kind, $0) } }
            for count in 2...3 {
                for combination in multisets(of: forms.count, size: count) {
                    for width in 1...2 {
                        let agents = combination.enumerated().map { position, form in
                            Agent(
                                kind: forms[form].0, exclusive: forms[form].1,
                                accesses: count == 2 || position == 0 ? 2 : 1)
                        }
                        models.append(
                            LockModel(
                                waiters: AccessWaiters(threadsBarge: barging), agents: agents,
                                width: width))
                    }
                }
            }
        }
        return models
    }

    /// Non-decreasing index sequences: the multisets of `size` elements of `0..<count`.
    private static func multisets(of count: Int, size: Int) -> [[Int]] {
        guard size > 0 else { return [[]] }
        return multisets(of: count, size: size - 1).flatMap { prefix in
            ((prefix.last ?? 0)..<count).map { prefix + [$0] }
        }
    }

    /// Visits every reachable state; fails on a state where nobody can move before every agent is done (a
    /// deadlock), on a step that breaks the lock's exclusion, or on a state from which no schedule reaches the end
    /// (a livelock: agents that only ever wake each other). Returns the number of states.
    func exploreAll() -> Result<Int, Failure> {
        var index: [Key: Int] = [key: 0]
        var models = [self]
        var predecessors: [[Int]] = [[]]
        var finals: [Int] = []
        var frontier = [0]
        while let current = frontier.popLast() {
            let model = models[current]
            if model.agents.allSatisfy({ $0.phase == .done }) {
                finals.append(current)
                continue
            }
            let enabled = model.agents.indices.filter(model.isEnabled)
            if enabled.isEmpty {
                let agents = model.agents.map { "\($0.kind)/\($0.phase)" }
                return .failure(
                    Failure(
                        description: "deadlock: \(agents) word E=\(model.exclusive) R=\(model.readers)",
                        trace: model.trace))
            }
            for agent in enabled {
                var next = model
                if let failure = next.step(agent) {
                    return .failure(Failure(description: failure, trace: next.trace))
                }
                if let known = index[next.key] {
                    predecessors[known].append(current)
                } else {
                    index[next.key] = models.count
                    predecessors.append([current])
                    frontier.append(models.count)
                    models.append(next)
                }
            }
        }
        // Backwards from the final states: every state must be able to reach one.
        var canFinish = [Bool](repeating: false, count: models.count)
        var work = finals
        for state in finals { canFinish[state] = true }
        while let state = work.popLast() {
            for predecessor in predecessors[state] where !canFinish[predecessor] {
                canFinish[predecessor] = true
                work.append(predecessor)
            }
        }
        if let stuck = canFinish.firstIndex(of: false) {
            return .failure(
                Failure(description: "livelock: no schedule finishes from this state", trace: models[stuck].trace))
        }
        return .success(models.count)
    }
}
