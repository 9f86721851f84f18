import SwitchyardTransit

/// One point of a pattern's shape.
struct SampleShapePoint {
    /// Coordinates in 10⁻⁷ degrees.
    var lat: Int
    var lon: Int
    /// Decimeters along the shape from its first point.
    var distance: Int
    /// The position in the pattern of the stop at this point, or -1 between stops.
    var stop: Int
}

/// The points of one pattern's shape: each stop's platform, and between consecutive stops a number of points
/// (drawn from `pointsBetweenStops`) along a gentle arc with a little noise, so lines look drawn rather than
/// straight. The same stops and random stream give the same points, which is how the network build (stop
/// distances, point counts) and `shapes.txt` agree. O(1) memory besides the stops; O(1) per point.
struct SampleShapeIterator: IteratorProtocol {
    private let stops: [(lat: Int, lon: Int)]
    private let pointsBetweenStops: ClosedRange<Int>
    private var random: SampleRandom
    /// The position of the next stop to emit.
    private var nextStop = 0
    private var inner = 0
    private var innerCount = 0
    /// The arc's height at the segment's middle, in per mille of its length (signed: left or right).
    private var bulge = 0
    private var distance = 0
    private var previous: (lat: Int, lon: Int)?

    init(stops: [(lat: Int, lon: Int)], pointsBetweenStops: ClosedRange<Int>, random: SampleRandom) {
        self.stops = stops
        self.pointsBetweenStops = pointsBetweenStops
        self.random = random
    }

    mutating func next() -> SampleShapePoint? {
        guard nextStop < stops.count else { return nil }
        let position: (lat: Int, lon: Int)
        var stop = -1
        if nextStop > 0 && inner < innerCount {
            inner += 1
            position = intermediate(from: stops[nextStop - 1], to: stops[nextStop])
        } else {
            position = stops[nextStop]
            stop = nextStop
            nextStop += 1
            if nextStop < stops.count {
                inner = 0
                innerCount = random.int(in: pointsBetweenStops)
                bulge = random.int(in: -80...80)
            }
        }
        if let previous { distance += SampleGeo.distance(previous, position) }
        previous = position
        return SampleShapePoint(lat: position.lat, lon: position.lon, distance: distance, stop: stop)
    }

    /// Point `inner` of `innerCount` between two stops.
    private mutating func intermediate(from a: (lat: Int, lon: Int), to b: (lat: Int, lon: Int)) -> (lat: Int, lon: Int)
    {
        let fraction = inner * 1_000 / (innerCount + 1)  // per mille of the way
        let north = SampleGeo.decimeters(latitudeUnits: b.lat - a.lat)
        let east = SampleGeo.decimeters(longitudeUnits: b.lon - a.lon)
        let offset = bulge * fraction * (1_000 - fraction) / 250_000  // per mille of the length, sideways
        let noiseNorth = random.int(in: -15...15)
        let noiseEast = random.int(in: -15...15)
        let lat =
            a.lat + (b.lat - a.lat) * fraction / 1_000
            + SampleGeo.latitudeUnits(decimeters: east * offset / 1_000 + noiseNorth)
        let lon =
            a.lon + (b.lon - a.lon) * fraction / 1_000
            + SampleGeo.longitudeUnits(decimeters: -north * offset / 1_000 + noiseEast)
        return (SampleGeo.clampLatitude(lat), SampleGeo.clampLongitude(lon))
    }
}
