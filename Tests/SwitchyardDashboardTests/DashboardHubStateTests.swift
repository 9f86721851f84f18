#if Dashboard
    import Testing

    @testable import SwitchyardDashboard

    /// The viewers-and-producer state machine, without threads.
    extension DashboardHubState {
        /// Runs a mutating event (the expectation macros take their operands by value).
        static func call<Result>(_ state: inout Self, _ event: (inout Self) -> Result) -> Result { event(&state) }
    }

    @Suite struct DashboardHubStateTests {
        typealias State = DashboardHubState<String, Int>

        @Test func theFirstViewerStartsTheOnlyProducer() {
            var state = State()
            #expect(State.call(&state) { $0.addViewer() })
            #expect(!State.call(&state) { $0.addViewer() })
            #expect(state.isProducing)
            #expect(State.call(&state) { $0.producerShouldContinue() })
        }

        @Test func theProducerStopsWhenTheLastViewerLeavesAndANewViewerStartsAnother() {
            var state = State()
            #expect(State.call(&state) { $0.addViewer() })
            _ = state.published(1)
            state.removeViewer()
            #expect(!State.call(&state) { $0.producerShouldContinue() })
            #expect(!state.isProducing)
            #expect(state.latest == nil)
            #expect(State.call(&state) { $0.addViewer() })
        }

        @Test func aViewerGetsTheLatestAtOnceAndParksForTheNext() {
            var state = State()
            _ = state.addViewer()
            let first = state.makeWaiterIdentifier()
            guard case .parked = state.wait(after: 0, identifier: first, "a") else {
                Issue.record("a viewer with nothing published must park")
                return
            }
            let (generation, waiters) = state.published(10)
            #expect(generation == 1)
            #expect(waiters == [first: "a"])
            let second = state.makeWaiterIdentifier()
            guard case .deliver(let latest, let update) = state.wait(after: 0, identifier: second, "b") else {
                Issue.record("a viewer behind the latest must get it at once")
                return
            }
            #expect(latest == 1 && update == 10)
            guard case .parked = state.wait(after: 1, identifier: second, "b") else {
                Issue.record("a viewer that has the latest must park")
                return
            }
        }

        @Test func aSlowViewerSkipsToTheNewest() {
            var state = State()
            _ = state.addViewer()
            for value in 1...5 { _ = state.published(value) }
            let identifier = state.makeWaiterIdentifier()
            guard case .deliver(let generation, let update) = state.wait(after: 1, identifier: identifier, "slow")
            else {
                Issue.record("expected the newest update")
                return
            }
            #expect(generation == 5 && update == 5)
        }

        @Test func cancellationBeforeOrAfterParking() {
            var state = State()
            _ = state.addViewer()
            let parked = state.makeWaiterIdentifier()
            _ = state.wait(after: 0, identifier: parked, "parked")
            #expect(state.cancelWait(parked) == "parked")
            let published = state.published(1)
            #expect(published.waiters.isEmpty)
            let early = state.makeWaiterIdentifier()
            #expect(state.cancelWait(early) == nil)
            guard case .cancelled = state.wait(after: 1, identifier: early, "early") else {
                Issue.record("a wait cancelled before it parked must not park")
                return
            }
        }
    }
#endif
