#if CLI
    import ArgumentParser

    /// `switchyard`: the command-line face of Switchyard. Each subcommand runs one complete background job
    /// (`import` with `status` and `sample-feed`, `fetch`, `thumbnails`, `push`, `demo`), plus the durable PostgreSQL
    /// queue (`enqueue`, `worker`, `jobs`), the stream tools `lines` and `csv`, and `watch`, which reruns a command
    /// when files change.
    @main
    struct SwitchyardCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "switchyard",
            abstract: "Background work for Swift: isolation, blocking work off the cooperative pool, and more.",
            version: SwitchyardVersion.current,
            subcommands: [
                ImportCommand.self, StatusCommand.self, SampleFeedCommand.self, FetchCommand.self,
                ThumbnailsCommand.self,
                EnqueueCommand.self, WorkerCommand.self, JobsCommand.self,
                PushCommand.self,
                DemoCommand.self,
                LinesCommand.self, CSVCommand.self, DashboardCommand.self,
                WatchCommand.self,
            ] + testCommands)

        /// Parses the command line with a bare `--dashboard` given its default address, then runs the command.
        static func main() async {
            await main(DashboardOptions.expandingBareFlag(Array(CommandLine.arguments.dropFirst())))
        }

        /// Commands for the tests, in debug builds only.
        static var testCommands: [any ParsableCommand.Type] {
            #if SWITCHYARD_TEST_HOOKS
                [DashboardTestWorkloadCommand.self]
            #else
                []
            #endif
        }
    }

    /// The tool's version, printed by `switchyard --version`.
    enum SwitchyardVersion {
        static let current = "0.1.0"
    }
#endif
