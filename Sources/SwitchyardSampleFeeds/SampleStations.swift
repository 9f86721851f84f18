import SwitchyardTransit

extension SampleNetwork {
    /// Places `profile.stations` stations around Berlin and the towns near it, each followed by its platforms.
    /// One sequential `stations` stream; O(stations + stops).
    mutating func buildStations() {
        var random = SampleRandom(seed: profile.seed, stream: .stations)
        let townWeights = SampleGeo.towns.map(\.weight) + [SampleGeo.scatteredWeight]
        var idWriter = CSVTextWriter(drainThreshold: 256)
        stations.reserveCapacity(profile.stations)
        stops.reserveCapacity(profile.stations * (profile.platformsPerStation.upperBound + 1))

        for index in 0..<profile.stations {
            let (lat, lon) = Self.placeStation(random: &random, townWeights: townWeights)
            let district = SampleGeo.districtCode(lat: lat, lon: lon)
            let platforms = random.int(in: profile.platformsPerStation)
            let name = SampleNames.station(&random)
            let hasTransfers = platforms >= 2 && random.chance(perMille: 300)
            let firstStop = stops.count
            stations.append(
                Station(
                    lat: lat, lon: lon, name: name, firstStop: firstStop, platforms: platforms,
                    hasTransfers: hasTransfers))

            // The station row: VBB-style `de:<district>:900<number>`.
            stops.append(Stop(lat: lat, lon: lon, station: index, platform: -1, code: -1, wheelchair: 0))
            Self.writeStationID(district: district, number: 100_001 + index, to: &idWriter)
            stopIDs.append(from: &idWriter)

            for platform in 0..<platforms {
                let platformLat = SampleGeo.clampLatitude(lat + random.int(in: -3_000...3_000))
                let platformLon = SampleGeo.clampLongitude(lon + random.int(in: -5_000...5_000))
                let code = random.chance(perMille: 150) ? 1_000 + random.below(9_000) : -1
                let wheelchair = random.weighted([20, 70, 10])  // 0 unknown, 1 yes, 2 no
                stops.append(
                    Stop(
                        lat: platformLat, lon: platformLon, station: index, platform: platform, code: code,
                        wheelchair: wheelchair))
                Self.writeStationID(district: district, number: 100_001 + index, to: &idWriter)
                idWriter.append(ascii: "::")
                idWriter.append(platform + 1)
                stopIDs.append(from: &idWriter)
            }
        }
    }

    private static func writeStationID(district: Int, number: Int, to writer: inout CSVTextWriter) {
        writer.append(ascii: "de:")
        writer.append(district)
        writer.append(ascii: ":900")
        writer.append(number, minimumDigits: 6)
    }

    /// A station position: in a town (uniform in its disc, half of them in the inner half) or anywhere in the box;
    /// 10⁻⁷ ° multiples of 10.
    private static func placeStation(random: inout SampleRandom, townWeights: [Int]) -> (lat: Int, lon: Int) {
        let choice = random.weighted(townWeights)
        var lat: Int
        var lon: Int
        if choice == SampleGeo.towns.count {
            lat = SampleGeo.minLatitude + random.below(SampleGeo.maxLatitude - SampleGeo.minLatitude)
            lon = SampleGeo.minLongitude + random.below(SampleGeo.maxLongitude - SampleGeo.minLongitude)
        } else {
            let town = SampleGeo.towns[choice]
            var east: Int
            var north: Int
            repeat {
                east = random.int(in: -1_000...1_000)
                north = random.int(in: -1_000...1_000)
            } while east * east + north * north > 1_000_000
            let radius = random.chance(perMille: 500) ? town.radius : town.radius / 2
            lat = town.lat + SampleGeo.latitudeUnits(decimeters: north * radius / 1_000)
            lon = town.lon + SampleGeo.longitudeUnits(decimeters: east * radius / 1_000)
        }
        lat = SampleGeo.clampLatitude(lat / 10 * 10)
        lon = SampleGeo.clampLongitude(lon / 10 * 10)
        return (lat, lon)
    }
}

/// Stations bucketed in cells of about 1 km², for finding the next stop of a route near a point.
struct SampleStationGrid {
    private static let cellLatitude = 90_000
    private static let cellLongitude = 150_000
    private let rows: Int
    private let columns: Int
    /// Cell `c` holds `items[cellStarts[c] ..< cellStarts[c + 1]]`.
    private var cellStarts: [Int32]
    private var items: [Int32]
    private let positions: [(lat: Int, lon: Int)]

    /// Buckets `stations`: O(stations) time and memory.
    init(stations: [SampleNetwork.Station]) {
        let rows = (SampleGeo.maxLatitude - SampleGeo.minLatitude) / Self.cellLatitude + 1
        let columns = (SampleGeo.maxLongitude - SampleGeo.minLongitude) / Self.cellLongitude + 1
        self.rows = rows
        self.columns = columns
        positions = stations.map { ($0.lat, $0.lon) }
        var counts = [Int32](repeating: 0, count: rows * columns + 1)
        let cells = positions.map { Self.cell(lat: $0.lat, lon: $0.lon, rows: rows, columns: columns) }
        for cell in cells { counts[cell + 1] += 1 }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        cellStarts = counts
        items = [Int32](repeating: 0, count: stations.count)
        var fill = counts
        for (station, cell) in cells.enumerated() {
            items[Int(fill[cell])] = Int32(station)
            fill[cell] += 1
        }
    }

    private static func cell(lat: Int, lon: Int, rows: Int, columns: Int) -> Int {
        let row = min(max((lat - SampleGeo.minLatitude) / cellLatitude, 0), rows - 1)
        let column = min(max((lon - SampleGeo.minLongitude) / cellLongitude, 0), columns - 1)
        return row * columns + column
    }

    /// The station nearest to a point that is not in `excluded`, searching rings of cells outward and stopping at
    /// the first ring with a candidate; nil if every station is excluded. Near a dense area O(a few cells).
    func nearest(lat: Int, lon: Int, excluding excluded: [Int]) -> Int? {
        let center = Self.cell(lat: lat, lon: lon, rows: rows, columns: columns)
        let (row0, column0) = (center / columns, center % columns)
        var best = -1
        var bestDistance = Int.max
        for ring in 0..<max(rows, columns) {
            for row in (row0 - ring)...(row0 + ring) where row >= 0 && row < rows {
                let onEdge = row == row0 - ring || row == row0 + ring
                let step = onEdge ? 1 : max(2 * ring, 1)
                for column in stride(from: column0 - ring, through: column0 + ring, by: step)
                where column >= 0 && column < columns {
                    let cell = row * columns + column
                    for item in items[Int(cellStarts[cell])..<Int(cellStarts[cell + 1])] {
                        let station = Int(item)
                        if excluded.contains(station) { continue }
                        let distance = SampleGeo.squaredDistance((lat, lon), positions[station])
                        if distance < bestDistance || (distance == bestDistance && station < best) {
                            best = station
                            bestDistance = distance
                        }
                    }
                }
            }
            if best >= 0 { return best }
        }
        return nil
    }
}
