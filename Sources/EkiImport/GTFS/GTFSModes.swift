import Foundation

/// Which GTFS routes count as railways: a set of transport modes, each covering basic and
/// extended `route_type` codes (GTFS reference, routes.txt `route_type`; extended codes from
/// Google's "Extended GTFS Route Types", based on the TPEG hierarchical vehicle types).
///
/// The default, `.rail`, is every rail-like mode: tram, subway, railway, cable tram, funicular
/// and monorail. Bus, trolleybus, ferry and aerial lifts (索道 is not a railway) come in only
/// when asked for.
public struct GTFSModes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `route_type` 0 (tram, streetcar, light rail) and extended 900–906.
    public static let tram = GTFSModes(rawValue: 1 << 0)
    /// `route_type` 1 (subway, metro) and extended 400–404 (urban railway, metro, underground).
    public static let subway = GTFSModes(rawValue: 1 << 1)
    /// `route_type` 2 (intercity or long-distance rail) and extended 100–117.
    public static let railway = GTFSModes(rawValue: 1 << 2)
    /// `route_type` 5 (cable tram).
    public static let cableTram = GTFSModes(rawValue: 1 << 3)
    /// `route_type` 7 (funicular) and extended 1400.
    public static let funicular = GTFSModes(rawValue: 1 << 4)
    /// `route_type` 12 (monorail) and extended 405.
    public static let monorail = GTFSModes(rawValue: 1 << 5)
    /// `route_type` 3 (bus), extended 700–716 (bus) and 200–209 (coach).
    public static let bus = GTFSModes(rawValue: 1 << 6)
    /// `route_type` 11 (trolleybus) and extended 800.
    public static let trolleybus = GTFSModes(rawValue: 1 << 7)
    /// `route_type` 4 (ferry), extended 1000 (water transport) and 1200 (ferry).
    public static let ferry = GTFSModes(rawValue: 1 << 8)
    /// `route_type` 6 (aerial lift, gondola, 索道) and extended 1300–1307.
    public static let aerialLift = GTFSModes(rawValue: 1 << 9)
    /// Every other code: air (1100), taxi (1500–1507), miscellaneous (1700–1702) and codes the
    /// references do not define.
    public static let other = GTFSModes(rawValue: 1 << 10)

    /// The rail-like modes (the default): tram, subway, railway, cable tram, funicular, monorail.
    public static let rail: GTFSModes = [.tram, .subway, .railway, .cableTram, .funicular, .monorail]
    /// Every mode, including `.other`.
    public static let all: GTFSModes = [.rail, .bus, .trolleybus, .ferry, .aerialLift, .other]

    /// The mode a `route_type` code belongs to (exactly one; unknown codes are `.other`).
    public static func mode(ofRouteType code: Int) -> GTFSModes {
        switch code {
        case 0, 900...906: return .tram
        case 1, 400...404: return .subway
        case 2, 100...117: return .railway
        case 5: return .cableTram
        case 7, 1400: return .funicular
        case 12, 405: return .monorail
        case 3, 200...209, 700...716: return .bus
        case 11, 800: return .trolleybus
        case 4, 1000, 1200: return .ferry
        case 6, 1300...1307: return .aerialLift
        default: return .other
        }
    }

    /// True when routes of this `route_type` code are selected.
    public func includes(routeType code: Int) -> Bool {
        contains(GTFSModes.mode(ofRouteType: code))
    }

    /// Names accepted by `init?(parsing:)`, in the order shown in help text.
    public static let names: [(name: String, modes: GTFSModes)] = [
        ("rail", .rail), ("all", .all),
        ("tram", .tram), ("subway", .subway), ("railway", .railway), ("cable-tram", .cableTram),
        ("funicular", .funicular), ("monorail", .monorail), ("bus", .bus),
        ("trolleybus", .trolleybus), ("ferry", .ferry), ("aerial-lift", .aerialLift),
        ("other", .other),
    ]

    /// Parses a comma-separated list of mode names (see `names`, case-insensitive), e.g.
    /// `rail,bus` or `all`. Returns nil when a name is unknown or the list is empty.
    public init?(parsing text: String) {
        var modes: GTFSModes = []
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if parts.isEmpty { return nil }
        for part in parts {
            guard let m = GTFSModes.names.first(where: { $0.name == part })?.modes else { return nil }
            modes.formUnion(m)
        }
        self = modes
    }
}
