import SwitchyardTransit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small hand-written feed with the quirks real feeds have: a byte-order mark, CRLF line endings, quoted fields
/// with commas, one-digit hours and hours past 24, extra columns and files, stop_times not grouped by trip,
/// duplicate keys, a few records that must be skipped, and the quirks mainstream consumers tolerate (imported
/// with a warning): a space after a closing quote, text after one, rows shorter and longer than the header, a
/// Windows-1252 name, a NUL byte, invalid optional values. Written as a folder or a zip (optionally inside a
/// sub-folder). The feed the import's tests (SQLite and PostgreSQL) check every quirk against.
public enum QuirksFeed {
    public static let files: [String: String] = [
        // A byte-order mark before the header.
        // A byte-order mark before the header; a space after the last closing quote (warning).
        "agency.txt":
            "\u{FEFF}agency_id,agency_name,agency_url,agency_timezone,agency_fare_url\nA1,\"Verkehrsbetrieb Nord, GmbH\",https://example.org,Europe/Berlin,\"https://example.org/fares\" \n",
        // CRLF line endings; a quoted name with a comma; a duplicate stop_id; a stop with a bad latitude and one with
        // a hexadecimal one (both imported with NULL and a warning); a name in Windows-1252 (see `windows1252`).
        "stops.txt": [
            "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station",
            "S1,\"Alexanderplatz, Bhf\",52.521508,13.411267,1,",
            "S1a,Alexanderplatz Gleis 1,52.5215,13.4113,0,S1",
            "S2,Hauptbahnhof,52.525592,13.369545,0,",
            "S2,Hauptbahnhof (duplicate),52.525592,13.369545,0,",
            "S3,Nowhere,north,13.0,0,",
            "S4,Caf\u{E9} Kranzler,0x10,13.33,0,",
        ].joined(separator: "\r\n") + "\r\n",
        // An extra column the reference does not define (kept as text); text after a closing quote; a NUL byte.
        "routes.txt":
            "route_id,agency_id,route_short_name,route_long_name,route_type,x_network_color\nR1,A1,U2,\"Pankow – Ruhleben\" (U2),1,red\nR2,A1,100,Bus\u{0} 100,3,\n",
        // Rows shorter than the header (trailing optional fields left out), one with an empty field past the
        // header's and one with a value past it (all imported, with warnings).
        "trips.txt":
            "route_id,service_id,trip_id,trip_headsign,direction_id,block_id,shape_id\nR1,WD,T1,Ruhleben,0\nR1,WD,T2,Pankow,1,,,\nR2,WE,T3,Zoo,0,,,oops\n",
        // Interleaved trips, a one-digit hour, hours past 24, a bad time, a ragged row, an empty required field,
        // a reference to a trip that does not exist, and a repeated (trip_id, stop_sequence).
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,8:05:00,8:05:30,S1a,1
        T2,23:59:00,23:59:00,S2,1
        T1,08:10:00,08:10:00,S2,2
        T2,24:03:00,24:03:30,S1a,2
        T2,25:13:00,25:13:00,S2,3
        T3,8:5:00,08:05:00,S2,1
        T3,09:00:00,09:00:00,S2
        ,09:00:00,09:00:00,S2,5
        T9,10:00:00,10:00:00,S2,1
        T3,10:00:00,10:00:00,S1a,2
        T3,10:05:00,10:05:00,S2,2

        """,
        // A date that is no day (year 0): a required field, so the record is skipped.
        "calendar.txt":
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20250101,20251231\nXX,1,1,1,1,1,1,1,00000101,20251231\n",
        // Only calendar_dates for WE (a feed may use either file).
        "calendar_dates.txt": "service_id,date,exception_type\nWE,20250104,1\nWE,20250105,1\nWD,20251225,2\n",
        // A file GTFS defines that is no table (GTFS-Flex's zones, GeoJSON), and one GTFS does not define.
        "locations.geojson": #"{"type": "FeatureCollection", "features": []}"# + "\n",
        "notes.txt": "anything goes here\n",
    ]

    /// Records per file (lines after the header), how many of them are skipped, and the warnings.
    public static let expected: [String: (records: Int, skipped: Int, warnings: Int)] = [
        "agency.txt": (1, 0, 1), "stops.txt": (6, 0, 3), "routes.txt": (2, 0, 2), "trips.txt": (3, 0, 3),
        "stop_times.txt": (11, 2, 1), "calendar.txt": (2, 1, 0), "calendar_dates.txt": (3, 0, 0),
    ]

    /// Files written in Windows-1252 rather than UTF-8.
    public static let windows1252: Set<String> = ["stops.txt"]

    /// The bytes of the file `name`: its text in UTF-8, or in Windows-1252 for ``windows1252``.
    public static func bytes(_ name: String) -> [UInt8] {
        let text = files[name]!
        guard windows1252.contains(name) else { return Array(text.utf8) }
        return text.unicodeScalars.map { UInt8($0.value) }  // Latin-1 letters only: the same bytes in both
    }

    /// Writes the feed as a folder at `path`, optionally inside `folder` (both created if missing).
    public static func writeFolder(_ path: String, folder: String? = nil) throws {
        let base = folder.map { path + "/" + $0 } ?? path
        for created in [path, base] where mkdir(created, 0o755) != 0 && errno != EEXIST {
            throw ImportError(.unreadableFeed, "\(created): cannot create the folder (\(systemMessage(errno)))")
        }
        var sink = FolderSink(folder: base)
        try write(into: &sink, prefix: "", omitting: [])
    }

    /// Writes the feed as a zip at `path`, its files inside `folder` if given.
    public static func writeZip(_ path: String, folder: String? = nil, omitting omitted: Set<String> = []) throws {
        let writer = try ZipWriter(path: path)
        if let folder {
            try writer.beginEntry(folder + "/")
            try writer.endEntry()
        }
        var sink = ZipSink(writer: writer)
        try write(into: &sink, prefix: folder.map { $0 + "/" } ?? "", omitting: omitted)
    }

    private static func write(into sink: inout some SampleFeedSink, prefix: String, omitting omitted: Set<String>)
        throws
    {
        for name in files.keys.sorted() where !omitted.contains(name) {
            try sink.beginFile(prefix + name)
            try bytes(name).withUnsafeBytes { try sink.write($0) }
            try sink.endFile()
        }
        try sink.finish()
    }
}
