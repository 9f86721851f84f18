#if Images
    import CVips

    /// How an ``ImagePipeline``'s threads are scheduled by the operating system (Linux; elsewhere every case
    /// leaves them as they are).
    ///
    /// Linux has no quality-of-service classes. A nice value gives the pipeline a smaller share of the processors
    /// when other threads want them, but a thread that wakes may still wait for a running pipeline thread's time
    /// slice to end (up to a scheduler tick, 4 ms at 250 Hz); `SCHED_IDLE` threads are preempted at once, at the
    /// price of starving whenever anything else keeps the processors busy.
    ///
    /// - Applied to a pipeline thread as each image starts. libvips' worker threads, which do most of the
    ///   decoding, are started by the pipeline's threads and inherit their scheduling; they are shared by the
    ///   whole process and keep the scheduling of the thread that started them, so give every pipeline of a
    ///   process the same scheduling. (``ImageFormat/isAvailable`` probes the encoders on a thread of its own at
    ///   nice 10, the default, whichever thread asks.)
    /// - One way: an unprivileged thread can be made less favoured but never more favoured again, so a
    ///   pipeline's scheduling is fixed for its lifetime rather than following each job's priority.
    public enum ThreadScheduling: Sendable, Hashable {
        /// As the process's threads are.
        case normal
        /// A nice value from 1 to 19: a smaller share of the processors when other threads compete for them
        /// (nice 10: about a tenth of a normal thread's share). The default, at 10.
        case niced(Int)
        /// `SCHED_IDLE`: runs only when no other thread of any process wants a processor, and is preempted at once
        /// by any thread that wakes. For an interactive process on a machine that is otherwise idle; while other
        /// work keeps the processors busy (a build, a busy server), the pipeline makes almost no progress.
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
