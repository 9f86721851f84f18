#if Observability
    import MetricsTestKit
    import Switchyard
    import SwitchyardObservability
    import SwitchyardTesting
    import Testing

    @Suite("StatisticsMetrics: blocking executors and caches")
    struct StatisticsMetricsTests {
        @Test("a blocking executor's completed work is counted once, and its threads are gauged")
        func executor() async throws {
            let metrics = TestMetrics()
            let executor = BlockingExecutor(name: "files", maximumThreads: 2)
            var measured = StatisticsMetrics(executor, factory: metrics)
            for value in 0..<3 { _ = try await executor.run { value } }
            measured.sample()
            measured.sample()  // nothing new: the counter stays
            let name = [("executor", "files")]
            #expect(try metrics.expectCounter("switchyard_blocking_completed_total", name).totalValue == 3)
            #expect(try metrics.expectGauge("switchyard_blocking_queued", name).lastValue == 0)
            #expect(try metrics.expectGauge("switchyard_blocking_threads", name).lastValue != nil)
        }

        @Test("a cache's hits, misses, removals by reason and size")
        func cache() throws {
            let metrics = TestMetrics()
            let cache = Cache<String, Int>(name: "stops", countLimit: 2)
            var measured = StatisticsMetrics(cache, factory: metrics)
            _ = cache.setValue(1, forKey: "a")
            _ = cache.value(forKey: "a")
            _ = cache.value(forKey: "b")
            cache.removeValue(forKey: "a")
            measured.sample()
            let name = [("cache", "stops")]
            #expect(try metrics.expectCounter("switchyard_cache_hits_total", name).totalValue == 1)
            #expect(try metrics.expectCounter("switchyard_cache_misses_total", name).totalValue == 1)
            #expect(
                try metrics.expectCounter("switchyard_cache_removals_total", name + [("reason", "removed")])
                    .totalValue == 1)
            #expect(try metrics.expectGauge("switchyard_cache_entries", name).lastValue == 0)
        }

        @Test("the service samples once more when it ends")
        func service() async throws {
            let metrics = TestMetrics()
            let executor = BlockingExecutor(name: "service", maximumThreads: 1)
            let service = StatisticsService([StatisticsMetrics(executor, factory: metrics)], clock: ManualClock())
            let running = Task { try await service.run() }
            _ = try await executor.run { 1 }
            running.cancel()
            try await running.value
            #expect(
                try metrics.expectCounter("switchyard_blocking_completed_total", [("executor", "service")])
                    .totalValue == 1)
        }
    }
#endif
