import Dispatch
import Foundation
import Logging
import SwitchyardDashboard
import Synchronization

/// A `DashboardServer` on 127.0.0.1 at a port the system picks, running in a task of its own, with a logger that
/// writes nothing (the bench's standard output carries its table or JSON lines, and the memory child's its URL).
final class LocalDashboardServer: Sendable {
    /// The base URL the server reported, like `http://127.0.0.1:34567/`.
    let url: String
    let port: Int
    /// The path of the event stream on this server (`/events` when mounted at `/`).
    let eventsPath: String
    private let task: Task<Void, Never>
    private let finished: DispatchSemaphore

    private init(url: String, port: Int, eventsPath: String, task: Task<Void, Never>, finished: DispatchSemaphore) {
        self.url = url
        self.port = port
        self.eventsPath = eventsPath
        self.task = task
        self.finished = finished
    }

    /// Starts a server of `dashboard` and waits (blocking the calling thread, never a task) until it listens; the
    /// reason if it failed or did not listen within `seconds`.
    static func start(_ dashboard: Dashboard, seconds: Double = 30) -> Result<LocalDashboardServer, StartFailure> {
        let listening = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let outcome = StartOutcome()
        let task = Task.detached {
            var server = DashboardServer(
                dashboard: dashboard, host: "127.0.0.1", port: 0,
                logger: Logger(label: "switchyard-bench.dashboard") { _ in SwiftLogNoOpLogHandler() })
            server.onListening = { url in
                outcome.state.withLock { $0.url = url }
                listening.signal()
            }
            do {
                try await server.run()
            } catch {
                outcome.state.withLock { $0.error = "\(error)" }
                listening.signal()
            }
            finished.signal()
        }
        guard listening.wait(timeout: .now() + seconds) == .success else {
            task.cancel()
            return .failure(StartFailure(reason: "the server did not listen within \(Int(seconds)) s"))
        }
        let (url, error) = outcome.state.withLock { ($0.url, $0.error) }
        guard let url, let parsed = parse(url) else {
            task.cancel()
            return .failure(StartFailure(reason: error.map { "the server failed: \($0)" } ?? "no URL"))
        }
        return .success(
            LocalDashboardServer(
                url: url, port: parsed.port, eventsPath: parsed.path + "events", task: task, finished: finished))
    }

    /// Cancels the server's task and waits up to 5 s for it to end; whether it ended.
    @discardableResult
    func stop() -> Bool {
        task.cancel()
        return finished.wait(timeout: .now() + 5) == .success
    }

    /// The port and the path (ending in `/`) of a base URL `http://HOST:PORT/PATH/`.
    static func parse(_ url: String) -> (port: Int, path: String)? {
        guard url.hasPrefix("http://") else { return nil }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        var path = String(rest.dropFirst(authority.count))
        if !path.hasSuffix("/") { path += "/" }
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...])
        else { return nil }
        return (port, path)
    }

    struct StartFailure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// What the server's task reports: its URL once it listens, or why it stopped.
    private final class StartOutcome: Sendable {
        let state = Mutex<(url: String?, error: String?)>((nil, nil))
    }
}

/// The memory case's server: this executable run as a probe child (`SWITCHYARD_BENCH_PROBE=dashboard-server:…`),
/// which serves a dashboard and prints `dashboard-url URL` on its standard output, then runs until its standard
/// input ends. Its resident memory is read from `/proc/PID/status`.
final class DashboardServerChild {
    let port: Int
    let eventsPath: String
    private let process: Process
    private let input: Pipe

    /// The line the child prints once it listens.
    static let urlPrefix = "dashboard-url "

    /// Starts the child and waits (up to `seconds`) for its URL; nil if it failed or did not print one.
    init?(probe: String, seconds: Double = 60) {
        process = Process()
        process.executableURL = URL(fileURLWithPath: ChildProcess.ownExecutable)
        process.environment = ProcessInfo.processInfo.environment.merging(["SWITCHYARD_BENCH_PROBE": probe]) { $1 }
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        // A child that never prints its URL is ended, which ends the read below.
        let printed = DashboardFlag()
        let watched = process
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            if !printed.isSet { watched.terminate() }
        }
        var text = ""
        var found: (port: Int, path: String)?
        while found == nil {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            for line in text.split(separator: "\n") where line.hasPrefix(Self.urlPrefix) {
                found = LocalDashboardServer.parse(String(line.dropFirst(Self.urlPrefix.count)))
            }
        }
        printed.set()
        guard let found else {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        port = found.port
        eventsPath = found.path + "events"
        // Whatever else the child prints is read and dropped, so that it never blocks on a full pipe.
        let reader = output.fileHandleForReading
        DispatchQueue.global().async { _ = reader.readDataToEndOfFile() }
    }

    /// A field of the child's `/proc/PID/status` (`VmHWM:`, `VmRSS:`), in bytes; nil where there is none.
    func statusBytes(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            let digits = line.dropFirst(field.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            if let digits, let kilobytes = Int(digits) { return kilobytes * 1024 }
        }
        return nil
    }

    /// Ends the child (its standard input closed; terminated if it is still running 5 s later) and waits for it.
    func stop() {
        try? input.fileHandleForWriting.close()
        let watched = process
        DispatchQueue.global().asyncAfter(deadline: .now() + 5) { if watched.isRunning { watched.terminate() } }
        process.waitUntilExit()
    }
}
