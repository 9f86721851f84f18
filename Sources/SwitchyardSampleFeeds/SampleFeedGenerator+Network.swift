import SwitchyardTransit

// The network and calendar files: agency, stops, routes, calendar, calendar_dates, transfers, feed_info.
extension SampleFeedGenerator {
    /// Real-looking agencies first (some names need quoting); further ones are generated.
    private static let knownAgencies: [(name: String, url: String, phone: String)] = [
        ("Berliner Verkehrsbetriebe", "https://www.bvg.de", "030 19449"),
        ("S-Bahn Berlin GmbH", "https://sbahn.berlin", "030 2974 3333"),
        ("DB Regio AG, Region Nordost", "https://www.bahn.de", ""),
        ("Verkehrsbetrieb Nord, GmbH", "https://www.vb-nord.example", ""),
        ("Regionale Verkehrsgesellschaft \"Dahme-Spreewald\" mbH", "https://www.rvs.example", ""),
        ("Havelbus Verkehrsgesellschaft mbH", "https://www.havelbus.example", "0331 2347-0"),
        ("Barnimer Busgesellschaft mbH", "https://www.bbg.example", ""),
        ("ViP Verkehrsbetrieb Potsdam GmbH", "https://www.vip-potsdam.example", "0331 661 4275"),
    ]

    static func writeAgencies<Sink: SampleFeedSink>(
        _ network: SampleNetwork, to out: inout SampleFeedOutput, sink: inout Sink
    ) throws {
        try out.begin(
            "agency.txt", header: "agency_id,agency_name,agency_url,agency_timezone,agency_lang,agency_phone",
            sink: &sink)
        for index in 0..<network.profile.agencies {
            var name: String
            var url: String
            var phone = ""
            if index < knownAgencies.count {
                (name, url, phone) = knownAgencies[index]
            } else {
                var random = SampleRandom(seed: network.profile.seed, stream: .agencies, index: index)
                name = "Verkehrsgesellschaft " + SampleNames.place(&random) + " mbH"
                url = "https://www.vg\(index + 1).example"
            }
            out.writer.append(index + 1)
            out.writer.appendComma()
            out.writer.append(field: name)
            out.writer.appendComma()
            out.writer.append(field: url)
            out.writer.append(ascii: ",Europe/Berlin,de,")
            out.writer.append(field: phone)
            out.writer.appendNewline()
            try out.endRows(sink: &sink)
        }
        try out.end(sink: &sink)
    }

    static func writeStops<Sink: SampleFeedSink>(
        _ network: SampleNetwork, to out: inout SampleFeedOutput, sink: inout Sink
    ) throws {
        try out.begin(
            "stops.txt",
            header:
                "stop_id,stop_code,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding,platform_code",
            sink: &sink)
        for (index, stop) in network.stops.enumerated() {
            let station = network.stations[stop.station]
            let isStation = stop.platform < 0
            network.stopIDs.write(index, to: &out.writer)
            out.writer.appendComma()
            if stop.code >= 0 { out.writer.append(stop.code) }
            out.writer.appendComma()
            out.writer.append(field: station.name)
            out.writer.appendComma()
            // Stations with 6 decimals, platforms with 7, like real feeds that mix sources.
            out.writer.append(fixedPoint: isStation ? stop.lat / 10 : stop.lat, fractionDigits: isStation ? 6 : 7)
            out.writer.appendComma()
            out.writer.append(fixedPoint: isStation ? stop.lon / 10 : stop.lon, fractionDigits: isStation ? 6 : 7)
            if isStation {
                out.writer.append(ascii: ",1,,")
            } else {
                out.writer.append(ascii: ",0,")
                network.stopIDs.write(station.firstStop, to: &out.writer)
                out.writer.appendComma()
            }
            out.writer.append(stop.wheelchair)
            out.writer.appendComma()
            if !isStation && station.platforms >= 3 { out.writer.append(stop.platform + 1) }
            out.writer.appendNewline()
            try out.endRows(sink: &sink)
        }
        try out.end(sink: &sink)
    }

    static func writeRoutes<Sink: SampleFeedSink>(
        _ network: SampleNetwork, to out: inout SampleFeedOutput, sink: inout Sink
    ) throws {
        try out.begin(
            "routes.txt",
            header: "route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color",
            sink: &sink)
        for route in network.routes {
            writeRouteID(route, to: &out.writer)
            out.writer.appendComma()
            out.writer.append(route.agency + 1)
            out.writer.appendComma()
            out.writer.append(field: route.shortName)
            out.writer.appendComma()
            out.writer.append(field: route.longName)
            out.writer.appendComma()
            out.writer.append(route.type)
            out.writer.appendComma()
            out.writer.append(field: route.color)
            out.writer.appendComma()
            out.writer.append(field: route.textColor)
            out.writer.appendNewline()
            try out.endRows(sink: &sink)
        }
        try out.end(sink: &sink)
    }

    /// `route_id`: `<number>_<type>`.
    static func writeRouteID(_ route: SampleNetwork.Route, to writer: inout CSVTextWriter) {
        writer.append(route.number)
        writer.append(UInt8(ascii: "_"))
        writer.append(route.type)
    }

    static func writeCalendar<Sink: SampleFeedSink>(
        _ network: SampleNetwork, to out: inout SampleFeedOutput, sink: inout Sink
    ) throws {
        try out.begin(
            "calendar.txt",
            header: "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
            sink: &sink)
        for (index, service) in network.calendar.services.enumerated() {
            out.writer.append(index + 1)
            for day in 0..<7 {
                out.writer.appendComma()
                out.writer.append(service.weekdays & (1 << day) != 0 ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            }
            out.writer.appendComma()
            out.writer.append(SampleCalendar.yyyymmdd(service.firstDay))
            out.writer.appendComma()
            out.writer.append(SampleCalendar.yyyymmdd(service.lastDay))
            out.writer.appendNewline()
            try out.endRows(sink: &sink)
        }
        try out.end(sink: &sink)
    }

    static func writeCalendarDates<Sink: SampleFeedSink>(
        _ network: SampleNetwork, to out: inout SampleFeedOutput, sink: inout Sink
    ) throws {
        try out.begin("calendar_dates.txt", header: "service_id,date,exception_type", sink: &sink)
        for (index, service) in network.calendar.services.enumerated() {
            for exception in service.exceptions {
                out.writer.append(index + 1)
                out.writer.appendComma()
                out.writer.append(SampleCalendar.yyyymmdd(exception.day))
                out.writer.appendComma()
                out.writer.append(exception.type)
                out.writer.appendNewline()
                try out.endRows(sink: &sink)
            }
        }
        try out.end(sink: &sink)
    }

    /// Transfers between the first three platforms of some stations: mostly minimum-time transfers (type 2),
    /// some recommended ones (type 0, no time).
    static func writeTransfers<Sink: SampleFeedSink>(
        _ network: SampleNetwork, to out: inout SampleFeedOutput, sink: inout Sink
    ) throws {
        try out.begin("transfers.txt", header: "from_stop_id,to_stop_id,transfer_type,min_transfer_time", sink: &sink)
        for (index, station) in network.stations.enumerated() where station.hasTransfers {
            var random = SampleRandom(seed: network.profile.seed, stream: .transfers, index: index)
            let platforms = min(station.platforms, 3)
            for from in 0..<platforms {
                for to in 0..<platforms where to != from {
                    network.stopIDs.write(station.firstStop + 1 + from, to: &out.writer)
                    out.writer.appendComma()
                    network.stopIDs.write(station.firstStop + 1 + to, to: &out.writer)
                    if random.chance(perMille: 800) {
                        out.writer.append(ascii: ",2,")
                        out.writer.append(60 * random.int(in: 1...5))
                    } else {
                        out.writer.append(ascii: ",0,")
                    }
                    out.writer.appendNewline()
                    try out.endRows(sink: &sink)
                }
            }
        }
        try out.end(sink: &sink)
    }

    static func writeFeedInfo<Sink: SampleFeedSink>(
        _ network: SampleNetwork, to out: inout SampleFeedOutput, sink: inout Sink
    ) throws {
        try out.begin(
            "feed_info.txt",
            header: "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version",
            sink: &sink)
        out.writer.append(ascii: "Switchyard Sample Feed,https://switchyard.example,de,")
        out.writer.append(SampleCalendar.yyyymmdd(SampleCalendar.firstDay))
        out.writer.appendComma()
        out.writer.append(SampleCalendar.yyyymmdd(SampleCalendar.lastDay))
        out.writer.appendComma()
        out.writer.append(field: network.profile.name + "-" + String(network.profile.seed))
        out.writer.appendNewline()
        try out.endRows(sink: &sink)
        try out.end(sink: &sink)
    }
}
