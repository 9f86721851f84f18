// swift-metrics is built with the trait Observability (and with Postgres, whose destination reports these too).
#if Observability || Postgres
    import CoreMetrics

    /// The swift-metrics of an import, made once per import, each with the dimensions `destination` (`sqlite` or
    /// `postgres`) and `schema` (`main` for SQLite; the PostgreSQL schema):
    ///
    /// | label | kind | what |
    /// |---|---|---|
    /// | `switchyard_import_rows_total` | counter, dimension `file` (`stops.txt`, …) | rows committed |
    /// | `switchyard_import_transactions_total` | counter | transactions committed |
    ///
    /// Rows are counted when their transaction commits, so the counter never includes rows a rollback took back.
    /// SQLite commits each batch in a transaction of its own; PostgreSQL consecutive batches of a file together.
    package struct ImportMetrics: Sendable {
        private let rows: [GTFSFile: Counter]
        private let transactions: Counter

        package init(destination: String, schema: String, factory: any MetricsFactory) {
            let dimensions = [("destination", destination), ("schema", schema)]
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
        package func committed(_ batches: [RowBatch]) {
            transactions.increment()
            for batch in batches { rows[batch.layout.file]?.increment(by: batch.rowCount) }
        }
    }

    extension GTFSImporter {
        /// Prepares an import of `feed` into the SQLite database at `database`, as ``init(feed:database:options:)``,
        /// reporting its rows and transactions to `metricsFactory` as they commit: `switchyard_import_rows_total` by
        /// `file` and `switchyard_import_transactions_total`, with the dimensions `destination` (`sqlite`) and
        /// `schema` (`main`). Available with the trait Observability (or Postgres).
        public convenience init(
            feed: GTFSFeed, database: String, options: ImportOptions = ImportOptions(),
            metricsFactory: any MetricsFactory
        ) {
            let metrics = ImportMetrics(destination: "sqlite", schema: "main", factory: metricsFactory)
            self.init(
                feed: feed, destination: SQLiteDestination(path: database), options: options,
                beforeLargeIndexes: nil, committed: { metrics.committed([$0]) })
        }
    }
#endif
