#if CLI && SWITCHYARD_TEST_HOOKS
    import ArgumentParser
    import Foundation
    import SwitchyardPostgres

    /// `switchyard enqueue test-record --table T --count N [--sleep-ms M] [--first-attempt-sleep-ms F] --database …`
    /// (debug builds only, hidden):
    /// enqueues N `switchyard.test.record` jobs with the values 1…N in one bulk enqueue, and prints their ids, one per
    /// line. Exit status as `enqueue import`'s.
    struct EnqueueTestRecordCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test-record", abstract: "Enqueue test jobs that each insert one row (tests only).",
            shouldDisplay: false)

        @OptionGroup var options: EnqueueOptions

        @Option(help: "The table each job inserts (job_id, value, attempt) into, in its completing transaction.")
        var table: String

        @Option(help: "How many jobs (values 1…N).")
        var count: Int

        @Option(name: .customLong("sleep-ms"), help: "Milliseconds each job sleeps before inserting.")
        var sleepMilliseconds = 0

        @Option(
            name: .customLong("first-attempt-sleep-ms"),
            help: "Milliseconds each job's first attempt sleeps instead (later attempts sleep --sleep-ms).")
        var firstAttemptSleepMilliseconds: Int?

        func validate() throws {
            guard count >= 1 else { throw ValidationError("--count must be at least 1, got \(count)") }
            guard sleepMilliseconds >= 0 else { throw ValidationError("--sleep-ms must be 0 or more") }
            guard (firstAttemptSleepMilliseconds ?? 0) >= 0 else {
                throw ValidationError("--first-attempt-sleep-ms must be 0 or more")
            }
        }

        func run() async throws {
            let database = try DurableDatabase(parsing: options.database)
            try await database.probe()
            let inputs = (1...count).map {
                RecordInput(
                    table: table, value: Int64($0), sleepMilliseconds: sleepMilliseconds,
                    firstAttemptSleepMilliseconds: firstAttemptSleepMilliseconds)
            }
            let jobOptions = options.jobOptions
            try await DurableDatabase.reporting {
                try await database.withQueue(maximumConnections: 2) { (queue: DurableQueue) async throws -> Void in
                    try await queue.migrate()
                    let jobs = try await queue.enqueue(TestJobs.recordKind, many: inputs, options: jobOptions)
                    print(jobs.map { String($0.id) }.joined(separator: "\n"))
                }
            }
        }
    }

    /// `switchyard enqueue test-sleep --ms M --database …` (debug builds only, hidden): enqueues one
    /// `switchyard.test.sleep` job and prints its id. Exit status as `enqueue import`'s.
    struct EnqueueTestSleepCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test-sleep", abstract: "Enqueue a test job that sleeps (tests only).", shouldDisplay: false)

        @OptionGroup var options: EnqueueOptions

        @Option(help: "Milliseconds the job sleeps.")
        var ms: Int

        func validate() throws {
            guard ms >= 0 else { throw ValidationError("--ms must be 0 or more") }
        }

        func run() async throws {
            let database = try DurableDatabase(parsing: options.database)
            try await database.probe()
            let (milliseconds, jobOptions) = (ms, options.jobOptions)
            try await DurableDatabase.reporting {
                try await database.withQueue(maximumConnections: 2) { (queue: DurableQueue) async throws -> Void in
                    try await queue.migrate()
                    let job = try await queue.enqueue(TestJobs.sleepKind, milliseconds, options: jobOptions)
                    print(job.id)
                }
            }
        }
    }
#endif
