import Foundation

/// A child process of the watch suite (an anchor, `switchyard watch`, or this benchmark as the burst row's probe):
/// its standard input a pipe the suite writes to, its output and error each a pipe read by a ``WatchLineReader``, a
/// file, or nowhere. ``stop()`` ends it: SIGTERM, then SIGKILL after a grace period.
final class WatchProcess {
    /// Where the child's standard output or error goes.
    enum Sink {
        /// A pipe, read through ``WatchProcess/output`` or ``WatchProcess/errors``.
        case pipe
        /// A file, created (or truncated) first.
        case file(String)
        /// `/dev/null`.
        case discard
        /// This process's own.
        case inherit
    }

    private let process = Process()
    private let input = Pipe()
    private var inputClosed = false
    /// The pipes of `output` and `errors`, kept open while they are read.
    private var pipes: [Pipe] = []
    /// The child's standard output, when it is a pipe.
    private(set) var output: WatchLineReader?
    /// The child's standard error, when it is a pipe.
    private(set) var errors: WatchLineReader?

    /// Starts `executable` with `arguments` (and `environment` added to this process's); nil if it did not start.
    init?(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], output: Sink = .discard,
        errors: Sink = .discard
    ) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = input
        var files: [FileHandle] = []
        let outputPipe = Self.attach(output, files: &files) { self.process.standardOutput = $0 }
        let errorPipe = Self.attach(errors, files: &files) { self.process.standardError = $0 }
        defer { for file in files { try? file.close() } }
        do { try process.run() } catch { return nil }
        if let outputPipe {
            pipes.append(outputPipe)
            self.output = WatchLineReader(descriptor: outputPipe.fileHandleForReading.fileDescriptor)
        }
        if let errorPipe {
            pipes.append(errorPipe)
            self.errors = WatchLineReader(descriptor: errorPipe.fileHandleForReading.fileDescriptor)
        }
    }

    /// Hands `set` what the child's stream should be for `sink`; the pipe, for `.pipe`. A file opened here is added
    /// to `files`, to be closed once the child holds its own copy.
    private static func attach(_ sink: Sink, files: inout [FileHandle], _ set: (Any) -> Void) -> Pipe? {
        switch sink {
        case .pipe:
            let pipe = Pipe()
            set(pipe)
            return pipe
        case .file(let path):
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            if let handle = FileHandle(forWritingAtPath: path) {
                files.append(handle)
                set(handle)
            } else {
                set(FileHandle.nullDevice)
            }
        case .discard:
            set(FileHandle.nullDevice)
        case .inherit:
            break
        }
        return nil
    }

    var processIdentifier: Int32 { process.processIdentifier }

    var isRunning: Bool { process.isRunning }

    /// Writes `text` to the child's standard input; false if it could not (the child has exited: with SIGPIPE
    /// ignored, the write fails with EPIPE instead of ending this process).
    @discardableResult
    func send(_ text: String) -> Bool {
        guard !inputClosed else { return false }
        let descriptor = input.fileHandleForWriting.fileDescriptor
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            bytes = bytes.dropFirst(written)
        }
        return true
    }

    /// Closes the child's standard input (it reads the end of the file).
    func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        try? input.fileHandleForWriting.close()
    }

    /// Sends `number` (SIGSTOP, SIGCONT, …) to the child.
    func send(signal number: Int32) { kill(process.processIdentifier, number) }

    /// Waits up to `seconds` for the child to exit; whether it did.
    func waitForExit(within seconds: Double) -> Bool {
        let deadline = Clockwork.now() + UInt64(max(0, seconds) * 1e9)
        while process.isRunning {
            if Clockwork.now() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Ends the child: its input closed, SIGCONT (should it be stopped) and SIGTERM, SIGKILL if it is still running
    /// `grace` seconds later; then waits for it. Idempotent.
    func stop(grace: Double = 5) {
        closeInput()
        if process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            process.terminate()
            if !waitForExit(within: grace) { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
    }
}
