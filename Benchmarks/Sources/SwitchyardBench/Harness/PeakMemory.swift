import Foundation

/// The process's resident memory, from `/proc/self/status` on Linux (`getrusage` elsewhere).
enum PeakMemory {
    /// The peak resident set size so far, in bytes (`VmHWM`).
    static func peakBytes() -> Int? {
        #if os(Linux)
            return statusField("VmHWM:")
        #else
            var usage = rusage()
            guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
            return Int(usage.ru_maxrss)  // bytes on Darwin
        #endif
    }

    /// The current resident set size, in bytes (`VmRSS`).
    static func currentBytes() -> Int? {
        #if os(Linux)
            return statusField("VmRSS:")
        #else
            return peakBytes()
        #endif
    }

    /// Resets the kernel's peak so a suite measures its own peak (Linux: `echo 5 > /proc/self/clear_refs`).
    /// Returns whether the reset took effect.
    @discardableResult
    static func resetPeak() -> Bool {
        #if os(Linux)
            return (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
        #else
            return false
        #endif
    }

    private static func statusField(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            if let digits, let kilobytes = Int(digits) { return kilobytes * 1024 }
        }
        return nil
    }
}
