#if Watch && os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import Foundation
    import Synchronization
    import SystemPackage
    import SwitchyardTesting
    import Testing

    @testable import SwitchyardWatch

    /// A temporary directory for one test, removed at the end.
    final class TemporaryTree: Sendable {
        let root: FilePath

        init() {
            var template = Array("/tmp/switchyard-watch-XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            precondition(made != nil, "mkdtemp failed")
            root = FilePath(String(cString: made!))
        }

        deinit { remove(root) }

        func path(_ relative: String) -> FilePath { root.appending(relative) }

        /// Writes `contents` to `relative` (created or truncated), making no directories.
        func write(_ relative: String, _ contents: String = "x") { write(path(relative), contents) }

        func write(_ path: FilePath, _ contents: String = "x") {
            let descriptor = path.withPlatformString { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            precondition(descriptor >= 0, "cannot write \(path)")
            _ = contents.utf8CString.withUnsafeBufferPointer { Glibc.write(descriptor, $0.baseAddress, $0.count - 1) }
            close(descriptor)
        }

        func mkdir(_ relative: String) {
            let result = path(relative).withPlatformString { Glibc.mkdir($0, 0o755) }
            precondition(result == 0, "cannot mkdir \(relative)")
        }

        func rename(_ from: String, _ to: String) {
            let result = path(from).withPlatformString { source in
                path(to).withPlatformString { Glibc.rename(source, $0) }
            }
            precondition(result == 0, "cannot rename \(from)")
        }

        func unlink(_ relative: String) { _ = path(relative).withPlatformString { Glibc.unlink($0) } }

        /// `rm -r`.
        func remove(_ path: FilePath) { try? FileManager.default.removeItem(atPath: path.string) }
    }

    /// Batches a watcher delivered, collected by a task until a condition holds.
    final class EventLog: Sendable {
        let events = Mutex<[FileEvent]>([])

        var all: [FileEvent] { events.withLock { $0 } }

        /// Iterates `watcher` until `condition` holds for everything received (this call's and earlier calls'
        /// events), or `timeout` passes (a test failure). Returns everything received.
        @discardableResult
        func collect(
            from watcher: FileWatcher, within timeout: Duration = .seconds(20),
            until condition: @escaping @Sendable ([FileEvent]) -> Bool
        ) async -> [FileEvent] {
            let reached = CallbackExpectation("expected file events")
            if condition(all) { return all }
            let task = Task {
                do {
                    for try await batch in watcher {
                        let received = events.withLock {
                            $0 += batch
                            return $0
                        }
                        if condition(received) {
                            reached.fulfill()
                            return
                        }
                    }
                } catch {
                    Issue.record("the watcher failed: \(error)")
                }
            }
            await reached.fulfillment(within: timeout)
            task.cancel()
            _ = await task.result
            return all
        }

        func clear() { events.withLock { $0.removeAll() } }
    }

    extension Array where Element == FileEvent {
        /// The paths reported created (directly, or found by a rescan).
        var createdPaths: Set<FilePath> {
            Set(compactMap { if case .created(let path) = $0 { path } else { nil } })
        }
    }
#endif
