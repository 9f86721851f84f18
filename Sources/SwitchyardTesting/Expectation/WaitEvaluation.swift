/// The state of a wait on a list of expectations at one instant: which are satisfied, which failed.
///
/// Pure value logic shared by the waits' wake-up check (is the outcome already decided?) and their
/// final verdict. Each expectation is snapshotted under its own lock; snapshots of different
/// expectations are not taken atomically together, which is harmless because counts only grow and
/// "satisfied" sequence numbers are set once.
struct WaitEvaluation {
    /// The expectations, in the order the caller listed them.
    let expectations: [CallbackExpectation]
    /// One snapshot per expectation, same order.
    let snapshots: [CallbackExpectation.Snapshot]
    /// Indices of regular expectations whose count exceeds the upper bound.
    private(set) var overFulfilled: [Int] = []
    /// Indices of inverted expectations whose count reached the lower bound.
    private(set) var invertedFulfilled: [Int] = []
    /// Indices of regular expectations whose count is still below the lower bound.
    private(set) var unsatisfied: [Int] = []
    /// With `enforceOrder`, the first pair `(earlier, later)` of listed indices such that `later`
    /// was satisfied although `earlier` was satisfied after it, or not at all.
    private(set) var orderViolation: (earlier: Int, later: Int)?
    /// Whether the list contains an inverted expectation (then success needs the full timeout).
    private(set) var containsInverted = false

    /// Snapshots `expectations` now and classifies them.
    init(_ expectations: [CallbackExpectation], enforceOrder: Bool) {
        self.expectations = expectations
        self.snapshots = expectations.map { $0.snapshot() }
        var firstUnsatisfied: Int?
        var latestSatisfied: (index: Int, sequence: UInt64)?
        for (index, expectation) in expectations.enumerated() {
            let snapshot = snapshots[index]
            if expectation.isInverted {
                containsInverted = true
                if snapshot.count >= expectation.expectedCount.lowerBound {
                    invertedFulfilled.append(index)
                }
                continue  // inverted expectations take no part in ordering
            }
            if expectation.expectedCount.exceeds(snapshot.count) {
                overFulfilled.append(index)
            }
            // Satisfied from its creation, so it has no place in an order of events.
            if expectation.expectedCount.lowerBound == 0 { continue }
            guard let sequence = snapshot.satisfiedSequence else {
                unsatisfied.append(index)
                if firstUnsatisfied == nil { firstUnsatisfied = index }
                continue
            }
            guard enforceOrder, orderViolation == nil else { continue }
            if let firstUnsatisfied {
                orderViolation = (firstUnsatisfied, index)
            } else if let latest = latestSatisfied, sequence < latest.sequence {
                orderViolation = (latest.index, index)
            } else {
                latestSatisfied = (index, sequence)
            }
        }
    }

    /// Whether some failure has already happened.
    var hasFailure: Bool {
        !overFulfilled.isEmpty || !invertedFulfilled.isEmpty || orderViolation != nil
    }

    /// Whether the wait can end now, before its deadline: on a failure, or when every expectation
    /// is satisfied and none is inverted.
    var isDecisive: Bool {
        hasFailure || (unsatisfied.isEmpty && !containsInverted)
    }

    /// Whether the wait succeeded, given whether its deadline was reached.
    func isSuccess(deadlineReached: Bool) -> Bool {
        !hasFailure && unsatisfied.isEmpty && (!containsInverted || deadlineReached)
    }

    // MARK: - Messages

    /// `"download finished"`, quoted.
    private func name(_ index: Int) -> String {
        "\"\(expectations[index].expectationDescription)\""
    }

    /// The failure message for the inverted expectation at `index`.
    func invertedMessage(_ index: Int, timeout: Duration) -> String {
        "Inverted expectation \(name(index)) was fulfilled \(CallbackExpectation.times(snapshots[index].count)) "
            + "during a wait of \(timeout), but it \(expectations[index].invertedLimit)."
    }

    /// The failure message for ``orderViolation``, or `nil` if there is none.
    func orderMessage() -> String? {
        guard let (earlier, later) = orderViolation else { return nil }
        let listed = expectations.indices.filter { !expectations[$0].isInverted }.map(name)
        let satisfied = expectations.indices
            .filter { !expectations[$0].isInverted }
            .compactMap { index in snapshots[index].satisfiedSequence.map { (index, $0) } }
            .sorted { $0.1 < $1.1 }
            .map { name($0.0) }
        let how =
            snapshots[earlier].satisfiedSequence == nil ? "while \(name(earlier)) was not" : "before \(name(earlier))"
        return "Expectations were not satisfied in the required order: \(name(later)) was satisfied \(how). "
            + "Required order: \(listed.joined(separator: ", ")); "
            + "actual order so far: \(satisfied.joined(separator: ", "))."
    }

    /// The failure message for a timeout, naming every unsatisfied expectation with its counts.
    func timeoutMessage(timeout: Duration) -> String {
        let details = unsatisfied.map { index in
            "\(name(index)) expected \(expectations[index].expectedCount), "
                + "but it was fulfilled \(CallbackExpectation.times(snapshots[index].count))"
        }
        let subject: String
        if expectations.count == 1 {
            subject = "expectation"
        } else {
            subject = "\(unsatisfied.count) of \(expectations.count) expectations"
        }
        return "Timed out after \(timeout) waiting for \(subject): \(details.joined(separator: "; "))."
    }
}
