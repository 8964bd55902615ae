import EkiKit

/// One marker on the picture: the entries at one place drawn as a single pin, with a count
/// when there are several (小田原's five entries are one marker showing 5).
public struct MapMarker: Sendable, Equatable {
    /// Centre, logical pixels.
    public var x: Double, y: Double
    /// Pin radius, logical pixels.
    public var radius: Double
    /// The label: the name of the most important entry.
    public var name: String
    /// The entries drawn by this marker (keys), most important first.
    public var keys: [String]
    /// How many of them are visited.
    public var visited: Int
    /// Sum of the entries' line counts (a larger station ranks first for labels).
    var lines: Int
    /// True when one of its entries is highlighted (`MapRequest.highlighted`): drawn above the
    /// others, ringed, and always named.
    public var isHighlighted: Bool = false

    public var count: Int { keys.count }

    /// The count badge's box (x, y, width, height; logical pixels) at the pin's upper right,
    /// for markers of several entries.
    var badge: (x: Double, y: Double, w: Double, h: Double)? {
        guard count > 1 else { return nil }
        let w = max(13, 6.5 * Double(String(count).count) + 5), h = 13.0
        return (x + radius * 0.4, y - radius - h * 0.55, w, h)
    }
    /// Green when every entry is visited; red otherwise (a green ring marks a partly visited one).
    public var isVisited: Bool { visited == count }
}

/// Groups the entries into markers, in two steps:
/// 1. entries of the same name within `placeDistance` (1.5 km, geodesic) are one place — the
///    operators and classes of one station (N02 and station_database put 小田原's five
///    entries up to a few hundred metres apart);
/// 2. places whose pins would overlap on the picture (centres closer than two radii) join the
///    most important of them, so no pin is drawn on top of another.
/// Importance, used for both the merge and the labels: highlighted first (a line's stations
/// with `eki render --line`), then visited, then more entries, then more lines, then name and
/// key (so the result does not depend on the input order).
enum PinMarkers {
    static let placeDistance = 1_500.0
    static let baseRadius = 5.0

    static func radius(count: Int) -> Double { count == 1 ? baseRadius : baseRadius + 1.5 }

    static func build(_ stations: [Station], visited: (String) -> Bool, viewport: MapViewport,
                      highlighted: Set<String> = []) -> [MapMarker] {
        // Step 1: places by name. Entries are referred to by index (a Station is large to copy).
        struct Place { var members: [Int]; var visited: Int }
        let isVisited = stations.map { visited($0.key) }
        var places: [Place] = []
        var byName: [String: [Int]] = [:]
        for i in stations.indices.sorted(by: { stations[$0].key < stations[$1].key }) {
            let s = stations[i]
            let v = isVisited[i] ? 1 : 0
            if let p = byName[s.name]?.first(where: {
                ((try? Geodesic.distance(stations[places[$0].members[0]].coordinate, s.coordinate)) ?? .infinity) <= placeDistance
            }) {
                places[p].members.append(i)
                places[p].visited += v
            } else {
                byName[s.name, default: []].append(places.count)
                places.append(Place(members: [i], visited: v))
            }
        }
        var candidates: [MapMarker] = places.map { p in
            let ordered = p.members.count == 1 ? p.members : p.members.sorted { a, b in
                if isVisited[a] != isVisited[b] { return isVisited[a] }
                let la = stations[a].lines.count, lb = stations[b].lines.count
                if la != lb { return la > lb }
                return stations[a].key < stations[b].key
            }
            var x = 0.0, y = 0.0, lines = 0
            for i in ordered {
                let q = viewport.point(stations[i].coordinate)
                x += q.x; y += q.y
                lines += stations[i].lines.count
            }
            let n = Double(ordered.count)
            let keys = ordered.map { stations[$0].key }
            return MapMarker(x: x / n, y: y / n, radius: radius(count: ordered.count), name: stations[ordered[0]].name,
                             keys: keys, visited: p.visited, lines: lines,
                             isHighlighted: !highlighted.isEmpty && keys.contains(where: highlighted.contains))
        }
        candidates.sort(by: moreImportant)

        // Step 2: merge overlapping pins into the most important one, with a grid of cells one
        // merge distance wide.
        let cell = 2 * (baseRadius + 1.5)
        var grid: [Int64: [Int]] = [:]
        func cellKey(_ cx: Int, _ cy: Int) -> Int64 { Int64(cx) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: cy))) }
        var kept: [MapMarker] = []
        for m in candidates {
            let cx = Int((m.x / cell).rounded(.down)), cy = Int((m.y / cell).rounded(.down))
            var target: Int? = nil
            search: for gx in cx - 1...cx + 1 {
                for gy in cy - 1...cy + 1 {
                    for i in grid[cellKey(gx, gy)] ?? [] {
                        let k = kept[i]
                        let dx = k.x - m.x, dy = k.y - m.y
                        if (dx * dx + dy * dy).squareRoot() < k.radius + m.radius { target = i; break search }
                    }
                }
            }
            if let t = target {
                kept[t].keys += m.keys
                kept[t].visited += m.visited
                kept[t].lines += m.lines
                kept[t].radius = radius(count: kept[t].keys.count)
            } else {
                grid[cellKey(cx, cy), default: []].append(kept.count)
                kept.append(m)
            }
        }
        return kept.sorted(by: moreImportant)
    }

    /// Highlighted first, then visited, then more entries, then more lines, then name, then first key.
    static func moreImportant(_ a: MapMarker, _ b: MapMarker) -> Bool {
        if a.isHighlighted != b.isHighlighted { return a.isHighlighted }
        let va = a.visited > 0, vb = b.visited > 0
        if va != vb { return va }
        if a.count != b.count { return a.count > b.count }
        if a.lines != b.lines { return a.lines > b.lines }
        if a.name != b.name { return a.name < b.name }
        return a.keys[0] < b.keys[0]
    }
}
