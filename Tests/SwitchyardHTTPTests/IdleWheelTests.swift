#if HTTP
    import NIOPosix
    @testable import SwitchyardHTTP
    import SwitchyardTesting
    import Testing

    @Suite("IdleWheel: the idle timeout's timing wheel, without threads or clocks")
    struct IdleWheelTests {
        /// An entry whose activity the test sets: a tick, or -1 while not waiting.
        final class Entry {
            let name: Int
            var lastActive: Int64
            init(_ name: Int, lastActive: Int64) {
                self.name = name
                self.lastActive = lastActive
            }
        }

        /// One sweep: the names of the entries it expired.
        static func sweep(_ wheel: inout IdleWheel<Entry>) -> [Int] {
            wheel.advance()
            var expired: [Int] = []
            while true {
                switch wheel.step(lastActive: { $0.lastActive }) {
                case .done: return expired.sorted()
                case .refiled: continue
                case .expired(let entry): expired.append(entry.name)
                }
            }
        }

        @Test("a silent entry expires at the first sweep after its idle ticks, never at them")
        func silentEntry() {
            var wheel = IdleWheel<Entry>(ticksPerIdle: 8)
            _ = wheel.insert(Entry(1, lastActive: 0), lastActive: 0)
            for _ in 1...8 { #expect(Self.sweep(&wheel).isEmpty) }
            #expect(Self.sweep(&wheel) == [1])
            #expect(wheel.count == 0)
        }

        @Test("an entry active again, holding or not yet waiting does not expire; waiting again, it does")
        func activity() {
            var wheel = IdleWheel<Entry>(ticksPerIdle: 3)
            let active = Entry(1, lastActive: 0)
            let holding = Entry(2, lastActive: -1)
            _ = wheel.insert(active, lastActive: 0)
            _ = wheel.insert(holding, lastActive: -1)
            for _ in 1...40 {
                active.lastActive = wheel.tick
                #expect(Self.sweep(&wheel).isEmpty)
            }
            active.lastActive = wheel.tick  // 40
            holding.lastActive = wheel.tick
            #expect(Self.sweep(&wheel).isEmpty)  // 41
            #expect(Self.sweep(&wheel).isEmpty)  // 42
            #expect(Self.sweep(&wheel).isEmpty)  // 43: 3 ticks silent
            #expect(Self.sweep(&wheel) == [1, 2])  // 44: both silent for 4
        }

        @Test("removal takes an entry out, a stale handle is ignored, and a reused slot gets a new handle")
        func removal() {
            var wheel = IdleWheel<Entry>(ticksPerIdle: 2)
            let first = wheel.insert(Entry(1, lastActive: 0), lastActive: 0)
            #expect(wheel.remove(first)?.name == 1)
            #expect(wheel.remove(first) == nil)
            let second = wheel.insert(Entry(2, lastActive: 0), lastActive: 0)
            #expect(second.slot == first.slot && second != first)
            #expect(wheel.remove(first) == nil)
            #expect(wheel.count == 1)
            for _ in 1...2 { #expect(Self.sweep(&wheel).isEmpty) }
            #expect(Self.sweep(&wheel) == [2])
            #expect(wheel.remove(second) == nil)  // expired already
        }

        @Test("an entry stamped one tick ahead of the wheel (a sweep under way) still expires on time")
        func stampAhead() {
            var wheel = IdleWheel<Entry>(ticksPerIdle: 13)
            _ = wheel.insert(Entry(1, lastActive: 1), lastActive: 1)
            for _ in 1...14 { #expect(Self.sweep(&wheel).isEmpty) }
            #expect(Self.sweep(&wheel) == [1])  // tick 15 - 1 > 13
        }

        @Test("an expiry the entry's claim refuses (it was active since the read) files it again, from its new tick")
        func refusedClaim() {
            var wheel = IdleWheel<Entry>(ticksPerIdle: 2)
            let entry = Entry(1, lastActive: 0)
            _ = wheel.insert(entry, lastActive: 0)
            #expect(Self.sweep(&wheel).isEmpty)  // 1
            #expect(Self.sweep(&wheel).isEmpty)  // 2
            wheel.advance()  // 3: silent for 3 ticks, but active at tick 2 between the read and the claim
            let step = wheel.step(lastActive: { $0.lastActive }) { entry, last in
                #expect(last == 0)
                entry.lastActive = 2
                return false
            }
            guard case .refiled = step else {
                Issue.record("not refiled: \(step)")
                return
            }
            #expect(wheel.count == 1)
            #expect(Self.sweep(&wheel).isEmpty)  // 4: silent for 2 ticks since 2
            #expect(Self.sweep(&wheel) == [1])  // 5
        }

        @Test("a watch's expiry is claimed only on the stamp the sweep read; activity after the read keeps it")
        func watchClaim() {
            let sweeper = IdleSweeper(idle: .seconds(3600), on: MultiThreadedEventLoopGroup.singleton.next())
            let watch = IdleWatch(sweeper)
            watch.waiting()
            let read = watch.lastActive
            sweeper.ticks.wrappingAdd(1, ordering: .relaxed)
            watch.activity()  // between the sweep's read and its claim
            #expect(!watch.claimExpiry(at: read))
            #expect(!watch.hasExpired)
            #expect(watch.claimExpiry(at: watch.lastActive))
            #expect(watch.hasExpired)
        }

        @Test("randomized: each sweep expires exactly the entries silent for longer than the idle ticks")
        func randomized() {
            var random = SeededRandomNumberGenerator.forTest("IdleWheelTests.randomized")
            let seed = random.seed
            for round in 0..<40 {
                let ticksPerIdle = Int64.random(in: 1...13, using: &random)
                var wheel = IdleWheel<Entry>(ticksPerIdle: ticksPerIdle)
                var live: [Int: (entry: Entry, handle: IdleWheel<Entry>.Handle)] = [:]
                var next = 0
                for _ in 0..<300 {
                    for _ in 0..<Int.random(in: 0...4, using: &random) {
                        let stamp = Bool.random(using: &random) ? wheel.tick : -1
                        let entry = Entry(next, lastActive: stamp)
                        live[next] = (entry, wheel.insert(entry, lastActive: stamp))
                        next += 1
                    }
                    for (name, item) in live {
                        switch Int.random(in: 0..<10, using: &random) {
                        case 0: item.entry.lastActive = -1
                        case 1, 2: item.entry.lastActive = wheel.tick
                        case 3:
                            #expect(wheel.remove(item.handle)?.name == name)
                            live[name] = nil
                        default: break
                        }
                    }
                    let tick = wheel.tick + 1
                    let due = live.values.filter {
                        $0.entry.lastActive >= 0 && tick - $0.entry.lastActive > ticksPerIdle
                    }
                    .map(\.entry.name).sorted()
                    let expired = Self.sweep(&wheel)
                    #expect(expired == due, "round \(round), tick \(tick), seed \(seed)")
                    for name in expired { live[name] = nil }
                    #expect(wheel.count == live.count)
                }
            }
        }
    }
#endif
