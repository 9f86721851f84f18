#if Observability
    import MetricsTestKit
    import SwitchyardTesting
    import Testing

    @testable import SwitchyardSampleFeeds
    @_spi(ImportDestinations) @testable import SwitchyardTransit

    @Suite("Import metrics")
    struct ImportMetricsTests {
        @Test("an SQLite import reports each file's committed rows, and its transactions, one per batch")
        func sqliteRows() async throws {
            let scratch = ScratchFolder()
            defer { scratch.remove() }
            let feed = scratch.file("feed")
            try SampleFeedFiles.write(.tiny, to: feed)
            let metrics = TestMetrics()
            let summary = try await GTFSImporter(
                feed: try GTFSFeed.open(feed), database: scratch.file("db.sqlite"),
                options: ImportOptions(batchSize: 7), metricsFactory: metrics
            ).run()
            #expect(summary.state == .complete)
            let dimensions = [("destination", "sqlite"), ("schema", "main")]
            var batches = 0
            for file in summary.files {
                let rows = try metrics.expectCounter("switchyard_import_rows_total", dimensions + [("file", file.name)])
                #expect(rows.totalValue == Int64(file.imported), "\(file.name)")
                batches += max(1, (file.records + 6) / 7)
            }
            let transactions = try metrics.expectCounter("switchyard_import_transactions_total", dimensions)
            // A transaction per batch of 7 records, and at most one more per file (the one that closes it).
            #expect(transactions.totalValue >= Int64(batches))
            #expect(transactions.totalValue <= Int64(batches + summary.files.count))
        }
    }
#endif
