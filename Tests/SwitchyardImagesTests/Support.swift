#if Images
    import NIOConcurrencyHelpers
    import Switchyard
    import SwitchyardTesting
    import Testing

    /// A gate tasks wait at until the test opens it (no sleeps).
    final class Gate: Sendable {
        private let state = NIOLockedValueBox<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLockedValue { state -> Bool in
                    if state.isOpen { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLockedValue { state in
                state.isOpen = true
                defer { state.waiters = [] }
                return state.waiters
            }
            waiters.forEach { $0.resume() }
        }
    }

    /// Waits until `events` (subscribed before the work that emits them; iterated to its end here) has delivered
    /// `count` events of `kind`; fails the test if they have not come within `timeout`.
    func waitFor(
        _ count: Int, _ kind: JobEvent.Kind, in events: AsyncStream<JobEvent>, _ what: String,
        timeout: Duration = .seconds(30), fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        await CallbackExpectation.event(
            what, within: timeout, fileID: fileID, filePath: filePath, line: line, column: column
        ) {
            var seen = 0
            for await event in events where event.kind == kind {
                seen += 1
                if seen == count { return }
            }
        }
    }

    /// A condition over state that a test's fakes change, waited for instead of polled: the fakes call ``changed()``
    /// after each change (outside their locks), and ``wait(_:timeout:fileID:filePath:line:column:until:)`` returns
    /// once its condition holds, checked when it starts and at each change.
    final class StateSignal: Sendable {
        private struct Waiter {
            let condition: @Sendable () -> Bool
            let met: CallbackExpectation
        }

        private let waiters = NIOLockedValueBox<(last: Int, waiting: [Int: Waiter])>((0, [:]))

        /// Checks the waiting conditions. Call without holding a lock that a condition takes.
        func changed() {
            let met = waiters.withLockedValue { state -> [CallbackExpectation] in
                guard !state.waiting.isEmpty else { return [] }
                let ready = state.waiting.filter { $0.value.condition() }
                for identifier in ready.keys { state.waiting[identifier] = nil }
                return ready.values.map(\.met)
            }
            for expectation in met { expectation.fulfill() }
        }

        /// Returns once `condition` holds; fails the test if it does not within `timeout`.
        func wait(
            _ what: String, timeout: Duration = .seconds(30), fileID: String = #fileID,
            filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
            until condition: @escaping @Sendable () -> Bool
        ) async {
            let met = CallbackExpectation(what, fileID: fileID, filePath: filePath, line: line, column: column)
            let identifier = waiters.withLockedValue { state in
                state.last += 1
                state.waiting[state.last] = Waiter(condition: condition, met: met)
                return state.last
            }
            changed()  // it may hold already
            await met.fulfillment(within: timeout, fileID: fileID, filePath: filePath, line: line, column: column)
            waiters.withLockedValue { _ = $0.waiting.removeValue(forKey: identifier) }
        }
    }
#endif
