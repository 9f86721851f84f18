#if Postgres
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    /// The job kinds a worker runs, each with its handler. Build it before starting the worker:
    ///
    /// ```swift
    /// var jobs = DurableJobs()
    /// jobs.register(Jobs.resize) { input, context in
    ///     try await resize(input.path, to: input.width)
    /// }
    /// let worker = DurableWorker(queue: queue, jobs: jobs)
    /// ```
    ///
    /// A handler runs in a `Task` of its own per attempt, with the task priority of the job's effective level
    /// (`JobPriority.taskPriority`). It should honour cancellation: a stopped attempt (by ``DurableQueue/cancel(_:)``,
    /// a timeout, a lost lease, or a shutdown past its grace period) has its task cancelled, and what it then
    /// throws is recorded by why it was stopped (cancelled, timed out, nothing, released). A handler that returns
    /// normally succeeds, whatever stopped it. Blocking work belongs on `BlockingExecutor`, not in the handler's
    /// task. Throw ``PermanentJobError`` to fail the job without further attempts.
    public struct DurableJobs: Sendable {
        /// A handler erased to JSON text in, JSON text out.
        typealias Handler = @Sendable (_ input: String, _ context: DurableJobContext) async throws -> String

        var handlers: [String: Handler] = [:]

        /// No kinds.
        public init() {}

        /// Registers `body` as the handler of `kind` (replacing an earlier one of the same name).
        ///
        /// The job's stored input is decoded as `Input` before `body` runs: one that does not decode fails the job for
        /// good (no retry) with an error naming the kind. The output is encoded as JSON and stored with the job.
        public mutating func register<Input, Output>(
            _ kind: DurableJobKind<Input, Output>,
            _ body: @escaping @Sendable (Input, DurableJobContext) async throws -> Output
        ) {
            let name = kind.name
            handlers[name] = { text, context in
                let input: Input
                do {
                    input = try DurableJobs.decoder.decode(Input.self, from: Data(text.utf8))
                } catch {
                    throw PermanentJobError("the input of kind \(name) does not decode as \(Input.self): \(error)")
                }
                let output = try await body(input, context)
                return try DurableJobs.encode(output)
            }
        }

        /// The kinds registered, sorted.
        public var kinds: [String] { handlers.keys.sorted() }

        static func encode<Value: Encodable>(_ value: Value) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }

        /// Shared by every job: both are thread-safe, and making one per job costs more than the coding.
        static let encoder: JSONEncoder = {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return encoder
        }()
        static let decoder = JSONDecoder()
    }

    /// An error a handler throws to fail its job for good, without the retries its options allow (for an input
    /// that can never work: a missing file, an unknown name). A stored input that does not decode fails the job with
    /// one of these too.
    public struct PermanentJobError: Error, Sendable, CustomStringConvertible {
        /// The job's error text.
        public var message: String

        /// An error whose text is `message`.
        public init(_ message: String) {
            self.message = message
        }

        public var description: String { message }
    }
#endif
