import SwitchyardTransit

/// The trips of one route in departure order, replayed from the route's `timetable` stream: `trips.txt`,
/// `stop_times.txt` and ``SampleFeedGenerator/expectedRecords(for:)`` all iterate it and see the same trips.
///
/// Departures follow a daily demand curve (peaks at 7–9 and 15–18 h) between the route's first and end hour,
/// alternate directions, mostly use the main patterns and sometimes the short-turn variants. O(1) memory and
/// amortized O(1) per trip (routes with blocks: O(vehicles) for each).
struct SampleTimetable: IteratorProtocol {
    /// One trip.
    struct Trip {
        /// `trip_id` (global index + 1; increasing in departure order within the route).
        var id: Int
        /// The trip's position in its route, from 0.
        var ordinal: Int
        var pattern: Int
        /// Departure from the first stop, in service-day seconds (whole minutes).
        var start: Int
        /// Index of the `service_id`.
        var service: Int
        /// Run time scale in 1/1024: slower at peak hours, faster at night.
        var pace: Int
        var wheelchair: Int
        var bikes: Int
        /// The vehicle of the route that runs the trip (`block_id` `<route number>/<vehicle + 1>`), or -1 for none.
        var block: Int
    }

    private let route: SampleNetwork.Route
    private let services: Int
    private let hasVariants: Bool
    private var random: SampleRandom
    private var ordinal = 0
    private var hour: Int
    private var hourStartWeight = 0
    private let totalWeight: Int
    private var previousStart = 0
    /// Routes with blocks: each pattern's (last stop's base run time, dwell × intermediate stops), and each
    /// vehicle's next free time and the direction it can start next.
    private var patternTimes: [(running: Int, dwell: Int)] = []
    private var vehicles: [(freeAt: Int, direction: Int)] = []

    /// The timetable of route `routeIndex` of `network`.
    init(network: SampleNetwork, route routeIndex: Int) {
        route = network.routes[routeIndex]
        services = network.profile.services
        hasVariants = route.patterns.count >= 4
        random = SampleRandom(seed: network.profile.seed, stream: .timetable, index: routeIndex)
        hour = route.firstHour
        var total = 0
        for hour in route.firstHour..<route.endHour { total += Self.weight(hour: hour) * 60 }
        totalWeight = total
        if route.usesBlocks {
            patternTimes = route.patterns.map { index in
                let pattern = network.patterns[index]
                let running = Int(network.patternStops[pattern.stops.upperBound - 1].time)
                return (running, pattern.dwell * max(0, pattern.stops.count - 2))
            }
        }
    }

    /// Relative demand in each service-day hour (4 h … 28 h).
    private static func weight(hour: Int) -> Int {
        switch hour {
        case 7, 16: 9
        case 8, 15, 17: 8
        case 6, 14: 7
        case 9, 13, 18: 6
        case 10, 11, 12, 19: 5
        case 5, 20: 4
        case 21, 22, 24, 25, 26: 3
        default: 2
        }
    }

    mutating func next() -> Trip? {
        guard ordinal < route.tripCount else { return nil }
        defer { ordinal += 1 }
        // The departure at quantile (ordinal + ½) / tripCount of the demand curve, in whole minutes.
        let target = (2 * ordinal + 1) * totalWeight / (2 * route.tripCount)
        while hour < route.endHour - 1 && hourStartWeight + Self.weight(hour: hour) * 60 <= target {
            hourStartWeight += Self.weight(hour: hour) * 60
            hour += 1
        }
        let minute = min(59, (target - hourStartWeight) / Self.weight(hour: hour))
        let jitter = random.int(in: -2...2) * 60
        let start = max(hour * 3600 + minute * 60 + jitter, previousStart, route.firstHour * 3600)
        previousStart = start

        let direction = ordinal % 2
        let variant = hasVariants && random.chance(perMille: 250)
        let pattern = route.patterns.lowerBound + direction + (variant ? 2 : 0)
        let roll = random.below(100)
        let service = (roll < 45 ? 0 : roll < 60 ? 1 : roll < 75 ? 2 : random.below(services)) % services
        let wheelchair = random.weighted([8, 85, 7])
        let bikes: Int =
            switch route.type {
            case 0, 1, 2, 109: 1
            default: random.chance(perMille: 700) ? 2 : 0
            }
        let startHour = start / 3600
        let pace =
            switch startHour {
            case 7, 8, 15, 16, 17: 1_126
            case ..<6, 21...: 900
            default: 1_024
            }
        var block = -1
        if route.usesBlocks {
            // The first vehicle waiting at this end of the line, free by departure; else a new one. Blocks never
            // overlap in time (5 minutes' layover), whatever the trips' services.
            let times = patternTimes[pattern - route.patterns.lowerBound]
            let end = start + (times.running * pace / 1_024 + 30) / 60 * 60 + times.dwell
            block = vehicles.firstIndex { $0.direction == direction && $0.freeAt <= start } ?? vehicles.count
            if block == vehicles.count { vehicles.append((0, 0)) }
            vehicles[block] = (end + 300, 1 - direction)
        }
        return Trip(
            id: route.firstTrip + ordinal + 1, ordinal: ordinal, pattern: pattern, start: start, service: service,
            pace: pace, wheelchair: wheelchair, bikes: bikes, block: block)
    }
}
