import SwitchyardTransit

/// Integer geometry for the sample feed: coordinates in 10⁻⁷ degrees, distances in decimeters, around Berlin.
///
/// Distances use an equirectangular projection at 52.5° N (good to well under 1 % inside the box) and an integer
/// square root, so they are identical on every platform.
enum SampleGeo {
    /// The box every generated coordinate lies in: 52.3–52.7° N, 13.1–13.7° E.
    static let minLatitude = 523_000_000
    static let maxLatitude = 527_000_000
    static let minLongitude = 131_000_000
    static let maxLongitude = 137_000_000

    /// Decimeters per 10⁻⁷ degree, times 10⁶: latitude 111 195 m/°, longitude 111 195 m/° × cos 52.5°.
    private static let latitudeScale = 111_195
    private static let longitudeScale = 67_692

    /// The north–south extent of `latitudeUnits` (10⁻⁷ °), in decimeters.
    static func decimeters(latitudeUnits: Int) -> Int { latitudeUnits * latitudeScale / 1_000_000 }
    /// The east–west extent of `longitudeUnits` (10⁻⁷ °), in decimeters.
    static func decimeters(longitudeUnits: Int) -> Int { longitudeUnits * longitudeScale / 1_000_000 }
    /// 10⁻⁷ ° of latitude spanning `decimeters` north–south.
    static func latitudeUnits(decimeters: Int) -> Int { decimeters * 1_000_000 / latitudeScale }
    /// 10⁻⁷ ° of longitude spanning `decimeters` east–west.
    static func longitudeUnits(decimeters: Int) -> Int { decimeters * 1_000_000 / longitudeScale }

    /// The squared distance in dm² between two points.
    static func squaredDistance(_ a: (lat: Int, lon: Int), _ b: (lat: Int, lon: Int)) -> Int {
        let dy = decimeters(latitudeUnits: b.lat - a.lat)
        let dx = decimeters(longitudeUnits: b.lon - a.lon)
        return dx * dx + dy * dy
    }

    /// The distance in decimeters between two points.
    static func distance(_ a: (lat: Int, lon: Int), _ b: (lat: Int, lon: Int)) -> Int {
        squareRoot(squaredDistance(a, b))
    }

    /// ⌊√n⌋ for n ≥ 0, by Newton's method from a power-of-two guess above the root.
    static func squareRoot(_ n: Int) -> Int {
        guard n > 1 else { return max(n, 0) }
        let bits = Int.bitWidth - n.leadingZeroBitCount
        var x = 1 << ((bits + 1) / 2)
        while true {
            let y = (x + n / x) / 2
            if y >= x { return x }
            x = y
        }
    }

    /// Clamps a latitude into the box.
    static func clampLatitude(_ value: Int) -> Int { min(max(value, minLatitude), maxLatitude) }
    /// Clamps a longitude into the box.
    static func clampLongitude(_ value: Int) -> Int { min(max(value, minLongitude), maxLongitude) }

    /// Sixteen compass headings as (east, north) components of a unit vector, in thousandths.
    static let headings: [(east: Int, north: Int)] = [
        (1000, 0), (924, 383), (707, 707), (383, 924), (0, 1000), (-383, 924), (-707, 707), (-924, 383),
        (-1000, 0), (-924, -383), (-707, -707), (-383, -924), (0, -1000), (383, -924), (707, -707), (924, -383),
    ]

    /// A town stations cluster around: centre, share of stations (per mille) and radius in decimeters.
    struct Town {
        var lat: Int
        var lon: Int
        var weight: Int
        var radius: Int
    }

    /// Berlin and towns around it; the remaining weight scatters stations over the whole box.
    static let towns: [Town] = [
        Town(lat: 525_200_000, lon: 134_050_000, weight: 640, radius: 170_000),  // Berlin
        Town(lat: 525_360_000, lon: 132_000_000, weight: 50, radius: 40_000),  // Spandau
        Town(lat: 523_950_000, lon: 131_300_000, weight: 60, radius: 50_000),  // Potsdam
        Town(lat: 525_600_000, lon: 131_500_000, weight: 30, radius: 30_000),  // Falkensee
        Town(lat: 526_850_000, lon: 132_500_000, weight: 30, radius: 30_000),  // Oranienburg
        Town(lat: 526_750_000, lon: 135_900_000, weight: 30, radius: 30_000),  // Bernau
        Town(lat: 525_780_000, lon: 136_800_000, weight: 20, radius: 25_000),  // Strausberg
        Town(lat: 524_250_000, lon: 136_800_000, weight: 20, radius: 25_000),  // Erkner
        Town(lat: 523_150_000, lon: 136_300_000, weight: 30, radius: 30_000),  // Königs Wusterhausen
        Town(lat: 523_950_000, lon: 132_500_000, weight: 30, radius: 30_000),  // Teltow
    ]
    /// Per mille of stations placed anywhere in the box.
    static let scatteredWeight = 60

    /// The Amtlicher Gemeindeschlüssel-style district code of a point (used in stop IDs): Berlin, Potsdam, or the
    /// Brandenburg district in that direction from Berlin.
    static func districtCode(lat: Int, lon: Int) -> Int {
        let berlin = towns[0]
        let potsdam = towns[2]
        if squaredDistance((lat, lon), (berlin.lat, berlin.lon)) < 160_000 * 160_000 { return 11000 }
        if squaredDistance((lat, lon), (potsdam.lat, potsdam.lon)) < 50_000 * 50_000 { return 12054 }
        let north = decimeters(latitudeUnits: lat - berlin.lat)
        let east = decimeters(longitudeUnits: lon - berlin.lon)
        let (absNorth, absEast) = (abs(north), abs(east))
        if absNorth * 5 < absEast * 2 { return east > 0 ? 12064 : 12069 }  // Märkisch-Oderland, Potsdam-Mittelmark
        if absEast * 5 < absNorth * 2 { return north > 0 ? 12065 : 12061 }  // Oberhavel, Dahme-Spreewald
        switch (north > 0, east > 0) {
        case (true, true): return 12060  // Barnim
        case (false, true): return 12067  // Oder-Spree
        case (false, false): return 12072  // Teltow-Fläming
        case (true, false): return 12063  // Havelland
        }
    }
}
