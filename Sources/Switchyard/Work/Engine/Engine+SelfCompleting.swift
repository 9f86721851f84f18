extension Engine {
    /// Ends the attempt of a self-completing job (see ``JobCompletion``), on the thread that completed it: as
    /// ``endAttempt(of:end:retryAllowed:on:)`` does for a worker's attempt, without a worker to hand the next job
    /// to. Lock not held.
    static func attemptCompleted(_ job: JobNode, _ attempt: SelfCompletingAttempt, end: AttemptEnd) {
        var transaction = Transaction(region: job.queue.region.lockCurrent())
        admitIntake(&transaction)
        // Defensive: an attempt completes once (``SelfCompletingAttemptState``), and only the running one may end.
        guard job.phase == .running, job.selfCompletingAttempt === attempt else { return finishHold(&transaction) }
        job.selfCompletingAttempt = nil
        transaction.discardedValues.append(attempt)
        transaction.bodyOwner = job
        attemptEnded(job, end: end, retryAllowed: false, &transaction)
        transaction.bodyOwner = nil
        let finished = job.phase == .finished
        finishHold(&transaction)
        if finished { job.clearBody() }  // only this thread reads the body, and the job can no longer run
    }
}
