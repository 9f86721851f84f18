#if Images
    import CVips

    /// Stops a render from any thread: its decode fails at its next read of the source (every few KiB of the
    /// encoded image), and the render throws ``ImageError/Reason/cancelled``. One-way: once cancelled, always.
    ///
    /// `@unchecked Sendable`: `flag` is allocated once in `init`, never reassigned, and freed in `deinit`; the
    /// integer it points to is only read and written through C atomics (`sy_flag_set`, `sy_flag_is_set`).
    /// `RenderCancellationTests` cancels renders from other threads under Thread Sanitizer.
    final class RenderCancellation: @unchecked Sendable {
        let flag: UnsafeMutablePointer<Int32>

        init() { flag = sy_flag_new() }

        deinit { sy_flag_free(flag) }

        func cancel() { sy_flag_set(flag) }

        var isCancelled: Bool { sy_flag_is_set(flag) != 0 }
    }
#endif
