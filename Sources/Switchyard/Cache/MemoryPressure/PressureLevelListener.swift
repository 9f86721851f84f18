#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cgroup v1 `memory.pressure_level` notifications of one cgroup: one non-blocking eventfd per level
/// (`medium`, `critical`), registered once through `cgroup.event_control`.
///
/// `memory.pressure_level` cannot be read; the kernel signals an eventfd registered by writing
/// `"<eventfd> <fd of memory.pressure_level> <level>"` to `cgroup.event_control`. Each eventfd then counts the
/// events of its level (a `critical` event also counts as `medium`); ``drain()`` reads and resets the counts.
/// Closing the eventfds (in `deinit`) unregisters them.
///
/// Thread-safe: the descriptors never change after `init`, and concurrent drains only split the counts between
/// them. Every function blocks briefly on system calls: call from a ``BlockingExecutor`` thread.
final class PressureLevelListener: Sendable {
    /// The registered levels and their eventfds, or why registration failed (then empty).
    let eventDescriptors: [(level: String, descriptor: Int32)]
    /// Why the events are unavailable, or `nil` if they were registered.
    let unavailableReason: String?

    /// The levels registered, in order.
    static let levels = ["medium", "critical"]

    /// Registers eventfds for ``levels`` on the cgroup v1 `directory`; on failure, keeps the reason and no
    /// descriptor.
    init(directory: String) {
        switch Self.register(directory: directory) {
        case .success(let descriptors):
            eventDescriptors = descriptors
            unavailableReason = nil
        case .failure(let reason):
            eventDescriptors = []
            unavailableReason = "memory.pressure_level events unavailable for \(directory): \(reason.message)"
        }
    }

    deinit {
        for entry in eventDescriptors { close(entry.descriptor) }
    }

    /// The events delivered per level since the previous drain (`[:]` when unavailable), plus one message per
    /// eventfd that could not be read.
    func drain() -> (counts: [String: UInt64], problems: [String]) {
        var counts: [String: UInt64] = [:]
        var problems: [String] = []
        for (level, descriptor) in eventDescriptors {
            var count: UInt64 = 0
            let result = withUnsafeMutableBytes(of: &count) { read(descriptor, $0.baseAddress, $0.count) }
            if result == MemoryLayout<UInt64>.size {
                counts[level] = count
            } else if result < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                counts[level] = 0  // nothing since the last drain (EINTR: try again next reading)
            } else {
                problems.append("memory.pressure_level \(level) eventfd: \(KernelFile.message(errno))")
            }
        }
        return (counts, problems)
    }

    private struct Failure: Error {
        let message: String
    }

    private static func register(directory: String) -> Result<[(level: String, descriptor: Int32)], Failure> {
        #if os(Linux)
            guard let makeEventFD = eventFDFunction() else {
                return .failure(Failure(message: "eventfd is not available in this C library"))
            }
            let levelPath = KernelFile.join(directory, "memory.pressure_level")
            let controlPath = KernelFile.join(directory, "cgroup.event_control")
            let levelFile = open(levelPath, O_RDONLY | O_CLOEXEC)
            guard levelFile >= 0 else {
                return .failure(Failure(message: "\(levelPath): \(KernelFile.message(errno))"))
            }
            defer { close(levelFile) }  // the kernel holds what it needs once registered
            let control = open(controlPath, O_WRONLY | O_CLOEXEC)
            guard control >= 0 else {
                return .failure(Failure(message: "\(controlPath): \(KernelFile.message(errno))"))
            }
            defer { close(control) }
            var registered: [(level: String, descriptor: Int32)] = []
            for level in levels {
                // EFD_NONBLOCK and EFD_CLOEXEC are O_NONBLOCK and O_CLOEXEC by definition (linux/eventfd.h).
                let descriptor = makeEventFD(0, O_NONBLOCK | O_CLOEXEC)
                guard descriptor >= 0 else {
                    for entry in registered { close(entry.descriptor) }
                    return .failure(Failure(message: "eventfd: \(KernelFile.message(errno))"))
                }
                let command = Array("\(descriptor) \(levelFile) \(level)".utf8)
                let written = command.withUnsafeBytes { write(control, $0.baseAddress, $0.count) }
                guard written == command.count else {
                    let message = written < 0 ? KernelFile.message(errno) : "short write"
                    close(descriptor)
                    for entry in registered { close(entry.descriptor) }
                    return .failure(Failure(message: "\(controlPath): \(message)"))
                }
                registered.append((level, descriptor))
            }
            return .success(registered)
        #else
            return .failure(Failure(message: "cgroup v1 exists only on Linux"))
        #endif
    }

    #if os(Linux)
        private typealias EventFDFunction = @convention(c) (UInt32, Int32) -> Int32

        /// The C library's `eventfd(2)` wrapper. Swift's Glibc module does not import `<sys/eventfd.h>`, so the symbol
        /// is looked up at run time; its C signature is `int eventfd(unsigned int initval, int flags)`.
        private static func eventFDFunction() -> EventFDFunction? {
            guard let program = dlopen(nil, RTLD_NOW) else { return nil }
            defer { dlclose(program) }
            guard let symbol = dlsym(program, "eventfd") else { return nil }
            return unsafeBitCast(symbol, to: EventFDFunction.self)
        }
    #endif
}
