#if CLI
    import Foundation

    /// Signal names as `kill` takes them (`TERM`, `SIGTERM`, `term`, or a number), for `switchyard watch --signal`.
    enum SignalName {
        private static let known: [(name: String, number: Int32)] = [
            ("HUP", SIGHUP), ("INT", SIGINT), ("QUIT", SIGQUIT), ("KILL", SIGKILL), ("USR1", SIGUSR1),
            ("USR2", SIGUSR2), ("ALRM", SIGALRM), ("TERM", SIGTERM), ("CONT", SIGCONT), ("WINCH", SIGWINCH),
        ]

        /// The number of the signal `text` names, or `nil` when it names none (numbers 1...64 are taken as they
        /// are).
        static func number(_ text: String) -> Int32? {
            var name = text.uppercased()
            if name.hasPrefix("SIG") { name.removeFirst(3) }
            if let number = Int32(name) { return (1...64).contains(number) ? number : nil }
            return known.first { $0.name == name }?.number
        }

        /// `SIGTERM` for 15; `signal N` for a number without a name here.
        static func name(_ number: Int32) -> String {
            known.first { $0.number == number }.map { "SIG" + $0.name } ?? "signal \(number)"
        }
    }
#endif
