@_spi(ImportDestinations) import SwitchyardTransit

extension GTFSImporter {
    /// Prepares an import of `feed` into the schema of `url` (see ``PostgresDestination``): the same jobs,
    /// options, progress, cancellation and summary as an import into SQLite.
    ///
    /// ```swift
    /// let url = try PostgresURL("postgres://gtfs:secret@127.0.0.1/transit?schema=vbb")
    /// let summary = try await GTFSImporter(feed: try GTFSFeed.open("vbb.zip"), postgres: url).run()
    /// ```
    public convenience init(feed: GTFSFeed, postgres url: PostgresURL, options: ImportOptions = ImportOptions()) {
        self.init(feed: feed, destination: PostgresDestination(url: url), options: options)
    }
}
