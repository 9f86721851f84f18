#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A worker thread waiting for work, on a signal of its own so that the executor can wake exactly it.
///
/// Unchecked-Sendable invariant: `isWoken` is read and written only while the executor's `condition` is locked.
/// Exercised under Thread Sanitizer by `BlockingExecutorTests`.
final class IdleThread: @unchecked Sendable {
    let signal = PlatformCondition.Signal()
    /// Set when the executor takes it off the idle stack to hand it work.
    var isWoken = false
}

/// What a new worker thread needs: its executor and its name.
final class WorkerContext {
    let executor: BlockingExecutor
    /// `<name>-<number>`, the name cut (in bytes, before the number) to what the platform keeps: 15 bytes on
    /// Linux, 63 on Darwin. So the number always shows, even for a long executor name.
    let threadName: [UInt8]

    init(executor: BlockingExecutor, name: String, number: Int) {
        self.executor = executor
        #if canImport(Darwin)
            let limit = 63
        #else
            let limit = 15
        #endif
        let suffix = Array("-\(number)".utf8)
        var prefix = Array(name.utf8.prefix(max(0, limit - suffix.count)))
        // Never cut inside a character: drop a partial UTF-8 sequence at the end.
        if prefix.count < name.utf8.count, let lead = prefix.lastIndex(where: { $0 & 0b1100_0000 != 0b1000_0000 }) {
            let byte = prefix[lead]
            let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            if prefix.count - lead < length { prefix.removeSubrange(lead...) }
        }
        threadName = prefix + suffix
    }

    func main() {
        #if canImport(Darwin)
            pthread_setname_np(String(decoding: threadName, as: UTF8.self))
        #else
            // Glibc's headers hide pthread_setname_np from Swift; the kernel's own interface does the same job.
            let descriptor = open("/proc/thread-self/comm", O_WRONLY)
            if descriptor >= 0 {
                _ = threadName.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
            }
        #endif
        executor.workerLoop()
    }
}
