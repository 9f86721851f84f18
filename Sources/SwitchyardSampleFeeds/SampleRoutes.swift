import SwitchyardTransit

extension SampleNetwork {
    /// GTFS route types and their shares (per mille): bus, regional bus, tram, subway, S-Bahn, rail.
    private static let routeTypes = [3, 700, 0, 1, 109, 2]
    private static let routeTypeWeights = [560, 330, 40, 15, 20, 35]
    private static let subwayColors: [(color: String, text: String)] = [
        ("7DAD4C", "FFFFFF"), ("DA421E", "FFFFFF"), ("16683D", "FFFFFF"), ("F0D722", "000000"), ("7E5330", "FFFFFF"),
        ("8C6DAB", "FFFFFF"), ("528DBA", "FFFFFF"), ("224F86", "FFFFFF"), ("F3791D", "FFFFFF"),
    ]
    private static let sBahnNames = [
        "S1", "S2", "S25", "S26", "S3", "S41", "S42", "S45", "S46", "S47", "S5", "S7", "S75", "S8", "S85", "S9",
    ]

    /// Builds `profile.routes` routes, each from its own `routes` stream: a walk through nearby stations, two
    /// directions and sometimes a short-turn variant of each, every pattern with its shape. O(routes × stopsPerTrip
    /// × (stopsPerTrip + shapePointsBetweenStops)) time.
    mutating func buildRoutes(grid: SampleStationGrid) {
        var counters = [Int](repeating: 0, count: 8)
        routes.reserveCapacity(profile.routes)
        for index in 0..<profile.routes {
            var random = SampleRandom(seed: profile.seed, stream: .routes, index: index)
            let type = Self.routeTypes[random.weighted(Self.routeTypeWeights)]
            let isNight = type == 3 && random.chance(perMille: 60)
            let count = stopCount(type: type, random: &random)
            let path = walk(count: count, type: type, grid: grid, random: &random)
            let routePatterns = addPatterns(route: index, path: path, type: type, random: &random)
            let names = routeNames(type: type, isNight: isNight, path: path, counters: &counters, random: &random)
            let agency = routeAgency(type: type, path: path, random: &random)
            appendRoute(
                index: index, type: type, isNight: isNight, agency: agency, names: names, patterns: routePatterns,
                random: &random)
        }
    }

    /// Draws how many stations a route of `type` visits: the profile's stops per trip, fewer for rail, S-Bahn and
    /// subway, and at least 2.
    private func stopCount(type: Int, random: inout SampleRandom) -> Int {
        var count = random.int(in: profile.stopsPerTrip)
        switch type {
        case 2: count = count * 3 / 5
        case 1, 109: count = count * 4 / 5
        default: break
        }
        return max(2, count)
    }

    /// Adds route `index`'s patterns along `path` (stations), both directions and sometimes a short-turn variant of
    /// each, and returns their indexes in `patterns`.
    private mutating func addPatterns(
        route index: Int, path: [Int], type: Int, random: inout SampleRandom
    ) -> Range<Int> {
        let count = path.count
        let sequenceStyle = random.weighted([75, 15, 10])
        let dwell = type == 2 ? 60 : 0
        let firstPattern = patterns.count
        addPattern(
            route: index, direction: 0, path: path, slot: index, type: type, sequenceStyle: sequenceStyle,
            dwell: dwell, random: &random)
        addPattern(
            route: index, direction: 1, path: path.reversed(), slot: index + 1, type: type,
            sequenceStyle: sequenceStyle, dwell: dwell, random: &random)
        if count >= 6 && random.chance(perMille: 500) {
            let length = max(2, count * random.int(in: 50...80) / 100)
            let offset = random.chance(perMille: 500) ? 0 : count - length
            let part = Array(path[offset..<(offset + length)])
            addPattern(
                route: index, direction: 0, path: part, slot: index, type: type,
                sequenceStyle: sequenceStyle, dwell: dwell, random: &random)
            addPattern(
                route: index, direction: 1, path: part.reversed(), slot: index + 1, type: type,
                sequenceStyle: sequenceStyle, dwell: dwell, random: &random)
        }
        return firstPattern..<patterns.count
    }

    /// Names a route of `type` along `path`: its short name (numbered by `counters`), its long name (first to last
    /// station; for buses only sometimes) and its colours.
    private func routeNames(
        type: Int, isNight: Bool, path: [Int], counters: inout [Int], random: inout SampleRandom
    ) -> (short: String, long: String, color: String, textColor: String) {
        let shortName = Self.shortName(type: type, isNight: isNight, counters: &counters, random: &random)
        let from = stations[path[0]].name
        let to = stations[path[path.count - 1]].name
        let hasLongName = (type != 3 && type != 700) || random.chance(perMille: 400)
        var (color, textColor) = ("", "")
        switch type {
        case 1: (color, textColor) = Self.subwayColors[(counters[5] - 1) % Self.subwayColors.count]
        case 109: (color, textColor) = ("008D4F", "FFFFFF")
        case 0: (color, textColor) = ("BE1414", "FFFFFF")
        case 2: (color, textColor) = ("E30613", "FFFFFF")
        case 3 where isNight || shortName.hasPrefix("M"): (color, textColor) = ("A5027D", "FFFFFF")
        default: break
        }
        return (shortName, hasLongName ? from + " - " + to : "", color, textColor)
    }

    /// Chooses the agency of a route of `type` starting at `path[0]`: by mode (buses in Berlin by the first
    /// agency), else, or when the profile has no such agency, a random one.
    private func routeAgency(type: Int, path: [Int], random: inout SampleRandom) -> Int {
        let inBerlin = SampleGeo.districtCode(lat: stations[path[0]].lat, lon: stations[path[0]].lon) == 11000
        var agency: Int
        switch type {
        case 0, 1: agency = 0
        case 109: agency = 1
        case 2: agency = 2
        case 3 where inBerlin: agency = 0
        default: agency = -1
        }
        if agency < 0 || agency >= profile.agencies {
            agency = profile.agencies > 3 ? 3 + random.below(profile.agencies - 3) : random.below(profile.agencies)
        }
        return agency
    }

    /// Draws how route `index` runs (by frequency or timetable, exact times, blocks, trips and hours) and appends it,
    /// its trips numbered after those of the routes before it.
    private mutating func appendRoute(
        index: Int, type: Int, isNight: Bool, agency: Int,
        names: (short: String, long: String, color: String, textColor: String), patterns routePatterns: Range<Int>,
        random: inout SampleRandom
    ) {
        // The second route always runs by frequency, so every profile has a frequencies.txt to import.
        let hasFrequencies = index == 1 || random.chance(perMille: type == 1 ? 500 : 8)
        let exactTimes = random.chance(perMille: 300)
        let usesBlocks = !hasFrequencies && random.chance(perMille: 200)
        let trips = random.int(in: profile.tripsPerRoute)
        let routeTrips = isNight ? max(1, trips / 4) : trips
        let firstHour = isNight ? 24 : 4 + random.below(3)
        let endHour = isNight ? 29 : 23 + random.below(4)

        routes.append(
            Route(
                number: 10_001 + index, type: type, agency: agency, shortName: names.short,
                longName: names.long, color: names.color, textColor: names.textColor,
                isNight: isNight,
                usesBlocks: usesBlocks, hasFrequencies: hasFrequencies, exactTimes: exactTimes,
                firstHour: firstHour, endHour: endHour, tripCount: routeTrips, firstTrip: tripCount,
                patterns: routePatterns))
        tripCount += routeTrips
    }

    /// A plausible line: from a random station, each next stop the nearest unvisited station about one stop
    /// spacing (by mode) ahead, the heading drifting and bouncing off the box's edges.
    private func walk(count: Int, type: Int, grid: SampleStationGrid, random: inout SampleRandom) -> [Int] {
        let spacing: ClosedRange<Int> =
            switch type {
            case 2: 30_000...80_000
            case 109: 15_000...30_000
            case 1: 7_000...11_000
            case 0: 3_500...6_000
            case 700: 5_000...15_000
            default: 3_000...7_000
            }
        var path = [random.below(stations.count)]
        path.reserveCapacity(count)
        var heading = random.below(16)
        while path.count < count {
            switch random.below(10) {
            case 0: heading = (heading + 15) % 16
            case 1: heading = (heading + 1) % 16
            default: break
            }
            let step = random.int(in: spacing)
            let current = stations[path[path.count - 1]]
            var target = Self.advance(current.lat, current.lon, heading: heading, decimeters: step)
            if target.lat != SampleGeo.clampLatitude(target.lat) || target.lon != SampleGeo.clampLongitude(target.lon) {
                heading = (heading + 8) % 16
                target = Self.advance(current.lat, current.lon, heading: heading, decimeters: step)
            }
            let next = grid.nearest(lat: target.lat, lon: target.lon, excluding: path) ?? random.below(stations.count)
            path.append(next)
        }
        return path
    }

    private static func advance(_ lat: Int, _ lon: Int, heading: Int, decimeters: Int) -> (lat: Int, lon: Int) {
        let unit = SampleGeo.headings[heading]
        return (
            lat + SampleGeo.latitudeUnits(decimeters: unit.north * decimeters / 1_000),
            lon + SampleGeo.longitudeUnits(decimeters: unit.east * decimeters / 1_000)
        )
    }

    /// Adds the pattern visiting `path` (stations) at platform `slot` of each, with its stop sequences, shape
    /// distances and run times.
    private mutating func addPattern(
        route: Int, direction: Int, path: [Int], slot: Int, type: Int,
        sequenceStyle: Int, dwell: Int, random: inout SampleRandom
    ) {
        let patternIndex = patterns.count
        let first = patternStops.count
        var sequence = sequenceStyle == 1 ? 0 : 1
        for (position, stationIndex) in path.enumerated() {
            let station = stations[stationIndex]
            let stop = station.firstStop + 1 + slot % station.platforms
            patternStops.append(
                PatternStop(
                    stop: Int32(stop), sequence: Int32(sequence), time: 0, distance: 0,
                    pickup: position == path.count - 1 ? 1 : 0, dropOff: position == 0 ? 1 : 0))
            sequence += sequenceStyle == 2 && random.chance(perMille: 200) ? 2 : 1
        }
        var stopHeadsign = ""
        var stopHeadsignCount = 0
        if path.count >= 4 && random.chance(perMille: 30) {
            stopHeadsign = stations[path[path.count - 1]].name + " über " + stations[path[path.count / 2]].name
            stopHeadsignCount = path.count / 2
        }
        patterns.append(
            Pattern(
                route: route, direction: direction, stops: first..<patternStops.count, shapePoints: 0,
                headsign: path[path.count - 1], stopHeadsign: stopHeadsign, stopHeadsignCount: stopHeadsignCount,
                dwell: dwell))

        var shape = shape(of: patternIndex)
        var points = 0
        while let point = shape.next() {
            points += 1
            if point.stop >= 0 { patternStops[first + point.stop].distance = Int32(point.distance) }
        }
        patterns[patternIndex].shapePoints = points

        // Base run times: distance along the shape at the mode's average speed, plus time to stop.
        let (speed, stopping) =
            switch type {  // dm/s, s
            case 2: (170, 30)
            case 109: (120, 20)
            case 1: (95, 20)
            case 0: (60, 15)
            case 700: (75, 15)
            default: (55, 15)
            }
        var time = 0
        for position in (first + 1)..<patternStops.count {
            let length = Int(patternStops[position].distance - patternStops[position - 1].distance)
            time += max(30, length / speed + stopping)
            patternStops[position].time = Int32(time)
        }
    }

    /// The route's `route_short_name`: counters per family (bus, night, metro bus, regional bus, tram, subway,
    /// S-Bahn, rail) number lines like VBB's.
    private static func shortName(
        type: Int, isNight: Bool, counters: inout [Int],
        random: inout SampleRandom
    ) -> String {
        let family: Int =
            switch type {
            case 3: isNight ? 1 : (random.chance(perMille: 80) ? 2 : 0)
            case 700: 3
            case 0: 4
            case 1: 5
            case 109: 6
            default: 7
            }
        let n = counters[family]
        counters[family] += 1
        switch family {
        case 0: return String(100 + n)
        case 1: return "N" + String(n + 1)
        case 2: return "M" + String(n + 11)
        case 3: return String(400 + n)
        case 4: return n < 10 ? "M" + String(n + 1) : String(n + 2)
        case 5: return "U" + String(n + 1)
        case 6: return n < sBahnNames.count ? sBahnNames[n] : "S" + String(100 + n)
        default: return n % 2 == 0 ? "RE" + String(n / 2 + 1) : "RB" + String(n / 2 + 10)
        }
    }
}
