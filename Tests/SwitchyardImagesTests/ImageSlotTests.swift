#if Images
    import Switchyard
    import SwitchyardImages
    import SwitchyardTesting
    import NIOConcurrencyHelpers
    import Synchronization
    import Testing

    @Suite("ImageSlot: only the latest load's results reach the slot")
    struct ImageSlotTests {
        @Test("10,000 random reuse sequences: every display is the latest load's, cancelled loads never display")
        func randomReuse() async {
            var random = SeededRandomNumberGenerator.forTest("ImageSlotTests.randomReuse")
            var displays = 0
            for _ in 0..<10_000 {
                displays += await SlotLife(fifo: Bool.random(using: &random)).run(&random)
            }
            print("ImageSlotTests.randomReuse: \(displays) displays checked")
            #expect(displays > 0, "the random lives displayed nothing to check")
        }

        @Test("the pipeline-backed slot shows the placeholder, then the thumbnail; a reused slot only the new one")
        func pipelineSlot() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "slot", width: 2))
            let shown = NIOLockedValueBox<[String]>([])
            let delivery = ManualDelivery()
            let slot = ImageSlot(pipeline: pipeline, delivery: delivery.delivery) { content in
                shown.withLockedValue { $0.append(Self.describe(content)) }
            }
            let first = ImageSource.bytes(Fixtures.picture(width: 800, height: 600), identity: "first")
            let second = ImageSource.bytes(Fixtures.picture(width: 600, height: 800), identity: "second")
            slot.load(first, ThumbnailOptions(width: 100))
            slot.load(second, ThumbnailOptions(width: 100))  // the cell is reused before the first one arrives
            // Two placeholders, two results.
            await delivery.changes.wait("both loads delivered") { delivery.count == 4 }
            delivery.runAll()
            #expect(shown.withLockedValue { $0 } == ["placeholder", "image 75x100"])
            slot.load(second, ThumbnailOptions(width: 100))  // a memory-cache hit: shown without a placeholder
            slot.load(nil, ThumbnailOptions(width: 100))
            delivery.runAll()
            #expect(shown.withLockedValue { $0 } == ["placeholder", "image 75x100", "placeholder"])
        }

        static func describe(_ content: ImageSlot.Content) -> String {
            switch content {
            case .placeholder: return "placeholder"
            case .image(let thumbnail): return "image \(thumbnail.width)x\(thumbnail.height)"
            case .failure(let error): return "failure \(error.reason)"
            }
        }
    }

    /// A delivery the test runs by hand: in order (a serial queue) or in any order (a concurrent one).
    final class ManualDelivery: Sendable {
        private let queue = NIOLockedValueBox<[@Sendable () -> Void]>([])
        private let appended = Atomic<Int>(0)
        /// Told of every delivery handed over.
        let changes: StateSignal

        init(changes: StateSignal = StateSignal()) { self.changes = changes }

        var delivery: Delivery {
            Delivery { work in
                self.queue.withLockedValue { $0.append(work) }
                self.appended.add(1, ordering: .sequentiallyConsistent)
                self.changes.changed()
            }
        }

        /// Deliveries handed over so far (run or not).
        var count: Int { appended.load(ordering: .sequentiallyConsistent) }
        var pending: Int { queue.withLockedValue { $0.count } }

        func run(at index: Int) {
            let work = queue.withLockedValue { $0.remove(at: index) }
            work()
        }

        func runAll() {
            while pending > 0 { run(at: 0) }
        }
    }

    /// One slot's random life: loads (a thumbnail made later, a cache hit, no source), cancels, results arriving in
    /// random order (success or failure), deliveries run in between.
    private final class SlotLife: Sendable {
        let fifo: Bool
        /// Told of every delivery handed over and every change of the make calls' state.
        let changes = StateSignal()
        let delivery: ManualDelivery
        let held: HeldThumbnails
        /// What the test knows: the request each load number made (nil: none, or a cancel), and the checks' state.
        let model = ModelBox()
        let slot: ImageSlot

        struct Model {
            var requestOfLoad: [UInt64: Int?] = [:]
            var cachedRequests: Set<Int> = []
            var finalShown = false
            var violations: [String] = []
            var displays = 0
        }

        /// The model behind a lock, shared with the slot's closures.
        final class ModelBox: Sendable {
            private let state = NIOLockedValueBox<Model>(Model())
            func withLockedValue<Result>(_ body: (inout Model) -> Result) -> Result {
                state.withLockedValue { body(&$0) }
            }
        }

        init(fifo: Bool) {
            self.fifo = fifo
            delivery = ManualDelivery(changes: changes)
            held = HeldThumbnails(changes: changes)
            let held = held
            let model = model
            let box = SlotBox()
            slot = ImageSlot(
                delivery: delivery.delivery,
                display: { content in box.life?.check(content) },
                cached: { source, _ in
                    let id = Int(source.description.dropFirst())!
                    return model.withLockedValue { $0.cachedRequests.contains(id) } ? Thumbnail.marked(id) : nil
                },
                make: { source, _, _ async throws(ImageError) -> Thumbnail in
                    try await held.wait(Int(source.description.dropFirst())!)
                })
            box.life = self
        }

        /// Called where a delivery runs: the content must belong to the slot's latest load.
        func check(_ content: ImageSlot.Content) {
            let latest = slot.loads
            model.withLockedValue { model in
                model.displays += 1
                let request = model.requestOfLoad[latest] ?? nil
                switch content {
                case .placeholder:
                    if fifo && model.finalShown {
                        model.violations.append("a placeholder after load \(latest)'s result")
                    }
                case .image(let thumbnail):
                    if thumbnail.width != request {
                        model.violations.append("image \(thumbnail.width) shown for load \(latest)")
                    }
                    model.finalShown = true
                case .failure(let error):
                    if error.source != "r\(request ?? -1)" || error.reason == .cancelled {
                        model.violations.append("\(error) shown for load \(latest)")
                    }
                    model.finalShown = true
                }
            }
        }

        func run(_ random: inout SeededRandomNumberGenerator) async -> Int {
            var nextRequest = 1
            var made = 0  // make calls started: each ends in exactly one delivery
            var shownSynchronously = 0
            for _ in 0..<Int.random(in: 1...24, using: &random) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0...3:  // a load
                    let id = nextRequest
                    nextRequest += 1
                    let kind = Int.random(in: 0..<6, using: &random)
                    model.withLockedValue {
                        $0.requestOfLoad[slot.loads + 1] = .some(kind == 0 ? nil : id)
                        $0.finalShown = false
                        if kind == 1 { $0.cachedRequests.insert(id) }
                    }
                    slot.load(kind == 0 ? nil : .bytes([], identity: "r\(id)"), ThumbnailOptions(width: 1))
                    if kind >= 2 { made += 1 }
                    shownSynchronously += 1  // a placeholder, or the cached thumbnail
                case 4:
                    model.withLockedValue { $0.requestOfLoad[slot.loads + 1] = .some(nil) }
                    slot.cancel()
                case 5...7:  // a result arrives
                    if let id = held.waitingIDs.randomElement(using: &random) {
                        held.resolve(id, succeeds: Bool.random(using: &random))
                    }
                default:  // deliveries run
                    await settle(made: made, shown: shownSynchronously)
                    for _ in 0..<Int.random(in: 0...delivery.pending, using: &random) {
                        delivery.run(at: fifo ? 0 : Int.random(in: 0..<delivery.pending, using: &random))
                    }
                }
            }
            // The end: every result arrives and every delivery runs; the latest load shows its own result last.
            await settle(made: made, shown: shownSynchronously)
            for id in held.waitingIDs { held.resolve(id, succeeds: true) }
            await settle(made: made, shown: shownSynchronously)
            while delivery.pending > 0 {
                delivery.run(at: fifo ? 0 : Int.random(in: 0..<delivery.pending, using: &random))
            }
            let model = model.withLockedValue { $0 }
            let latestRequest = model.requestOfLoad[slot.loads] ?? nil
            #expect(model.violations.isEmpty, "\(model.violations)")
            if fifo && latestRequest != nil { #expect(model.finalShown, "load \(slot.loads) never showed its result") }
            return model.displays
        }

        /// Waits until every make call has either ended and handed its delivery over (cancelled ones end by
        /// themselves) or waits for its result.
        private func settle(made: Int, shown: Int) async {
            await changes.wait("the slot's tasks hand over their results") { [held, delivery] in
                let (started, ended, waiting) = held.counts
                return started == made && ended + waiting == started && delivery.count == shown + ended
            }
        }
    }

    private final class SlotBox: @unchecked Sendable {
        // Unchecked-Sendable invariant: written once, before the slot can display anything.
        var life: SlotLife?
    }

    /// Thumbnails whose making the test ends: success, failure, or cancellation of the waiting task.
    final class HeldThumbnails: Sendable {
        private let state = NIOLockedValueBox<
            (waiting: [Int: CheckedContinuation<Result<Thumbnail, ImageError>, Never>], started: Int, ended: Int)
        >(([:], 0, 0))
        /// Told of every change of the counts.
        private let changes: StateSignal

        init(changes: StateSignal) { self.changes = changes }

        var waitingIDs: [Int] { state.withLockedValue { Array($0.waiting.keys).sorted() } }
        /// Make calls started, ended, and waiting for their result, read together.
        var counts: (started: Int, ended: Int, waiting: Int) {
            state.withLockedValue { ($0.started, $0.ended, $0.waiting.count) }
        }

        func wait(_ id: Int) async throws(ImageError) -> Thumbnail {
            state.withLockedValue { $0.started += 1 }
            changes.changed()
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let cancelled = state.withLockedValue { state -> Bool in
                        if Task.isCancelled { return true }
                        state.waiting[id] = continuation
                        return false
                    }
                    if cancelled {
                        continuation.resume(returning: .failure(ImageError(source: "r\(id)", reason: .cancelled)))
                    } else {
                        changes.changed()
                    }
                }
            } onCancel: {
                state.withLockedValue { $0.waiting.removeValue(forKey: id) }?
                    .resume(returning: .failure(ImageError(source: "r\(id)", reason: .cancelled)))
            }
            state.withLockedValue { $0.ended += 1 }
            changes.changed()
            return try result.get()
        }

        func resolve(_ id: Int, succeeds: Bool) {
            let waiting = state.withLockedValue { $0.waiting.removeValue(forKey: id) }
            waiting?.resume(
                returning: succeeds
                    ? .success(.marked(id)) : .failure(ImageError(source: "r\(id)", reason: .notAnImage)))
        }
    }

    extension Thumbnail {
        /// A thumbnail that says which request made it (its width).
        static func marked(_ id: Int) -> Thumbnail { Thumbnail(bytes: [], format: .png, width: id, height: 1) }
    }
#endif
