import SwitchyardTransit

/// Plausible Berlin–Brandenburg place, street and stop names built from syllables.
///
/// Names are UTF-8 with umlauts and ß; a few contain a comma (`Birkenwerder, Rathaus`) or quotes
/// (`Gasthaus "Zum Falken"`), so CSV quoting is exercised. Deterministic given the random stream.
enum SampleNames {
    private static let roots = [
        "Lichten", "Friedrichs", "Wilhelms", "Karls", "Marien", "Charlotten", "Rosen", "Schöne", "Birken", "Eichen",
        "Linden", "Tannen", "Falken", "Hasel", "Kiefern", "Wiesen", "Mühlen", "Stein", "Buchen", "Blanken",
        "Hohen", "Reinicken", "Zehlen", "Hermes", "Johannis", "Adlers", "Kaul", "Rahns", "Wuster", "Fichten",
        "Grün", "Sonnen", "Wolters", "Heiners", "Hellers", "Mahls", "Biesen", "Rüders", "Schmöck", "Dahl",
        "Kladow", "Gatow", "Buckow", "Rudow", "Staaken", "Karow", "Peters", "Kummers", "Königs", "Prenz",
    ]
    private static let placeEndings = [
        "berg", "felde", "dorf", "hagen", "walde", "see", "au", "hof", "heide", "tal",
        "burg", "werder", "brück", "hausen", "ow", "itz", "enau", "grund", "horst", "lust",
    ]
    private static let streetEndings = [
        "straße", "str.", "allee", "weg", "platz", "damm", "ufer", "ring", "chaussee", "steig", "promenade", "gasse",
    ]
    private static let landmarks = [
        "Rathaus", "Kirche", "Friedhof", "Schule", "Krankenhaus", "Bahnhof", "Dorfaue", "Sportplatz", "Post",
        "Schloss", "Markt", "Gewerbegebiet", "Siedlung", "Waldfriedhof", "Jugendherberge",
    ]

    /// A place name such as `Neu-Lichtenfelde` or `Buchenwerder`.
    static func place(_ random: inout SampleRandom) -> String {
        let core = random.pick(roots) + random.pick(placeEndings)
        switch random.below(10) {
        case 0: return "Neu-" + core
        case 1: return "Alt-" + core
        case 2: return "Groß " + core
        case 3: return "Klein " + core
        default: return core
        }
    }

    /// A street name such as `Birkenallee` or `Karlsstr.`.
    static func street(_ random: inout SampleRandom) -> String {
        random.pick(roots) + random.pick(streetEndings)
    }

    /// A stop name in one of the shapes VBB uses: `S+U Rosenberg`, `Lindenweg/Falkenring`, `Karow, Kirche`, …
    static func station(_ random: inout SampleRandom) -> String {
        switch random.below(100) {
        case 0..<25: return street(&random)
        case 25..<38: return street(&random) + "/" + street(&random)
        case 38..<55: return place(&random) + ", " + street(&random)
        case 55..<65: return place(&random) + ", " + random.pick(landmarks)
        case 65..<70: return "S " + place(&random)
        case 70..<74: return "U " + street(&random)
        case 74..<76: return "S+U " + place(&random)
        case 76..<80: return place(&random) + " Bhf"
        case 80..<94: return street(&random) + " (" + place(&random) + ")"
        case 94..<98: return random.pick(landmarks) + " " + place(&random)
        default: return place(&random) + ", Gasthaus \"Zum " + random.pick(roots) + "\""
        }
    }
}
