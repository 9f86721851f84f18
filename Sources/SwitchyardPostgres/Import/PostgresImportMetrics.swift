#if Postgres
    import CoreMetrics
    @_spi(ImportDestinations) import SwitchyardTransit

    /// The swift-metrics of imports into PostgreSQL, made once per destination, each with the dimensions
    /// `destination` (`postgres`) and `schema`:
    ///
    /// | label | kind | what |
    /// |---|---|---|
    /// | `switchyard_import_rows_total` | counter, dimension `file` (`stops.txt`, …) | rows committed |
    /// | `switchyard_import_transactions_total` | counter | transactions committed (consecutive batches of a file) |
    ///
    /// Rows are counted when their transaction commits, so the counter never includes rows a rollback took back.
    struct PostgresImportMetrics: Sendable {
        private let rows: [GTFSFile: Counter]
        private let transactions: Counter

        init(schema: String, factory: any MetricsFactory) {
            let dimensions = [("destination", "postgres"), ("schema", schema)]
            var rows: [GTFSFile: Counter] = [:]
            for file in GTFSFile.allCases {
                rows[file] = Counter(
                    label: "switchyard_import_rows_total", dimensions: dimensions + [("file", file.fileName)],
                    factory: factory)
            }
            self.rows = rows
            transactions = Counter(
                label: "switchyard_import_transactions_total", dimensions: dimensions, factory: factory)
        }

        /// Counts a committed transaction of `batches`.
        func committed(_ batches: [RowBatch]) {
            transactions.increment()
            for batch in batches { rows[batch.layout.file]?.increment(by: batch.rowCount) }
        }
    }
#endif
