#if CLI
    import Foundation
    import SwitchyardWatch

    /// What `switchyard watch` reacts to, each through one stream, in the order it arrived.
    enum WatchInput: Sendable {
        /// A settled batch of changes.
        case batch([FileEvent])
        /// The watch ended or failed, and why.
        case watchEnded(String)
        /// SIGINT, SIGTERM or SIGHUP arrived (once or more).
        case signal(Int32)
        /// The command of run `run` exited; the rest of its process group may live on.
        case exited(run: Int, ChildProcess.Termination)
        /// Run `run`, which was being stopped, is gone with its whole process group.
        case stopped(run: Int)
    }

    /// The command to run and how (`switchyard watch` without `--json`).
    struct WatchPlan: Sendable {
        var command: [String]
        var policy: BusyPolicy
        /// The signal that stops a run's process group on `--restart` and when the watch fails.
        var stopSignal: Int32
        /// How long a stopped group has before `SIGKILL`.
        var grace: Duration
        /// Run at once (`false`: wait for the first batch, `--postpone`).
        var runsAtStart: Bool
    }

    /// The command loop of `switchyard watch`: a state machine fed every input (batches, exits, stops, signals)
    /// through one stream, so that they are handled one at a time, in arrival order.
    ///
    /// At most one run of the command exists at a time: a run starts only when none exists, and a stopped run
    /// counts until its whole process group is gone (``ChildProcess/terminate(signal:grace:)`` returned). A run that
    /// exits by itself with a status other than 0 is reported; one stopped by the loop is not. Once a stop signal
    /// came (or the watch failed), no run starts; the loop returns its exit status as soon as no run exists.
    struct CommandLoop {
        private struct Run {
            let number: Int
            let child: ChildProcess
            var stopping: Bool
        }

        private let plan: WatchPlan
        private let output: WatchOutput
        private let inputs: AsyncStream<WatchInput>.Continuation
        private var current: Run?
        private var runs = 0
        private var rerunQueued = false
        private var exitStatus: Int32?

        /// A loop that posts the exits and stops of its runs to `inputs`, the continuation of the stream it will be
        /// run on.
        init(plan: WatchPlan, output: WatchOutput, inputs: AsyncStream<WatchInput>.Continuation) {
            self.plan = plan
            self.output = output
            self.inputs = inputs
        }

        /// Handles `stream` until a stop signal (returning 128 + its number) or a failed watch (1), once no run is
        /// left. The tasks that wait for exits and stops are added to `tasks`.
        mutating func run(_ stream: AsyncStream<WatchInput>, tasks: inout DiscardingTaskGroup) async -> Int32 {
            if plan.runsAtStart { start(&tasks) }
            for await input in stream {
                handle(input, &tasks)
                if let exitStatus, current == nil { return exitStatus }
            }
            return exitStatus ?? 1
        }

        private mutating func handle(_ input: WatchInput, _ tasks: inout DiscardingTaskGroup) {
            switch input {
            case .batch(let events):
                output.notice(output.summary(of: events))
                for case .watchLimitReached(let report) in events {
                    output.notice("warning: \(TerminalText.visible(report.description))")
                }
                changed(&tasks)
            case .exited(let number, let termination):
                guard let run = current, run.number == number, !run.stopping else { return }
                current = nil
                if termination != .exited(0) { output.notice("command \(Self.describe(termination))") }
                if rerunQueued && exitStatus == nil {
                    rerunQueued = false
                    start(&tasks)
                }
            case .stopped(let number):
                guard current?.number == number else { return }
                current = nil
                if exitStatus == nil { start(&tasks) }
            case .signal(let number):
                guard exitStatus == nil else {
                    // A second stop signal: no more grace.
                    current?.child.signalGroup(SIGKILL)
                    return
                }
                if current != nil { output.notice("\(SignalName.name(number)): stopping the command") }
                quit(128 + number, forwarding: number, &tasks)
            case .watchEnded(let reason):
                output.error(reason)
                quit(1, forwarding: plan.stopSignal, &tasks)
            }
        }

        /// A batch came: runs the command, or applies the busy policy to the run there is.
        private mutating func changed(_ tasks: inout DiscardingTaskGroup) {
            guard exitStatus == nil else { return }
            guard let run = current else {
                start(&tasks)
                return
            }
            switch plan.policy {
            case .restart:
                if !run.stopping { stop(with: plan.stopSignal, &tasks) }
            case .queue:
                rerunQueued = true
            case .ignoreBusy:
                break
            }
        }

        /// Ends the loop with `status` once the current run, sent `signal`, is gone.
        private mutating func quit(_ status: Int32, forwarding signal: Int32, _ tasks: inout DiscardingTaskGroup) {
            exitStatus = status
            rerunQueued = false
            guard let run = current else { return }
            if run.stopping {
                run.child.signalGroup(signal)
            } else {
                stop(with: signal, &tasks)
            }
        }

        private mutating func start(_ tasks: inout DiscardingTaskGroup) {
            runs += 1
            let number = runs
            output.notice("running: \(WatchOutput.shellWords(plan.command))")
            let child: ChildProcess
            do {
                child = try ChildProcess.start(plan.command[0], arguments: Array(plan.command.dropFirst()))
            } catch {
                output.notice(TerminalText.visible("\(error)"))
                return
            }
            current = Run(number: number, child: child, stopping: false)
            let inputs = self.inputs
            tasks.addTask {
                let termination = await child.exit()
                inputs.yield(.exited(run: number, termination))
            }
        }

        /// Stops the current run's process group with `signal`, then `SIGKILL` after the grace; posts `.stopped`
        /// once the group is gone.
        private mutating func stop(with signal: Int32, _ tasks: inout DiscardingTaskGroup) {
            guard let run = current else { return }
            current?.stopping = true
            let child = run.child
            let number = run.number
            let grace = plan.grace
            let inputs = self.inputs
            tasks.addTask {
                _ = await child.terminate(signal: signal, grace: grace)
                inputs.yield(.stopped(run: number))
            }
        }

        /// "exited with status 2", "ended by SIGSEGV".
        private static func describe(_ termination: ChildProcess.Termination) -> String {
            switch termination {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let number): "ended by \(SignalName.name(number))"
            }
        }
    }
#endif
