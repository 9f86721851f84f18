// The test reads the scheduling from inside the pipeline's thread, through test hooks of debug builds only.
#if Images && os(Linux) && SWITCHYARD_TEST_HOOKS
    import Glibc
    import NIOConcurrencyHelpers
    import SwitchyardTesting
    import Testing

    @testable import SwitchyardImages

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
                // The render's first read (the header, on the pipeline's thread, which took the scheduling asked
                // for first thing) records that thread's policy and nice value, and cancels the render: the read
                // is refused and the render fails before libvips decodes anything, so no libvips worker is started
                // at this scheduling (they are shared by the process, and one at SCHED_IDLE would starve other
                // suites' images). At SCHED_IDLE the render's last steps wait for an idle moment of a processor,
                // as long as a busy machine takes to have one; the test has no time limit of its own.
                let seen = NIOLockedValueBox<(policy: Int32, nice: Int32)?>(nil)
                pipeline.renderStarts.withLockedValue {
                    $0 = { cancellation in
                        cancellation.observeReads { [weak cancellation] _, _ in
                            seen.withLockedValue { seen in
                                if seen == nil {
                                    seen = (
                                        sched_getscheduler(0), getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                                    )
                                }
                            }
                            cancellation?.cancel()
                        }
                    }
                }
                let source = ImageSource.bytes(Fixtures.picture(), identity: item.name)
                let failure = await #expect(throws: ImageError.self) {
                    try await pipeline.thumbnail(of: source, .init(width: 16))
                }
                #expect(failure?.reason == .cancelled, "\(item.name)")
                let scheduling = try #require(seen.withLockedValue { $0 }, "\(item.name): the render read nothing")
                #expect(scheduling.policy == item.policy, "\(item.name)")
                #expect(scheduling.nice == item.nice, "\(item.name)")
            }
        }
    }
#endif
