// The tests watch the render's reads through test hooks that exist in debug builds only.
#if Images && SWITCHYARD_TEST_HOOKS
    import Foundation
    import NIOConcurrencyHelpers
    import Switchyard
    import SwitchyardTesting
    import Testing

    @testable import SwitchyardImages

    @Suite("RenderCancellation: a running decode stops when its job's last caller leaves")
    struct RenderCancellationTests {
        @Test("the caller leaving a running 64-megapixel PNG decode stops it at its next read and frees the thread")
        func interruptsRunningDecode() async throws {
            let folder = NSTemporaryDirectory() + "switchyard-interrupt-\(getpid())"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // A PNG has no shrink-on-load: every pixel is decoded, reading the file from start to end.
            let path = folder + "/big.png"
            let png = try await BlockingExecutor.shared.run {
                Fixtures.plain(width: 8_000, height: 8_000, suffix: ".png")
            }
            try Data(png).write(to: URL(fileURLWithPath: path))
            let pipeline = ImagePipeline(configuration: .init(name: "interrupt", width: 1, memoryCacheCost: 0))
            let options = ThumbnailOptions(width: 64)
            let decode = DecodeProbe(holdingAt: 1, of: 4)
            pipeline.renderStarts.withLockedValue { $0 = { decode.attach($0) } }
            let events = pipeline.queue.events(bufferingPolicy: .unbounded)
            let caller = Task { try await pipeline.thumbnail(of: .file(path), options) }
            // The decode has read a quarter of the file; its next read waits until the render is cancelled.
            await decode.underWay.fulfillment(within: .seconds(30))
            caller.cancel()  // from this thread, while the decode waits in a read on the pipeline's
            let error = await #expect(throws: ImageError.self) { try await caller.value }
            #expect(error?.reason == .cancelled)
            // The pipeline's one thread: the next image runs once the cancelled render has ended.
            let next = ImageSource.bytes(Fixtures.picture(), identity: "next")
            #expect(try await pipeline.thumbnail(of: next, options).width == 64)
            #expect(decode.cancelledWhileHeld == true, "the cancellation reached the decode")
            // It stopped where it was held, a quarter into the file: no read after the cancellation got a byte.
            let (heldAt, furthest, length) = decode.offsets
            #expect(heldAt >= length / 4 && heldAt < length, "held at byte \(heldAt) of \(length)")
            #expect(furthest == heldAt, "the decode read on to byte \(furthest) after the cancellation")
            var ends: [JobState] = []
            for await event in events where event.kind == .finished {
                ends.append(event.state)
                if ends.count == 2 { break }
            }
            #expect(ends == [.cancelled, .succeeded])
            #expect(!Self.isOpen(path))
        }

        @Test("a JPEG decode cut short by its caller leaving is never cached: the next request gets the whole image")
        func cutShortIsNotCached() async throws {
            let folder = NSTemporaryDirectory() + "switchyard-cut-\(getpid())"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/big.jpg"
            let jpeg = try await BlockingExecutor.shared.run { Fixtures.photo(width: 8_000, height: 6_000) }
            try Data(jpeg).write(to: URL(fileURLWithPath: path))
            let options = ThumbnailOptions(width: 64, format: .png)
            let reference = try await ImagePipeline(configuration: .init(name: "reference", memoryCacheCost: 0))
                .thumbnail(of: .file(path), options)
            let cache = ThumbnailDiskCache(folder: folder + "/cache", byteLimit: 1 << 20)
            let pipeline = ImagePipeline(
                configuration: .init(name: "cut", width: 1, memoryCacheCost: 0, diskCache: cache))
            let decode = DecodeProbe(holdingAt: 1, of: 3)
            pipeline.renderStarts.withLockedValue { $0 = { decode.attach($0) } }
            let caller = Task { try await pipeline.thumbnail(of: .file(path), options) }
            // A third into the decode, which waits in its next read until the render is cancelled.
            await decode.underWay.fulfillment(within: .seconds(30))
            caller.cancel()
            _ = try? await caller.value
            // The next request's job starts once the cut render has ended (one thread). A loader that took the
            // refused read for the end of the data would have made a partial image; had it been kept, the disk
            // cache would serve it now.
            #expect(try await pipeline.thumbnail(of: .file(path), options) == reference)
            await cache.waitUntilScanned()  // before the folder goes
            #expect(decode.cancelledWhileHeld == true, "the cancellation reached the decode")
            let (heldAt, furthest, length) = decode.offsets
            #expect(heldAt < length && furthest == heldAt, "held at byte \(heldAt) of \(length); read to \(furthest)")
        }

        @Test("cancelling kills the decode itself: a PNG whose bytes are read ends within a few rows, not at its last")
        func killsRunningDecode() async throws {
            #expect(await ImagePipeline.libvipsProblem() == nil)
            #expect(Vips.rendersKillable, "this libvips and glib keep a render's images")
            // A tiny file for 64 megapixels: each read gives the PNG decoder many rows, and a decode that is not
            // killed goes on to the last row, asking for each one's bytes (thousands of refused reads).
            let bytes = try await BlockingExecutor.shared.run {
                Fixtures.plain(width: 8_000, height: 8_000, suffix: ".png")
            }
            let png = ImageSource.bytes(bytes, identity: "a.png")
            let pipeline = ImagePipeline(configuration: .init(name: "kill", width: 1, memoryCacheCost: 0))
            let options = ThumbnailOptions(width: 64)
            let decode = DecodeProbe(holdingAt: 1, of: 4)
            pipeline.renderStarts.withLockedValue { $0 = { decode.attach($0) } }
            let caller = Task { try await pipeline.thumbnail(of: png, options) }
            await decode.underWay.fulfillment(within: .seconds(30))
            caller.cancel()
            let error = await #expect(throws: ImageError.self) { try await caller.value }
            #expect(error?.reason == .cancelled)
            // The pipeline's one thread: the next image runs once the cancelled render has ended.
            let next = ImageSource.bytes(Fixtures.picture(), identity: "next")
            #expect(try await pipeline.thumbnail(of: next, options).width == 64)
            #expect(decode.cancelledWhileHeld == true, "the cancellation reached the decode")
            let after = decode.readsAfterCancellation
            #expect(after < 64, "the decode went on for \(after) reads after the cancellation")
        }

        /// Whether this process has `path` open (`/proc/self/fd`).
        private static func isOpen(_ path: String) -> Bool {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return descriptors.contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path
            }
        }
    }

    /// Watches the first render it is attached to, through its reads: holds the first read at or past a given
    /// fraction of the source on its thread until the render is cancelled, and notes how far the render read.
    private final class DecodeProbe: Sendable {
        /// Fulfilled when the held read begins.
        let underWay = CallbackExpectation("the decode is under way")
        private let fraction: (numerator: Int64, denominator: Int64)
        private let state = NIOLockedValueBox(State())

        private struct State {
            var attached = false
            /// Where the held read began: the bytes the decode had read when it was held.
            var heldAt: Int64?
            /// Where the furthest read began (a refused read gets no byte, so the offset stays where it was).
            var furthest: Int64 = 0
            var length: Int64 = 0
            var cancelledWhileHeld: Bool?
            /// Reads begun once the held read saw the cancellation.
            var readsAfterCancellation = 0
        }

        init(holdingAt numerator: Int64, of denominator: Int64) { fraction = (numerator, denominator) }

        /// Where the held read began (-1: none was held), where the furthest read began, and the source's length.
        var offsets: (heldAt: Int64, furthest: Int64, length: Int64) {
            state.withLockedValue { ($0.heldAt ?? -1, $0.furthest, $0.length) }
        }
        /// Whether the held read saw the render cancelled (nil: no read was held; false: not within 30 s).
        var cancelledWhileHeld: Bool? { state.withLockedValue { $0.cancelledWhileHeld } }
        /// How many reads the render began after the held read saw it cancelled (each refused).
        var readsAfterCancellation: Int { state.withLockedValue { $0.readsAfterCancellation } }

        /// A pipeline's render starts (``ImagePipeline/renderStarts``): the first is watched.
        func attach(_ cancellation: RenderCancellation) {
            let first = state.withLockedValue { state in
                defer { state.attached = true }
                return !state.attached
            }
            guard first else { return }
            cancellation.observeReads { [weak cancellation] offset, length in
                guard let cancellation else { return }
                self.read(at: offset, of: length, cancellation)
            }
        }

        /// On the thread that reads, at the start of each read of the watched render.
        private func read(at offset: Int64, of length: Int64, _ cancellation: RenderCancellation) {
            let hold = state.withLockedValue { state -> Bool in
                state.length = length
                state.furthest = max(state.furthest, offset)
                if state.cancelledWhileHeld == true { state.readsAfterCancellation += 1 }
                guard state.heldAt == nil, !cancellation.isCancelled,
                    offset * fraction.denominator >= length * fraction.numerator
                else { return false }
                state.heldAt = offset
                return true
            }
            guard hold else { return }
            underWay.fulfill()
            let cancelled = cancellation.waitUntilCancelled(timeout: .seconds(30))
            state.withLockedValue { $0.cancelledWhileHeld = cancelled }
        }
    }
#endif
