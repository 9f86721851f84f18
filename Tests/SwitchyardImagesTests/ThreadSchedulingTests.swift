#if Images && os(Linux)
    import Glibc
    import SwitchyardImages
    import Testing

    @Suite("ThreadScheduling: the pipeline's threads are scheduled as configured")
    struct ThreadSchedulingTests {
        @Test("background puts the pipeline's threads at SCHED_IDLE; niced(7) gives them nice 7")
        func applied() async throws {
            let schedIdle: Int32 = 5  // SCHED_IDLE, which Glibc exports only under _GNU_SOURCE
            let cases: [(name: String, scheduling: ThreadScheduling, policy: Int32, nice: Int32)] = [
                ("sched-bg", .background, schedIdle, 0), ("sched-nice", .niced(7), SCHED_OTHER, 7),
            ]
            for item in cases {
                let pipeline = ImagePipeline(
                    configuration: .init(
                        name: item.name, width: 1, memoryCacheCost: 0, threadScheduling: item.scheduling)
                )
                // Bytes that are no image: the job runs on the pipeline's thread, which takes the scheduling asked
                // for first thing, and fails before libvips decodes anything, so no libvips worker is started at
                // this scheduling (they are shared by the process, and one at SCHED_IDLE would starve other suites'
                // images). Its end is the event: the thread that ran it has been scheduled by then. At SCHED_IDLE
                // the few steps left after that wait for an idle moment of a processor, as long as a busy machine
                // takes to have one; the test has no time limit of its own.
                let failure = await #expect(throws: ImageError.self) {
                    try await pipeline.thumbnail(of: .bytes([1, 2, 3], identity: item.name), .init(width: 16))
                }
                #expect(failure?.reason == .notAnImage)
                let thread = try #require(Self.thread(named: "\(item.name)-"), "\(item.name): no pipeline thread")
                #expect(sched_getscheduler(thread) == item.policy, "\(item.name)")
                let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(thread))
                #expect(nice == item.nice, "\(item.name)")
            }
        }

        /// The id of a thread of this process whose name starts with `prefix`, from `/proc/self/task`.
        private static func thread(named prefix: String) -> pid_t? {
            guard let folder = opendir("/proc/self/task") else { return nil }
            defer { closedir(folder) }
            while let entry = readdir(folder) {
                let id = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard let tid = pid_t(id), let file = fopen("/proc/self/task/\(id)/comm", "r") else { continue }
                defer { fclose(file) }
                var buffer = [CChar](repeating: 0, count: 64)
                guard fgets(&buffer, 64, file) != nil else { continue }
                let comm = String(
                    decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if comm.hasPrefix(prefix) { return tid }
            }
            return nil
        }
    }
#endif
