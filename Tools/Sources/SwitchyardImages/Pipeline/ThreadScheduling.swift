#if Images
    import CVips

    /// How an ``ImagePipeline``'s threads are scheduled by the operating system (Linux; elsewhere every case
    /// leaves them as they are).
    ///
    /// Linux has no quality-of-service classes, and giving a thread a higher nice value alone does not keep a busy
    /// pipeline from delaying the process's other threads: a waking thread may wait for the running one's time
    /// slice to end (up to a scheduler tick, 4 ms at 250 Hz), once per thread it hands work to.
    ///
    /// - Applied to a pipeline thread as each image starts. libvips' worker threads, which do most of the
    ///   decoding, are started by the pipeline's threads and inherit their scheduling; they are shared by the
    ///   whole process and keep the scheduling of the thread that started them, so give every pipeline of a
    ///   process the same scheduling.
    /// - One way: an unprivileged thread can be made less favoured but never more favoured again, so a
    ///   pipeline's scheduling is fixed for its lifetime rather than following each job's priority.
    public enum ThreadScheduling: Sendable, Hashable {
        /// As the process's threads are.
        case normal
        /// A nice value from 1 to 19: a smaller share of the processors when other threads compete for them.
        case niced(Int)
        /// `SCHED_IDLE`: runs only when no other thread wants a processor, and is preempted at once by any thread
        /// that wakes. On a busy machine, other processes' work goes first, however niced.
        case background

        /// Applies this scheduling to the calling thread.
        func applyToCurrentThread() {
            switch self {
            case .normal: break
            case .niced(let value):
                precondition((1...19).contains(value), "ThreadScheduling: a nice value must be 1–19")
                _ = sy_thread_lower_scheduling(0, Int32(value))
            case .background: _ = sy_thread_lower_scheduling(1, 0)
            }
        }
    }
#endif
