#if CLI
    import Foundation
    import SwitchyardWatch
    import SystemPackage

    /// Runs `switchyard watch` once its options are read: takes over SIGINT, SIGTERM and SIGHUP, starts the watcher,
    /// then feeds batches and signals to the command loop (or, with `--json`, to the event printer) until it ends.
    ///
    /// The signals are taken over before anything else starts, so that no stop signal can end `switchyard` and leave
    /// a command running. Every task (signals, batches, exits and stops) belongs to one task group, which is
    /// cancelled when the loop ends; by then no run of the command is left.
    enum WatchRunner {
        /// Returns the exit status: 128 + the number of the stop signal that ended the watch, or 1 when the paths
        /// cannot be watched or the watch failed.
        static func run(roots: [FilePath], options: FileWatcher.Options, plan: WatchPlan?, output: WatchOutput) async
            -> Int32
        {
            let (inputs, post) = AsyncStream.makeStream(of: WatchInput.self)
            return await withDiscardingTaskGroup(returning: Int32.self) { tasks in
                let (observing, observed) = AsyncStream.makeStream(of: Void.self)
                tasks.addTask {
                    var signals = Signals([SIGINT, SIGTERM, SIGHUP]).makeAsyncIterator()
                    observed.finish()
                    while let number = await signals.next() { post.yield(.signal(number)) }
                }
                for await _ in observing {}

                let watcher: FileWatcher
                do {
                    watcher = try await FileWatcher(roots, options: options)
                } catch {
                    output.error("\(error)")
                    tasks.cancelAll()
                    return 1
                }
                let shown = watcher.paths.map { output.display($0) }.joined(separator: ", ")
                let directories = watcher.watchedDirectories
                output.notice("watching \(shown) (\(directories) \(directories == 1 ? "directory" : "directories"))")
                tasks.addTask {
                    do {
                        for try await batch in watcher { post.yield(.batch(batch)) }
                        post.yield(.watchEnded("the watch ended"))
                    } catch {
                        post.yield(.watchEnded("\(error)"))
                    }
                }

                let status: Int32
                if let plan {
                    var loop = CommandLoop(plan: plan, output: output, inputs: post)
                    status = await loop.run(inputs, tasks: &tasks)
                } else {
                    status = await WatchEventPrinter().run(inputs, output: output)
                }
                watcher.stop()
                tasks.cancelAll()
                return status
            }
        }
    }
#endif
