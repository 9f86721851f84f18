#if Images
    import CVips
    #if SWITCHYARD_TEST_HOOKS
        import NIOConcurrencyHelpers
    #endif

    /// Stops a render from any thread, and the render throws ``ImageError/Reason/cancelled``. One-way: once
    /// cancelled, always. ``cancel()`` returns at once; the render's thread stops at whichever comes first:
    ///
    /// - its decode's next read of the source, which is refused (every few KiB of the encoded image, or never
    ///   again for a decoder that has read what it needs: a small, highly compressed PNG of a huge image);
    /// - its next region of pixels (a few rows): the render keeps every libvips image it builds on its thread
    ///   (`sy_render_begin`, through a hook on libvips' "postbuild" signal), and cancelling kills their evaluation
    ///   (`vips_image_set_kill`), so libvips fails the region, and the decode and resize behind it end.
    ///
    /// Where the hook is unavailable (``Vips/rendersKillable``) only the first applies. Neither interrupts a
    /// single call into a codec that decodes a whole frame at once (libvips' WebP and HEIF loaders do): the render
    /// ends when that call returns.
    ///
    /// `@unchecked Sendable`: `flag` is allocated once in `init`, never reassigned, and freed in `deinit`; the
    /// integer it points to is only read and written through C atomics (`sy_flag_set`, `sy_flag_is_set`), and the
    /// images kept beside it only under its C mutex. In debug builds the test hooks' state sits behind their own
    /// locks. `RenderCancellationTests` cancels renders from other threads under Thread Sanitizer.
    final class RenderCancellation: @unchecked Sendable {
        let flag: UnsafeMutablePointer<Int32>
        #if SWITCHYARD_TEST_HOOKS
            /// Tests: true once cancelled, for ``waitUntilCancelled(timeout:)``.
            private let cancelled = ConditionLock(value: false)
            /// Tests: the observer ``observeReads(_:)`` installed, kept alive as long as the flag that points to it.
            private let readObserver = NIOLockedValueBox<ReadObserver?>(nil)
        #endif

        init() { flag = sy_flag_new() }

        deinit { sy_flag_free(flag) }

        func cancel() {
            sy_flag_set(flag)
            #if SWITCHYARD_TEST_HOOKS
                cancelled.lock()
                cancelled.unlock(withValue: true)
            #endif
        }

        var isCancelled: Bool { sy_flag_is_set(flag) != 0 }

        #if SWITCHYARD_TEST_HOOKS
            /// Test hook (debug builds only): `observer` is called at the start of each read of the render's source,
            /// before the cancellation is checked, with the read's offset and the source's length in bytes, on the
            /// thread that reads. A read it sees after ``cancel()`` is refused: the decode stops there. Each step of
            /// a render (sniffing, header, decode) reads from offset 0. Call once, before the render starts.
            func observeReads(_ observer: @escaping @Sendable (_ offset: Int64, _ length: Int64) -> Void) {
                let box = ReadObserver(observer)
                readObserver.withLockedValue { $0 = box }
                sy_flag_observe_reads(
                    flag,
                    { context, offset, length in
                        guard let context else { return }
                        Unmanaged<ReadObserver>.fromOpaque(context).takeUnretainedValue().observe(
                            Int64(offset), Int64(length))
                    }, Unmanaged.passUnretained(box).toOpaque())
            }

            /// Test hook (debug builds only): blocks the calling thread (a read's, in an observer) until ``cancel()``
            /// is called, for at most `timeout`; whether it was.
            func waitUntilCancelled(timeout: Duration) -> Bool {
                let (seconds, attoseconds) = timeout.components
                guard cancelled.lock(whenValue: true, timeoutSeconds: Double(seconds) + Double(attoseconds) * 1e-18)
                else { return false }
                cancelled.unlock()
                return true
            }

            /// A read observer, at a stable address for C.
            private final class ReadObserver: Sendable {
                let observe: @Sendable (Int64, Int64) -> Void

                init(_ observe: @escaping @Sendable (Int64, Int64) -> Void) { self.observe = observe }
            }
        #endif
    }
#endif
