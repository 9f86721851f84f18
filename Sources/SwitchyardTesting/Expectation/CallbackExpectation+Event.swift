extension CallbackExpectation {
    /// Runs `event`, an `async` call that returns once something has happened in the code under test (a job
    /// started, a caller joined, bytes arrived), and waits for it to return; fails the running test if it has not
    /// returned within `timeout`, and then cancels it.
    ///
    /// The event itself needs no timer: the timeout is only a safety net that turns a hang into a failure naming
    /// `description`. The event runs in a task of its own, with the caller's priority; it is cancelled when the
    /// wait ends without it (a timeout, or the waiting task's cancellation), so an event that honours cancellation
    /// leaves nothing behind.
    ///
    /// ```swift
    /// let events = queue.events()                       // subscribed before the work starts
    /// let work = Task { try await queue.submit("import") { … }.value }
    /// await CallbackExpectation.event("the import started", within: .seconds(30)) {
    ///     for await event in events where event.kind == .started { return }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - description: What the event is, for the failure message.
    ///   - timeout: How long to wait, measured by `clock`.
    ///   - clock: The clock that measures `timeout`; `ContinuousClock()` by default.
    ///   - fileID: The file ID of the call site; leave the default.
    ///   - filePath: The file path of the call site; leave the default.
    ///   - line: The line of the call site; leave the default.
    ///   - column: The column of the call site; leave the default.
    ///   - event: The call that returns once the event has happened.
    /// - Returns: ``WaitResult/satisfied`` once `event` returned, ``WaitResult/timedOut`` (reported as a failure)
    ///   or ``WaitResult/cancelled``, as ``fulfillment(within:clock:fileID:filePath:line:column:)`` returns them.
    @discardableResult
    public static func event(
        _ description: String,
        within timeout: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ event: @escaping @Sendable () async -> Void
    ) async -> WaitResult {
        let happened = CallbackExpectation(description, fileID: fileID, filePath: filePath, line: line, column: column)
        let waiting = Task {
            await event()
            happened.fulfill()
        }
        defer { waiting.cancel() }
        return await happened.fulfillment(
            within: timeout, clock: clock, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
