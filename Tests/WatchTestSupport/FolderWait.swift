#if Watch
    // What the file-watching tests and `switchyard watch`'s tests share: waits for what child processes do.
    import Switchyard
    import SwitchyardTesting
    import SwitchyardWatch
    import SystemPackage
    import Testing

    /// Waits for what a child process writes into `folder`: `probe` is checked once a `FileWatcher` of the folder
    /// (its direct entries) is watching, then after each change, until it returns a value. Records an issue and
    /// returns `nil` after `timeout`. No polling: the checks follow the folder's changes.
    public func untilFolderChanges<Value: Sendable>(
        _ folder: String, _ what: String, within timeout: Duration = .seconds(30),
        _ probe: @escaping @Sendable () -> Value?
    ) async -> Value? {
        let watcher: FileWatcher
        do {
            watcher = try await FileWatcher(FilePath(folder), options: .init(recursive: false, quietWindow: .zero))
        } catch {
            Issue.record("cannot watch \(folder): \(error)")
            return nil
        }
        defer { watcher.stop() }
        if let value = probe() { return value }
        let found = Isolated<Value?>(nil, label: "the awaited value")
        let reached = CallbackExpectation(what)
        let task = Task {
            for try await _ in watcher {
                guard let value = probe() else { continue }
                found.withValueBlocking { $0 = value }
                reached.fulfill()
                return
            }
        }
        await reached.fulfillment(within: timeout)
        task.cancel()
        _ = await task.result
        return found.withValueBlocking { $0 }
    }

    /// Waits until process `processID` has exited (a zombie counts); records an issue if it has not after `timeout`.
    public func untilProcessExits(_ processID: Int32, _ what: String, within timeout: Duration = .seconds(30)) async {
        do {
            if try await ProcessExit.wait(for: processID, timeout: timeout) { return }
            Issue.record("timed out after \(timeout) waiting until \(what)")
        } catch {
            Issue.record("cannot wait until \(what): \(error)")
        }
    }
#endif
