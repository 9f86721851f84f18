#if CLI
    import ArgumentParser
    import Foundation
    import SwitchyardWatch
    import SystemPackage

    /// `switchyard watch [PATH…] -- COMMAND…`: runs a command, and runs it again whenever files under the paths
    /// change (`--json`: prints the changes instead).
    ///
    /// Standard error carries one `[switchyard watch] …` line per batch of changes, per start of the command and per
    /// run that ends with a status other than 0; standard output is the command's (with `--json`, the changes').
    /// Exit status: 128 + the signal's number after SIGINT (130), SIGTERM (143) or SIGHUP (129); 1 when a path
    /// cannot be watched or the watch fails; 64 for wrong arguments. The command's own status never ends the watch.
    struct WatchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Run a command, and run it again whenever files under the watched paths change.",
            usage: "switchyard watch [<path> ...] [<options>] -- <command> [<argument> ...]",
            discussion: """
                Runs COMMAND once at start (not with --postpone), then again after each batch of changes under the \
                PATHs (default: the working directory). A batch is acted on once nothing has changed for --debounce \
                milliseconds (or 10 seconds after its first change, if changes never pause); for each one, standard error gets a line `[switchyard watch] N changes: PATH, PATH, … \
                (+K more)` (at most five paths, relative to the working directory when below it).

                A batch that comes while the command runs: --restart (the default) stops the command's whole \
                process group (--signal, default TERM, then SIGKILL after --grace milliseconds) and starts it again \
                once the group is gone; --queue lets the command finish, then runs it once more, however many \
                batches came meanwhile; --ignore-busy drops the batch.

                The command runs in a process group of its own, with this terminal's standard input, output and \
                error; each start is announced on standard error (`[switchyard watch] running: COMMAND`). A run that \
                ends with a status other than 0 is reported there (`[switchyard watch] command exited with status \
                2`) and the watch goes on.

                Ctrl-C (SIGINT), SIGTERM or SIGHUP: the signal is forwarded to the command's process group, which \
                gets --grace milliseconds to exit before SIGKILL; then the watch stops and switchyard exits with 128 \
                + the signal's number (130 for Ctrl-C, 143 for SIGTERM). A second one kills the group at once.

                Not watched: what --ignore GLOB matches (gitignore syntax; repeatable), what .gitignore files \
                ignore (not with --no-gitignore), and version-control folders and editors' scratch files: .git/, \
                .hg/, .svn/, *.swp, *.swx, *~, .#*, #*#, .DS_Store and vim's 4913 (not with --no-default-ignores).

                --json runs no command: each change is printed on standard output as one JSON object per line, \
                {"event":"modified","path":"/abs/path"}; events are created, modified, removed, renamed (with \
                "from"), rescan_needed and watch_limit_reached (with "unwatched" and "setting"). A path that is not \
                valid UTF-8 has U+FFFD for its invalid bytes in "path", and its exact bytes in "path_base64" \
                ("from_base64" for "from").
                """)

        /// What is not watched unless `--no-default-ignores`, in gitignore syntax (a leading `#` escaped, or it
        /// would be a comment).
        static let builtInIgnores = [
            ".git/", ".hg/", ".svn/", "*.swp", "*.swx", "*~", ".#*", "\\#*#", ".DS_Store", "4913",
        ]

        @Argument(
            help: ArgumentHelp(
                "Files and directories to watch (default: the working directory); after --, the command and its arguments.",
                valueName: "path"))
        var operands: [String] = []

        @Option(
            name: .customLong("ignore"),
            help: ArgumentHelp("Do not watch paths matching GLOB (gitignore syntax); repeatable.", valueName: "GLOB"))
        var ignores: [String] = []

        @Flag(inversion: .prefixedNo, help: "Do not watch what .gitignore files under the paths ignore.")
        var gitignore = true

        @Flag(
            inversion: .prefixedNo,
            help: "Do not watch version-control folders and editors' scratch files (.git/, *.swp, *~, …).")
        var defaultIgnores = true

        @Option(
            help: ArgumentHelp(
                "Milliseconds without changes before a batch is acted on (0...60000).", valueName: "MS"))
        var debounce = 50

        @Flag(help: "What a batch does while the command runs.")
        var busy: BusyPolicy = .restart

        @Option(
            name: .customLong("signal"),
            help: ArgumentHelp(
                "The signal that stops the command's process group on --restart: a name (TERM, INT, HUP, …) or a number.",
                valueName: "NAME"))
        var stopSignal = "TERM"

        @Option(
            help: ArgumentHelp(
                "Milliseconds a stopped process group has to exit before SIGKILL (0...3600000).", valueName: "MS"))
        var grace = 2000

        @Flag(help: "Wait for the first change before running the command.")
        var postpone = false

        @Flag(help: "Run no command: print each change as a JSON line on standard output.")
        var json = false

        /// The paths to watch and the command: ArgumentParser gathers both into ``operands`` (a command cannot declare
        /// two positional arrays); the command is what follows the command line's first `--`.
        var paths: [String] { Self.split(operands, commandLine: CommandLine.arguments).paths }
        var command: [String] { Self.split(operands, commandLine: CommandLine.arguments).command }

        /// `operands` split at the `--` of `commandLine`: everything after the first `--` is an operand, so the
        /// command is the last (number of arguments after it) operands, and the paths are the ones before.
        static func split(_ operands: [String], commandLine: [String]) -> (paths: [String], command: [String]) {
            let count = commandLine.firstIndex(of: "--").map { min(commandLine.count - $0 - 1, operands.count) } ?? 0
            return (Array(operands.dropLast(count)), Array(operands.suffix(count)))
        }

        func validate() throws {
            guard (0...60_000).contains(debounce) else {
                throw ValidationError("--debounce must be between 0 and 60000 (milliseconds), got \(debounce)")
            }
            guard (0...3_600_000).contains(grace) else {
                throw ValidationError("--grace must be between 0 and 3600000 (milliseconds), got \(grace)")
            }
            guard SignalName.number(stopSignal) != nil else {
                throw ValidationError(
                    "--signal: no signal named \(stopSignal) (a name such as TERM or INT, or a number)")
            }
            if json {
                guard command.isEmpty else {
                    throw ValidationError("--json prints the changes and runs no command: drop the command after --")
                }
            } else {
                guard !(command.first ?? "").isEmpty else {
                    throw ValidationError(
                        "name the command to run after --, e.g. switchyard watch Sources -- swift build")
                }
            }
        }

        func run() async throws {
            let globs = (defaultIgnores ? Self.builtInIgnores : []) + ignores
            let options = FileWatcher.Options(
                quietWindow: .milliseconds(debounce), maximumDelay: max(Duration.seconds(10), .milliseconds(debounce)),
                ignore: IgnoreRules(globs: globs, gitignore: gitignore), name: "switchyard-watch")
            var plan: WatchPlan?
            if !json {
                plan = WatchPlan(
                    command: command, policy: busy, stopSignal: SignalName.number(stopSignal) ?? SIGTERM,
                    grace: .milliseconds(grace), runsAtStart: !postpone)
            }
            let output = WatchOutput(workingDirectory: FilePath(FileManager.default.currentDirectoryPath))
            let roots = (paths.isEmpty ? ["."] : paths).map { FilePath($0) }
            let status = await WatchRunner.run(roots: roots, options: options, plan: plan, output: output)
            if status != 0 { throw ExitCode(status) }
        }
    }

    /// What `switchyard watch` does with a batch that comes while the command runs.
    enum BusyPolicy: String, EnumerableFlag, Sendable {
        case restart, queue, ignoreBusy

        static func help(for value: BusyPolicy) -> ArgumentHelp? {
            switch value {
            case .restart:
                return "Stop the command's process group and start it again (the default)."
            case .queue:
                return "Let the command finish, then run it once more, however many batches came meanwhile."
            case .ignoreBusy:
                return "Drop the batches that come while the command runs."
            }
        }
    }
#endif
