import SwitchyardTransit

// The schedule files: trips, stop_times (the bulk of every feed), shapes, frequencies.
extension SampleFeedGenerator {
    static func writeTrips<Sink: SampleFeedSink>(
        _ network: SampleNetwork, to out: inout SampleFeedOutput, sink: inout Sink
    ) throws {
        try out.begin(
            "trips.txt",
            header:
                "route_id,service_id,trip_id,trip_headsign,direction_id,block_id,shape_id,wheelchair_accessible,bikes_allowed",
            sink: &sink)
        for (routeIndex, route) in network.routes.enumerated() {
            var timetable = SampleTimetable(network: network, route: routeIndex)
            while let trip = timetable.next() {
                let pattern = network.patterns[trip.pattern]
                writeRouteID(route, to: &out.writer)
                out.writer.appendComma()
                out.writer.append(trip.service + 1)
                out.writer.appendComma()
                out.writer.append(trip.id)
                out.writer.appendComma()
                out.writer.append(field: network.stations[pattern.headsign].name)
                out.writer.appendComma()
                out.writer.append(pattern.direction)
                out.writer.appendComma()
                if trip.block >= 0 {
                    out.writer.append(route.number)
                    out.writer.append(UInt8(ascii: "/"))
                    out.writer.append(trip.block + 1)
                }
                out.writer.appendComma()
                out.writer.append(trip.pattern + 1)
                out.writer.appendComma()
                out.writer.append(trip.wheelchair)
                out.writer.appendComma()
                out.writer.append(trip.bikes)
                out.writer.appendNewline()
                try out.endRows(sink: &sink)
            }
        }
        try out.end(sink: &sink)
    }

    static func writeStopTimes<Sink: SampleFeedSink>(
        _ network: SampleNetwork, to out: inout SampleFeedOutput, sink: inout Sink
    ) throws {
        try out.begin(
            "stop_times.txt",
            header:
                "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type,stop_headsign,shape_dist_traveled",
            sink: &sink)
        for routeIndex in network.routes.indices {
            var timetable = SampleTimetable(network: network, route: routeIndex)
            while let trip = timetable.next() {
                let rows = writeStopTimes(of: trip, network: network, to: &out.writer)
                try out.endRows(rows, sink: &sink)
            }
        }
        try out.end(sink: &sink)
    }

    /// The stop times of one trip: arrival at each stop is the pattern's run time scaled by the trip's pace and
    /// rounded to the minute, plus the dwell at the stops before; departure adds this stop's dwell. Returns the
    /// number of rows. Not generic, so the hot loop is specialized whatever the sink.
    static func writeStopTimes(
        of trip: SampleTimetable.Trip, network: SampleNetwork,
        to writer: inout CSVTextWriter
    ) -> Int {
        let pattern = network.patterns[trip.pattern]
        let first = pattern.stops.lowerBound
        let last = pattern.stops.count - 1
        for position in 0...last {
            let stop = network.patternStops[first + position]
            let running = (Int(stop.time) * trip.pace / 1_024 + 30) / 60 * 60
            let arrival = trip.start + running + pattern.dwell * max(0, position - 1)
            let departure = position > 0 && position < last ? arrival + pattern.dwell : arrival
            writer.append(trip.id)
            writer.appendComma()
            writer.append(time: arrival)
            writer.appendComma()
            writer.append(time: departure)
            writer.appendComma()
            network.stopIDs.write(Int(stop.stop), to: &writer)
            writer.appendComma()
            writer.append(Int(stop.sequence))
            writer.appendComma()
            writer.append(stop.pickup &+ 0x30)
            writer.appendComma()
            writer.append(stop.dropOff &+ 0x30)
            writer.appendComma()
            if position < pattern.stopHeadsignCount { writer.append(field: pattern.stopHeadsign) }
            writer.appendComma()
            writer.append(fixedPoint: Int(stop.distance), fractionDigits: 1)
            writer.appendNewline()
        }
        return last + 1
    }

    static func writeShapes<Sink: SampleFeedSink>(
        _ network: SampleNetwork, to out: inout SampleFeedOutput, sink: inout Sink
    ) throws {
        try out.begin(
            "shapes.txt", header: "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled",
            sink: &sink)
        for patternIndex in network.patterns.indices {
            var shape = network.shape(of: patternIndex)
            var sequence = 1
            while let point = shape.next() {
                out.writer.append(patternIndex + 1)
                out.writer.appendComma()
                out.writer.append(fixedPoint: point.lat / 10, fractionDigits: 6)
                out.writer.appendComma()
                out.writer.append(fixedPoint: point.lon / 10, fractionDigits: 6)
                out.writer.appendComma()
                out.writer.append(sequence)
                out.writer.appendComma()
                out.writer.append(fixedPoint: point.distance, fractionDigits: 1)
                out.writer.appendNewline()
                sequence += 1
                try out.endRows(sink: &sink)
            }
        }
        try out.end(sink: &sink)
    }

    /// The first two trips (one per direction) of each frequency-based route, as templates for the day's windows.
    static func writeFrequencies<Sink: SampleFeedSink>(
        _ network: SampleNetwork, to out: inout SampleFeedOutput, sink: inout Sink
    ) throws {
        try out.begin("frequencies.txt", header: "trip_id,start_time,end_time,headway_secs,exact_times", sink: &sink)
        for route in network.routes where route.hasFrequencies {
            for ordinal in 0..<min(2, route.tripCount) {
                for window in frequencyWindows {
                    out.writer.append(route.firstTrip + ordinal + 1)
                    out.writer.appendComma()
                    out.writer.append(time: window.start)
                    out.writer.appendComma()
                    out.writer.append(time: window.end)
                    out.writer.appendComma()
                    out.writer.append(window.headway)
                    out.writer.appendComma()
                    out.writer.append(route.exactTimes ? UInt8(ascii: "1") : UInt8(ascii: "0"))
                    out.writer.appendNewline()
                    try out.endRows(sink: &sink)
                }
            }
        }
        try out.end(sink: &sink)
    }
}
