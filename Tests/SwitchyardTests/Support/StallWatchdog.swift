/// Waits for `completion`, watching `progress`: returns `true` when `completion` returns, or `false` as soon as
/// `progress()` has not changed for `stallLimit`, after calling `onStall` (which records what is stuck).
///
/// A stress test in the full `swift test` shares two cores with every other suite: each hop of its tasks waits
/// behind the other tests' jobs, so it may take many times as long as alone, while still moving. A deadlock or a lost
/// wake-up stops it. A deadline cannot tell the two apart; a count that stops changing can.
///
/// `progress` must change whenever the watched work advances (a count of finished jobs, rounds or bodies).
/// On a stall, `completion` is cancelled; the group still waits for it to return, so a wait that ignores
/// cancellation holds the test until its time limit, with the stall already recorded.
func untilStalled(
    stallLimit: Duration = .seconds(30),
    progress: @escaping @Sendable () -> Int,
    onStall: () -> Void,
    _ completion: @escaping @Sendable () async -> Void
) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            await completion()
            return true
        }
        group.addTask {
            var last = progress()
            while true {
                do { try await Task.sleep(for: stallLimit) } catch { return true }  // cancelled: completion won
                let now = progress()
                if now == last { return false }
                last = now
            }
        }
        let finished = await group.next()!
        if !finished { onStall() }
        group.cancelAll()
        return finished
    }
}
