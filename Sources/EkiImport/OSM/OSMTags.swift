import Foundation

/// The OSM tag keys the importer reads; every other key is skipped without copying it.
enum OSMKey: Int, CaseIterable {
    case railway, publicTransport, station, train, subway, lightRail, monorail, tram, funicular
    case aerialway
    case name, nameJa, nameJaHira, nameJaKanaLegacy, nameJaKana, nameJaLatn, nameJaRm, nameEn
    case `operator`, network, type, route, routeMaster, service, highspeed, ref
    case ksj2OPC, ksj2LIN
    case disused, abandoned, construction, proposed, demolished, razed, removed

    var text: String {
        switch self {
        case .railway: "railway"
        case .publicTransport: "public_transport"
        case .station: "station"
        case .train: "train"
        case .subway: "subway"
        case .lightRail: "light_rail"
        case .monorail: "monorail"
        case .tram: "tram"
        case .funicular: "funicular"
        case .aerialway: "aerialway"
        case .name: "name"
        case .nameJa: "name:ja"
        case .nameJaHira: "name:ja-Hira"
        case .nameJaKanaLegacy: "name:ja_kana"
        case .nameJaKana: "name:ja-Kana"
        case .nameJaLatn: "name:ja-Latn"
        case .nameJaRm: "name:ja_rm"
        case .nameEn: "name:en"
        case .operator: "operator"
        case .network: "network"
        case .type: "type"
        case .route: "route"
        case .routeMaster: "route_master"
        case .service: "service"
        case .highspeed: "highspeed"
        case .ref: "ref"
        case .ksj2OPC: "KSJ2:OPC"
        case .ksj2LIN: "KSJ2:LIN"
        case .disused: "disused"
        case .abandoned: "abandoned"
        case .construction: "construction"
        case .proposed: "proposed"
        case .demolished: "demolished"
        case .razed: "razed"
        case .removed: "removed"
        }
    }

    var bit: UInt64 { 1 << UInt64(rawValue) }

    /// Lifecycle keys: `disused=yes` etc. take a station out of service.
    static let lifecycle: [OSMKey] = [.disused, .abandoned, .construction, .proposed, .demolished, .razed, .removed]

    /// Keys by byte length, for the lookup of a NUL-terminated key from expat.
    private static let byLength: [[(bytes: [UInt8], key: OSMKey)]] = {
        var table = [[(bytes: [UInt8], key: OSMKey)]](repeating: [], count: 32)
        for k in OSMKey.allCases {
            let b = Array(k.text.utf8)
            table[b.count].append((b, k))
        }
        return table
    }()

    /// The key spelled by the NUL-terminated bytes at `p`, or nil for any other key.
    @inline(__always)
    static func lookup(_ p: UnsafePointer<CChar>) -> OSMKey? {
        let n = strlen(p)
        guard n < 32 else { return nil }
        let candidates = byLength[n]
        if candidates.isEmpty { return nil }
        for c in candidates where c.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, p, n) == 0 }) {
            return c.key
        }
        return nil
    }
}

/// The values of the known keys (`OSMKey`) of the element being read, copied into one
/// reusable byte buffer. Reset for every element; no allocation once the buffer has grown.
struct OSMTagSet {
    private(set) var mask: UInt64 = 0
    private var start = [Int](repeating: 0, count: OSMKey.allCases.count)
    private var length = [Int](repeating: 0, count: OSMKey.allCases.count)
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(4096) }

    mutating func reset() {
        if mask != 0 {
            mask = 0
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Keeps `count` bytes at `value` as the value of `key`.
    mutating func set(_ key: OSMKey, _ value: UnsafePointer<CChar>, count n: Int) {
        start[key.rawValue] = bytes.count
        length[key.rawValue] = n
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: value, count: n))
        mask |= key.bit
    }

    func has(_ key: OSMKey) -> Bool { mask & key.bit != 0 }

    /// True when `key` is set to exactly `value`.
    func equals(_ key: OSMKey, _ value: StaticString) -> Bool {
        guard has(key), length[key.rawValue] == value.utf8CodeUnitCount else { return false }
        return bytes.withUnsafeBufferPointer {
            memcmp($0.baseAddress! + start[key.rawValue], value.utf8Start, value.utf8CodeUnitCount) == 0
        }
    }

    func isOneOf(_ key: OSMKey, _ values: [StaticString]) -> Bool {
        values.contains { equals(key, $0) }
    }

    /// The value as a string, nil when the key is absent or its value is empty or blank.
    func string(_ key: OSMKey) -> String? {
        guard has(key) else { return nil }
        let from = start[key.rawValue], n = length[key.rawValue]
        guard n > 0 else { return nil }
        let s = bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[from..<from + n]), as: UTF8.self)
        }
        // Nothing to trim when neither end is a space or line break (White_Space, the set of
        // `.whitespacesAndNewlines`; U+180E, U+200B and U+FEFF go the long way to be safe).
        if let first = s.unicodeScalars.first, let last = s.unicodeScalars.last,
           !Self.mayTrim(first), !Self.mayTrim(last) {
            return s
        }
        let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
        return t.isEmpty ? nil : t
    }

    @inline(__always)
    private static func mayTrim(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x80 ? (u.value <= 0x20 || u.value == 0x7F) : (u.properties.isWhitespace || u.value == 0x180E || u.value == 0x200B || u.value == 0xFEFF)
    }

    /// Whether the tags make the element a station in the 降りつぶし sense.
    ///
    /// Stations: `railway=station|halt|tram_stop` (trams are railways under 軌道法), or
    /// `public_transport=station` with `train|subway|light_rail|monorail|tram|funicular=yes` or
    /// `station=train|subway|light_rail|monorail|funicular`. Not stations: anything with a
    /// lifecycle key (`disused`, `abandoned`, `construction`, `proposed`, `demolished`, `razed`,
    /// `removed`) set to other than `no`; `station=aerialway|miniature`; `aerialway=station`
    /// unless `station=funicular`. Platforms, stop positions and bus stops match none of the
    /// rules. Lifecycle-prefixed keys (`disused:railway=station`) are not read at all.
    var isStation: Bool {
        let stationKeys = OSMKey.railway.bit | OSMKey.publicTransport.bit
        guard mask & stationKeys != 0 else { return false }
        for k in OSMKey.lifecycle where has(k) && !equals(k, "no") { return false }
        if isOneOf(.station, ["aerialway", "miniature"]) { return false }
        if has(.aerialway) && !equals(.station, "funicular") { return false }
        if isOneOf(.railway, ["station", "halt", "tram_stop"]) { return true }
        guard equals(.publicTransport, "station") else { return false }
        for mode in [OSMKey.train, .subway, .lightRail, .monorail, .tram, .funicular] where equals(mode, "yes") {
            return true
        }
        return isOneOf(.station, ["train", "subway", "light_rail", "monorail", "funicular"])
    }

    /// Route types that are railways: `train`, `subway`, `light_rail`, `monorail`, `tram`, and
    /// `funicular` (a ケーブルカー is a railway in Japan).
    static let railRoutes: [StaticString] = ["train", "subway", "light_rail", "monorail", "tram", "funicular"]

    var isRailRoute: Bool { equals(.type, "route") && isOneOf(.route, Self.railRoutes) }
    var isRailRouteMaster: Bool { equals(.type, "route_master") && isOneOf(.routeMaster, Self.railRoutes) }
    var isStopArea: Bool { equals(.publicTransport, "stop_area") }

    /// `service=high_speed`, `highspeed=yes` or a name containing 新幹線.
    var isHighSpeed: Bool {
        equals(.service, "high_speed") || equals(.highspeed, "yes")
            || (string(.name)?.contains("新幹線") ?? false) || (string(.nameJa)?.contains("新幹線") ?? false)
    }
}

/// Number parsing on expat's NUL-terminated attribute values, without building strings.
enum OSMNumber {
    /// A decimal integer (optional sign, at most 18 digits), nil for anything else.
    @inline(__always)
    static func int64(_ p: UnsafePointer<CChar>) -> Int64? {
        let (negative, start) = sign(p)
        var i = start
        var v: Int64 = 0
        let first = i
        while true {
            let c = UInt8(bitPattern: p[i])
            guard c >= 0x30 && c <= 0x39 else { break }
            guard i - first < 18 else { return nil }
            v = v &* 10 &+ Int64(c &- 0x30)
            i += 1
        }
        guard i > first, p[i] == 0 else { return nil }
        return negative ? -v : v
    }

    /// A leading `-` or `+`: whether the number is negative, and where its digits start.
    @inline(__always)
    private static func sign(_ p: UnsafePointer<CChar>) -> (negative: Bool, start: Int) {
        p[0] == 0x2d ? (true, 1) : p[0] == 0x2b ? (false, 1) : (false, 0)
    }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// A decimal number such as `35.2561`, `-0.5`, `1e-3`; nil for empty, non-numeric,
    /// infinite or NaN text. Up to 15 significant digits take an exact fast path (correctly
    /// rounded); longer ones go through `strtod`.
    @inline(__always)
    static func double(_ p: UnsafePointer<CChar>) -> Double? {
        let (negative, start) = sign(p)
        var i = start
        var mantissa: Int64 = 0
        var digits = 0
        var fraction = 0
        var seenDot = false
        while true {
            let c = UInt8(bitPattern: p[i])
            if c >= 0x30 && c <= 0x39 {
                mantissa = mantissa &* 10 &+ Int64(c &- 0x30)
                digits += 1
                if seenDot { fraction += 1 }
            } else if c == 0x2e && !seenDot {
                seenDot = true
            } else {
                break
            }
            i += 1
        }
        if p[i] == 0 && digits > 0 && digits <= 15 {
            let v = Double(mantissa) / powersOfTen[fraction]
            return negative ? -v : v
        }
        return slowDouble(p)
    }

    private static func slowDouble(_ p: UnsafePointer<CChar>) -> Double? {
        // strtod would also take "inf", "nan", hex and leading spaces: allow only decimal text.
        let c = UInt8(bitPattern: p[0])
        guard (c >= 0x30 && c <= 0x39) || c == 0x2d || c == 0x2b || c == 0x2e else { return nil }
        var end: UnsafeMutablePointer<CChar>?
        let v = strtod(p, &end)
        guard let end, end != UnsafeMutablePointer(mutating: p), end.pointee == 0, v.isFinite else { return nil }
        var q = p
        while q.pointee != 0 {
            let b = UInt8(bitPattern: q.pointee)
            if b == 0x78 || b == 0x58 { return nil }  // no hex floats
            q += 1
        }
        return v
    }
}
