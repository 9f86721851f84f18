#if Images
    import CVips
    import Switchyard
    import Synchronization

    /// libvips, started once per process.
    enum Vips {
        /// Loads libvips (at the module's first use of it) and starts it with one thread per image (the pipeline
        /// runs many images at once, each on one of its own threads: more threads per image fragment glibc's heap
        /// and win nothing when every core is busy), its operation cache off (the pipeline caches results), and
        /// the loaders libvips marks untrusted blocked (ImageMagick, PDF and others that parse whatever they are
        /// given). Idempotent and thread-safe.
        /// - Returns: nil once libvips runs, else why it cannot in this process (not installed, too old, failed to
        ///   start), for good: the first attempt's answer is kept.
        static func start() -> String? { failure }

        /// ``start()`` for async code: the first start (loading libvips, seconds on a cold disk) runs on
        /// `executor`, never on the cooperative pool; once started, the answer is read at once.
        static func start(on executor: BlockingExecutor) async -> String? {
            if isStarted.load(ordering: .acquiring) { return failure }
            return (try? await executor.run { start() }) ?? failure
        }

        /// Whether cancelling a render kills the evaluation of its images (see ``RenderCancellation``); false when
        /// the installed glib refused the hook that keeps them (cancellation then stops a decode at its next read),
        /// or before libvips runs. - Complexity: O(1).
        static var rendersKillable: Bool {
            isStarted.load(ordering: .acquiring) && failure == nil && sy_vips_renders_killable() != 0
        }

        /// Whether JPEGs go through the direct path (`sy_jpeg_available`: libjpeg loaded, its layout the headers'),
        /// or libvips' loader and saver only; false before libvips runs. - Complexity: O(1).
        static var decodesJPEGDirectly: Bool {
            isStarted.load(ordering: .acquiring) && failure == nil && sy_jpeg_available() != 0
        }

        /// Set once ``failure`` is known.
        private static let isStarted = Atomic<Bool>(false)

        private static let failure: String? = {
            defer { isStarted.store(true, ordering: .releasing) }
            guard sy_vips_start("switchyard", 1, 0) == 0 else {
                if let failure = sy_vips_load_error() { return String(cString: failure) }
                return "libvips failed to start: \(takeError())"
            }
            return nil
        }()

        /// libvips' last error message, taken (libvips keeps one buffer for the process: under concurrent failures
        /// a message may carry another failure's lines too).
        static func takeError() -> String {
            guard let message = sy_vips_take_error() else { return "unknown libvips error" }
            defer { sy_free(message) }
            let lines = String(cString: message).split(whereSeparator: \.isNewline)
            return lines.isEmpty ? "unknown libvips error" : lines.joined(separator: "; ")
        }
    }
#endif
