/// A thread-safe counter of "something happened" events that a test can wait for with a timeout.
///
/// Create an expectation, hand it to the code under test (any thread, task or callback may call
/// ``fulfill(_:fileID:filePath:line:column:)``), then `await` one of the `fulfillment` methods. The
/// wait returns as soon as the expectation is satisfied; if that does not happen within the
/// timeout, the **running test fails** (see "Reporting" below) and the wait returns
/// ``WaitResult/timedOut``.
///
/// ```swift
/// @Test func downloadCompletes() async {
///     let finished = CallbackExpectation("download finished")
///     downloader.start { _ in finished.fulfill() }        // called later, on any thread
///     await finished.fulfillment(within: .seconds(5))
/// }
///
/// @Test func heartbeatBeatsOncePerSecond() async throws {
///     let clock = ManualClock()
///     let beat = CallbackExpectation("heartbeat", expectedCount: 3)
///     let heart = Heartbeat(interval: .seconds(1), clock: clock) { beat.fulfill() }
///     for _ in 1...3 {
///         try await clock.waitForSleepers(count: 1)      // the heartbeat is sleeping
///         clock.advance(by: .seconds(1))                 // wake it, deterministically
///     }
///     await beat.fulfillment(within: .seconds(5))      // real-time safety net only
///     heart.stop()
/// }
/// ```
///
/// ## Counting
/// The ``expectedCount`` is a range (``ExpectedCount``). The expectation is *satisfied* once its
/// count reaches ``ExpectedCount/lowerBound``, and *over-fulfilled* as soon as its count exceeds
/// ``ExpectedCount/upperBound``, which is a failure.
///
/// An *inverted* expectation asserts that something does **not** happen: a wait on it lasts the
/// whole timeout and succeeds if the count stays below `expectedCount.lowerBound` (1 by default);
/// it fails as soon as the count reaches that bound. `fulfill` itself never reports an inverted
/// expectation: the running wait does, and so does every later wait on it (the count never goes
/// back down). Fulfilling it when no wait follows goes unreported.
///
/// ## Reporting
/// Failures are reported to the test framework that runs the current test: Swift Testing
/// (`Issue.record`, so `withKnownIssue` can match them) when `Test.current != nil`, XCTest
/// (`XCTFail`) otherwise. Failures found by a wait are attributed to the wait's call site and
/// reported from the waiting task, so always wait from the test's own task or one of its child
/// tasks.
///
/// Over-fulfillment is reported exactly once per expectation, by the first of:
/// 1. a wait that is running when it happens (at the wait's source location);
/// 2. otherwise, the `fulfill` call that first pushes the count above the bound, immediately, if
///    that call runs in a Swift Testing test
///    context (`Test.current != nil`: the test's task or a non-detached task created from it), at
///    the `fulfill` call's source location;
/// 3. otherwise, the next wait on the expectation (at the wait's source location);
/// 4. otherwise, the expectation's deinitializer, if the last reference is released in a Swift
///    Testing test context (at the location where the expectation was created).
///
/// Under XCTest only waits report it (items 1 and 3). A wait that finds it already reported still
/// returns ``WaitResult/overFulfilled``, without recording it again.
///
/// If none of these happens (for example the extra `fulfill` runs on a detached task after the last
/// wait, and the expectation outlives the test), the over-fulfillment is not reported.
///
/// ## Former name
/// This type was called `Expectation`, which clashed with Swift Testing's type of that name in every file
/// importing both modules; `Expectation` remains as a deprecated alias for one release (while it exists, the name
/// `Expectation` stays ambiguous in such files: write `CallbackExpectation`).
///
/// ## Thread safety
/// All state is protected by a `Synchronization.Mutex`; every member may be used concurrently from
/// any thread or task. `fulfill` never suspends and only holds the lock for a few instructions.
public final class CallbackExpectation: Sendable, CustomStringConvertible {
    /// The human-readable description given at creation, quoted in every failure message.
    public let expectationDescription: String

    /// How many fulfillments satisfy this expectation.
    public let expectedCount: ExpectedCount

    /// Whether this expectation asserts that its event does *not* happen during a wait.
    public let isInverted: Bool

    /// Where the expectation was created; used for failures reported from `deinit`.
    let creationLocation: FailureLocation

    /// The mutable state; see ``State``.
    private let state: LockedState<State>

    /// Creates an expectation.
    ///
    /// - Parameters:
    ///   - description: A description quoted in failure messages, such as `"download finished"`.
    ///   - expectedCount: How many fulfillments satisfy the expectation; `1` by default. Accepts an
    ///     integer literal or an ``ExpectedCount`` such as `.atLeast(2)`.
    ///   - inverted: If `true`, the expectation fails when its count reaches
    ///     `expectedCount.lowerBound` while a wait is running.
    ///   - fileID: The file ID of the call site; leave the default.
    ///   - filePath: The file path of the call site; leave the default.
    ///   - line: The line of the call site; leave the default.
    ///   - column: The column of the call site; leave the default.
    /// - Precondition: An inverted expectation needs `expectedCount.lowerBound >= 1`.
    public init(
        _ description: String,
        expectedCount: ExpectedCount = 1,
        inverted: Bool = false,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        precondition(
            !inverted || expectedCount.lowerBound >= 1,
            "Inverted expectation \"\(description)\" needs an expected count of at least 1 (got \(expectedCount))"
        )
        self.expectationDescription = description
        self.expectedCount = expectedCount
        self.isInverted = inverted
        self.creationLocation = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        var initial = State()
        if expectedCount.lowerBound == 0 {
            initial.satisfiedSequence = SequenceNumber.next()
        }
        self.state = LockedState(initial)
    }

    deinit {
        let unreported = state.withLock { state -> Int? in
            state.overFulfillment == .pending ? state.count : nil
        }
        if let count = unreported, TestFailureReporter.isInSwiftTestingTest {
            TestFailureReporter.record(
                overFulfilledMessage(count: count) + " (detected when the expectation was deallocated)",
                at: creationLocation
            )
        }
    }

    /// Records that the awaited event happened `count` times.
    ///
    /// Callable from any thread, task or callback. It never suspends and never blocks beyond short
    /// internal locks: it updates the count under this expectation's lock, then synchronously
    /// notifies the running waits, which briefly lock each expectation they wait for and at most
    /// resume a continuation. The count saturates at `Int.max`.
    ///
    /// If this call pushes the count above ``ExpectedCount/upperBound`` and no wait is running, and
    /// the call runs in a Swift Testing test context, the over-fulfillment is recorded immediately
    /// (a synchronous `Issue.record`) at this call's source location; see "Reporting" in the type's
    /// documentation for the other cases.
    ///
    /// - Parameters:
    ///   - count: How many fulfillments to record; `1` by default. `0` does nothing.
    ///   - fileID: The file ID of the call site; leave the default.
    ///   - filePath: The file path of the call site; leave the default.
    ///   - line: The line of the call site; leave the default.
    ///   - column: The column of the call site; leave the default.
    /// - Precondition: `count >= 0`.
    public func fulfill(
        _ count: Int = 1,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        precondition(count >= 0, "Cannot fulfill \"\(expectationDescription)\" a negative number of times (\(count))")
        guard count > 0 else { return }
        let (observers, overFulfilledCount) = state.withLock { state -> ([@Sendable () -> Void], Int?) in
            let (sum, overflow) = state.count.addingReportingOverflow(count)
            state.count = overflow ? Int.max : sum
            if state.satisfiedSequence == nil, state.count >= expectedCount.lowerBound {
                state.satisfiedSequence = SequenceNumber.next()
            }
            var reportNow: Int? = nil
            if !isInverted, state.overFulfillment == .none, expectedCount.exceeds(state.count) {
                if state.observers.isEmpty, TestFailureReporter.isInSwiftTestingTest {
                    state.overFulfillment = .reported
                    reportNow = state.count
                } else {
                    // A running wait (or the next one, or deinit) reports it.
                    state.overFulfillment = .pending
                }
            }
            return (Array(state.observers.values), reportNow)
        }
        for observer in observers {
            observer()
        }
        if let overFulfilledCount {
            TestFailureReporter.record(
                overFulfilledMessage(count: overFulfilledCount),
                at: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            )
        }
    }

    /// How many times the expectation has been fulfilled so far (saturating at `Int.max`).
    public var fulfillmentCount: Int {
        state.withLock { $0.count }
    }

    /// Whether the current count passes: within ``expectedCount`` for a regular expectation, below
    /// `expectedCount.lowerBound` for an inverted one.
    public var isSatisfied: Bool {
        let count = fulfillmentCount
        return isInverted ? count < expectedCount.lowerBound : expectedCount.contains(count)
    }

    /// The description and counts, such as
    /// `CallbackExpectation "download finished": fulfilled 0 times, expected exactly 1 fulfillment` or
    /// `Inverted expectation "no crash": fulfilled 0 times, must not be fulfilled`.
    public var description: String {
        let count = fulfillmentCount
        if isInverted {
            return
                "Inverted expectation \"\(expectationDescription)\": fulfilled \(Self.times(count)), \(invertedLimit)"
        }
        return "CallbackExpectation \"\(expectationDescription)\""
            + ": fulfilled \(Self.times(count)), expected \(expectedCount)"
    }

    // MARK: - Internal interface for waits

    /// Registers `observer`, called synchronously (outside the lock) after every `fulfill`, and
    /// returns a token for ``removeObserver(_:)``.
    func addObserver(_ observer: @escaping @Sendable () -> Void) -> UInt64 {
        let token = SequenceNumber.next()
        state.withLock { $0.observers[token] = observer }
        return token
    }

    /// Unregisters the observer registered under `token`.
    func removeObserver(_ token: UInt64) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }

    /// A consistent copy of the mutable state.
    func snapshot() -> Snapshot {
        state.withLock { Snapshot(count: $0.count, satisfiedSequence: $0.satisfiedSequence) }
    }

    /// Takes responsibility for reporting the over-fulfillment: returns `true` exactly once, to the
    /// first caller after the count exceeded the upper bound, unless `fulfill` already reported it.
    func claimOverFulfillmentReport() -> Bool {
        state.withLock { state in
            guard state.overFulfillment == .pending else { return false }
            state.overFulfillment = .reported
            return true
        }
    }

    /// The failure message for a count above the upper bound.
    func overFulfilledMessage(count: Int) -> String {
        "CallbackExpectation \"\(expectationDescription)\" was over-fulfilled: expected \(expectedCount), "
            + "but it was fulfilled \(Self.times(count))."
    }

    /// The rule an inverted expectation enforces: `"must not be fulfilled"` or
    /// `"must be fulfilled fewer than 3 times"`.
    var invertedLimit: String {
        expectedCount.lowerBound == 1
            ? "must not be fulfilled"
            : "must be fulfilled fewer than \(Self.times(expectedCount.lowerBound))"
    }

    /// `"1 time"`, `"2 times"`, …
    static func times(_ count: Int) -> String {
        count == 1 ? "1 time" : "\(count) times"
    }

    /// A copy of the mutable counters at one instant.
    struct Snapshot: Sendable {
        /// The fulfillment count.
        var count: Int
        /// When the count first reached `expectedCount.lowerBound` (a global ``SequenceNumber``),
        /// or `nil` if it has not yet.
        var satisfiedSequence: UInt64?
    }

    /// Who still has to report an over-fulfillment.
    enum OverFulfillmentReport: Equatable {
        /// The count has not exceeded the upper bound.
        case none
        /// The count exceeded the upper bound and nobody has reported it yet.
        case pending
        /// The over-fulfillment has been reported.
        case reported
    }

    /// The state guarded by the mutex.
    struct State {
        /// The fulfillment count.
        var count = 0
        /// See ``Snapshot/satisfiedSequence``.
        var satisfiedSequence: UInt64?
        /// Invariant: `.none` iff the count does not exceed the upper bound (or the expectation is
        /// inverted).
        var overFulfillment = OverFulfillmentReport.none
        /// Callbacks of running waits, keyed by token.
        var observers: [UInt64: @Sendable () -> Void] = [:]
    }
}

/// The former name of ``CallbackExpectation``; it clashed with Swift Testing's `Expectation`.
@available(*, deprecated, renamed: "CallbackExpectation")
public typealias Expectation = CallbackExpectation
