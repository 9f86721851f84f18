#if CLI && SWITCHYARD_TEST_HOOKS
    import PostgresNIO
    import SwitchyardPostgres

    /// The input of a `switchyard.test.record` job: the row it writes, and how long it sleeps first.
    struct RecordInput: Codable, Sendable {
        /// The table to insert into, as SQL (may be schema-qualified; resolved on the worker's `search_path`, the
        /// `--database` URL's schema). It has the columns `job_id bigint, value bigint, attempt bigint` (or wider).
        var table: String
        var value: Int64
        var sleepMilliseconds: Int
        /// What the first attempt sleeps instead of `sleepMilliseconds`, when set: a job that is certainly still
        /// running when its worker is killed, however late a test notices that it started.
        var firstAttemptSleepMilliseconds: Int?
    }

    /// Job kinds for the tests of `switchyard worker` (debug builds only): the evidence of exactly-once completion,
    /// and a job that only waits, to be cancelled.
    enum TestJobs {
        /// Sleeps (see ``RecordInput``), then inserts `(job_id, value, attempt)` into the input's table in the
        /// transaction that completes the job: a row exists for a job if and only if the job succeeded, once, whatever
        /// retries and rescues it went through.
        static let recordKind = DurableJobKind<RecordInput, DurableNothing>("switchyard.test.record")
        /// Sleeps the input's milliseconds (cancellably) and returns them.
        static let sleepKind = DurableJobKind<Int, Int>("switchyard.test.sleep")

        static func runRecord(_ input: RecordInput, context: DurableJobContext) async throws -> DurableNothing {
            let first = context.attempt == 1 ? input.firstAttemptSleepMilliseconds : nil
            try await Task.sleep(for: .milliseconds(first ?? input.sleepMilliseconds))
            let logger = context.logger
            let (id, attempt) = (context.jobID, Int64(context.attempt))
            return try await context.withCompletingTransaction {
                (connection: PostgresConnection) async throws -> DurableNothing in
                try await connection.query(
                    """
                    INSERT INTO \(unescaped: input.table) (job_id, value, attempt)
                    VALUES (\(id), \(input.value), \(attempt))
                    """, logger: logger)
                return DurableNothing()
            }
        }

        static func runSleep(_ milliseconds: Int, context: DurableJobContext) async throws -> Int {
            try await Task.sleep(for: .milliseconds(milliseconds))
            return milliseconds
        }
    }
#endif
