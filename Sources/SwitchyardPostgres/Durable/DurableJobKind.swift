#if Postgres
    /// A named kind of durable job, with the types of its input and output (stored as JSON).
    ///
    /// The name is what the database stores and what workers match on: the process that enqueues and the worker that
    /// runs a job share the kind by name, so declare each kind once in code both link:
    ///
    /// ```swift
    /// struct Resize: Codable, Sendable { var path: String; var width: Int }
    /// enum Jobs {
    ///     static let resize = DurableJobKind<Resize, String>("resize")
    /// }
    /// ```
    ///
    /// Changing a kind's `Input` in a way old rows no longer decode fails those jobs (never the worker) with an error
    /// that names the kind; add fields as optionals to keep old rows readable.
    public struct DurableJobKind<Input: Codable & Sendable, Output: Codable & Sendable>: Sendable, Hashable {
        /// The kind's name, as stored in `jobs.kind`.
        public let name: String

        /// The kind named `name` (any text; kinds are compared byte by byte).
        public init(_ name: String) {
            self.name = name
        }
    }

    /// The output of a job that returns nothing of interest (an empty JSON object).
    public struct DurableNothing: Codable, Sendable, Hashable {
        /// The value.
        public init() {}
    }
#endif
