#if Images
    import Foundation
    import Switchyard
    import SwitchyardImages
    import Synchronization

    /// A flag set once, read from any thread.
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .releasing) }
        var isSet: Bool { value.load(ordering: .acquiring) }
    }

    extension ImagesSuite {
        /// The responsiveness probe (`SWITCHYARD_BENCH_PROBE=images-ticks:BUSY:LIST`): a task on the main actor
        /// wakes 60 times a second and records how late each wake-up is; with BUSY 1, a pipeline as wide as the
        /// processors makes 256 px thumbnails of every file in LIST meanwhile (otherwise the ticks run for 3 s).
        /// Prints the 99th percentile lateness in milliseconds. Runs the main queue (`dispatchMain`) and exits.
        static func tickProbe(_ specification: String) -> Never {
            let parts = specification.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let text = try? String(contentsOfFile: parts[1], encoding: .utf8) else {
                print("images-ticks: BUSY:LIST")
                exit(1)
            }
            let files = text.split(separator: "\n").map(String.init)
            let busy = parts[0] == "1"
            let finished = Flag()
            if busy {
                Task.detached {
                    let pipeline = ImagePipeline(configuration: .init(name: "ticks", memoryCacheCost: 0))
                    await withTaskGroup(of: Void.self) { group in
                        for file in files {
                            group.addTask {
                                _ = try? await pipeline.thumbnail(of: .file(file), ThumbnailOptions(width: 256))
                            }
                        }
                    }
                    finished.set()
                }
            }
            Task { @MainActor in
                let clock = ContinuousClock()
                let started = clock.now
                let period = Duration.nanoseconds(16_666_667)
                var lateness: [Double] = []
                var tick = 1
                while busy ? !finished.isSet : clock.now - started < .seconds(3) {
                    let target = started + period * tick
                    try? await clock.sleep(until: target, tolerance: .zero)
                    lateness.append(Double((clock.now - target) / .nanoseconds(1)) / 1e6)
                    tick += 1
                }
                lateness.sort()
                print(lateness.isEmpty ? 0 : lateness[min(lateness.count - 1, Int(Double(lateness.count) * 0.99))])
                exit(0)
            }
            dispatchMain()
        }
    }
#endif
