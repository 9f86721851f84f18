#if Postgres
    /// An error of a durable queue: a job's own end (failed or cancelled, as seen by a process awaiting its result)
    /// or a misuse the database refused.
    public struct DurableError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong.
        public enum Kind: Sendable, Hashable {
            /// The job failed for good; ``DurableError/message`` is its last error.
            case jobFailed
            /// The job was cancelled; ``DurableError/message`` says by whom or by which dependency.
            case jobCancelled
            /// No job has the id (never enqueued, or pruned).
            case noSuchJob
            /// A stored input or output does not decode as the kind's type.
            case undecodable
            /// An input PostgreSQL cannot store: its JSON holds a NUL character (`\u0000`), which `jsonb` refuses.
            case unstorable
            /// The database holds a newer version of the queue's schema than this library knows: upgrade the library.
            case schemaTooNew
            /// The attempt is no longer the job's current one (its lease expired and the job was handed to another
            /// worker): nothing it writes in a completing transaction is committed.
            case staleAttempt
            /// The connection closed while a statement waited for its answer (the server restarted, or the network
            /// dropped): whether the statement took effect is unknown.
            case connectionLost
            /// The job cannot run again (``DurableQueue/retry(_:)``): it has not failed or been cancelled, or one of
            /// its dependencies has not succeeded.
            case notRetryable
        }

        /// What went wrong.
        public var kind: Kind
        /// The job concerned, when there is one.
        public var jobID: Int64?
        /// The explanation (a failed job's error text as its handler threw it).
        public var message: String

        /// An error of `kind`.
        public init(_ kind: Kind, jobID: Int64? = nil, _ message: String) {
            self.kind = kind
            self.jobID = jobID
            self.message = message
        }

        /// The job (if any) and the message.
        public var description: String {
            guard let jobID else { return message }
            return "job \(jobID): \(message)"
        }
    }
#endif
