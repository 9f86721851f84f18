import Foundation
import Switchyard
import SwitchyardTesting
import Testing

@_spi(ImportDestinations) @testable import SwitchyardTransit

@Suite("SQLiteConnection: statements stop when their task is cancelled")
struct SQLiteConnectionTests {
    /// A query that never ends on its own: only an interruption stops it.
    private static let endless = """
        WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter) SELECT count(*) FROM counter
        """

    @Test("a statement that starts on an already cancelled task stops at its first check")
    func cancelledBeforeTheStatement() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.file("db.sqlite")
        let outcome = await Task(executorPreference: BlockingExecutor.shared) { () -> Result<Void, SQLiteError> in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                let connection = try SQLiteConnection(path: path).stoppingWhenTaskIsCancelled()
                try connection.execute(Self.endless)
                return .success(())
            } catch {
                return .failure(error as! SQLiteError)
            }
        }.value
        guard case .failure(let error) = outcome else {
            Issue.record("the endless statement returned")
            return
        }
        #expect(error.isInterruption, "\(error)")
    }

    @Test("cancelling the task while its statement runs stops the statement; the connection stays usable")
    func cancelledWhileRunning() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.file("db.sqlite")
        let (started, starting) = AsyncStream<Void>.makeStream()
        let work = Task(executorPreference: BlockingExecutor.shared) { () -> (SQLiteError?, Int64?) in
            let connection = try SQLiteConnection(path: path).stoppingWhenTaskIsCancelled()
            starting.yield()
            var interruption: SQLiteError?
            do { try connection.execute(Self.endless) } catch let error as SQLiteError { interruption = error }
            // The interruption ends with the statement: the next one runs (and, still cancelled, stops only if it
            // is long enough to reach a check).
            let one = try connection.rows("SELECT 1").first?.first?.integer
            return (interruption, one)
        }
        for await _ in started { break }
        // The statement is about to start or running: either way it stops at its next check.
        work.cancel()
        let (interruption, one) = try await work.value
        #expect(interruption?.isInterruption == true, "\(String(describing: interruption))")
        #expect(one == 1)
    }

    @Test("without the hook, a cancelled task's statement runs to its end")
    func notInstalled() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.file("db.sqlite")
        let count = try await Task(executorPreference: BlockingExecutor.shared) { () -> Int64? in
            withUnsafeCurrentTask { $0?.cancel() }
            let connection = try SQLiteConnection(path: path)
            return try connection.rows(
                """
                WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 100000)
                SELECT count(*) FROM counter
                """
            ).first?.first?.integer
        }.value
        #expect(count == 100_000)
    }
}
