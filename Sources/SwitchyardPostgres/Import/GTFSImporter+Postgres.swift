#if Postgres
    import CoreMetrics
    import Logging
    @_spi(ImportDestinations) import SwitchyardTransit

    extension GTFSImporter {
        /// Prepares an import of `feed` into the schema of `url` (created if missing): the same jobs, options,
        /// progress, cancellation, checks and summary as an import into SQLite.
        ///
        /// - **Tables**: one per GTFS file, in the schema; GTFS text as `text`, integers as `bigint` (every value the
        ///   SQLite import keeps fits, so both hold the same numbers), times as `times` says (by default `bigint`
        ///   seconds after the service day's start), dates as `date`, decimals as `double precision`, extra columns
        ///   as `text`. The import record (`_switchyard_import*`) has the tables and columns of SQLite's, plus an
        ///   identity column where SQLite orders by `rowid` (`_switchyard_import_problems.id`,
        ///   `_switchyard_import_checks.position`) and the `times` of the import (`_switchyard_import.times`), which a
        ///   resume follows.
        /// - **Whole batches**: each batch's rows (`COPY … FROM STDIN`), its problems and the file's record commit in
        ///   one transaction, so a killed process or a lost server leaves whole batches, and
        ///   `ImportOptions.Mode.resume` continues after the last one. Consecutive batches of a file share a
        ///   transaction (up to 16, or as many as arrive within a quarter of a second): the rows stream through one
        ///   `COPY` as the readers produce them, and the server is not held up by a commit after every batch.
        /// - **One import per schema**: a session advisory lock keyed by the schema's name, released by the server when
        ///   the import's connection ends; a second import fails within a tenth of a second with
        ///   `ImportError.Kind.databaseBusy`.
        /// - `ImportOptions.Mode.new` refuses a schema that holds an import, or a table of a file the feed has;
        ///   `ImportOptions.Mode.replace` first drops the import recorded in the schema: the tables of the files its
        ///   record lists, and the record (nothing else; a GTFS-named table no import recorded stays, and is refused).
        /// - **Indexes and checks** after the load, as in SQLite. Cancelling rolls back the transaction in progress and
        ///   stops any running statement (`pg_cancel_backend`); none starts after it.
        /// - **Errors** are `ImportError`s naming the server without the password: connection, TLS, authentication, a
        ///   missing database, the server closing the connection mid-import.
        /// - **Logging**: with a `logger`, the import's lock and cancellations at `info`, its connections at `debug`,
        ///   statements (postgres-nio's lines) at `debug` and `trace`.
        /// - **Metrics** (`metricsFactory`, by default the bootstrapped one): `switchyard_import_rows_total` by `file`
        ///   and `switchyard_import_transactions_total`, counted as transactions commit, with the dimensions
        ///   `destination` (`postgres`) and `schema`.
        ///
        /// TLS as the URL's `sslmode` says (``PostgresTLS``: libpq's meanings, `prefer` by default); each step uses a
        /// connection of its own.
        ///
        /// ```swift
        /// let url = try PostgresURL(
        ///     "postgres://gtfs:secret@db.example.org/transit?schema=vbb&sslmode=verify-full&sslrootcert=/etc/ca.pem")
        /// let summary = try await GTFSImporter(feed: try GTFSFeed.open("vbb.zip"), postgres: url).run()
        /// ```
        public convenience init(
            feed: GTFSFeed, postgres url: PostgresURL, times: PostgresTimes = .seconds,
            options: ImportOptions = ImportOptions(), logger: Logger? = nil,
            metricsFactory: any MetricsFactory = MetricsSystem.factory
        ) {
            self.init(
                feed: feed,
                destination: PostgresDestination(
                    url: url, times: times, logger: logger, metricsFactory: metricsFactory),
                options: options)
        }
    }
#endif
