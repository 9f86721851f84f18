import Foundation

/// Confines every thread of this process to one CPU and back (Linux `sched_setaffinity`), for measurements whose
/// subject and anchor must share the same scheduling conditions. Threads started while pinned inherit the pinning
/// from the thread that starts them, child processes from the thread that spawns them. Elsewhere: nothing.
enum ThreadAffinity {
    static func pinProcess(toCPU cpu: Int) { apply([cpu]) }

    /// Every CPU the machine has again.
    static func unpinProcess() { apply(Array(0..<ProcessInfo.processInfo.activeProcessorCount)) }

    #if os(Linux)
        /// `sched_setaffinity`, which Glibc declares only under `_GNU_SOURCE`, looked up at run time.
        private typealias SetAffinity = @convention(c) (Int32, Int, UnsafeRawPointer) -> Int32
        private static let setAffinity: SetAffinity? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_setaffinity") else { return nil }
            return unsafeBitCast(symbol, to: SetAffinity.self)
        }()
    #endif

    private static func apply(_ cpus: [Int]) {
        #if os(Linux)
            guard let setAffinity else { return }
            var mask = [UInt64](repeating: 0, count: 16)  // cpu_set_t: 1,024 bits
            for cpu in cpus where cpu < 1024 { mask[cpu / 64] |= 1 << UInt64(cpu % 64) }
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            mask.withUnsafeBytes { bytes in
                for task in tasks.compactMap({ Int32($0) }) {
                    _ = setAffinity(task, bytes.count, bytes.baseAddress!)
                }
            }
        #endif
    }
}
