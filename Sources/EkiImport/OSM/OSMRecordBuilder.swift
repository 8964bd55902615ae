import EkiKit
import Foundation

/// Turns what the passes collected into source rows: one per station × operator × class × line.
///
/// Rules (from the OSM public transport schema, PTv2, and the 降りつぶし entry rule):
/// - A route is on a station when the station is a member of it (old tagging: stations as
///   `stop` members) or when one of its `stop*`/`platform*` members (or node members) is in a
///   `public_transport=stop_area` with the station. When a stop area holds several stations,
///   those whose own operators include the route's operator are preferred.
/// - A route's line is its route_master's name, else its own name without a trailing
///   direction such as `(東京→熱海)` or `: 東京 => 熱海`, else its `ref`.
/// - A route's operators: its `operator`, else its route_master's, else the station's own when
///   it has exactly one; a route with `service=high_speed`, `highspeed=yes` or 新幹線 in its name
///   (or its route_master's) is Shinkansen.
/// - A station's own operators (`operator`, else `network`) that none of its routes has give one
///   conventional row each, without a line (a station with JR東海's Shinkansen route does not
///   also become a JR東海 conventional entry). A station without routes or operators gives one
///   row with no operator; the caller's operator override fills every missing operator.
/// - A station without operators in a stop area with a same-named station that has some is a
///   part of that station (`duplicateParts`), not a station of its own.
/// - A route's stations in member order give each row its `lineOrder` along the route's line
///   (`order(_:)`).
/// - Route members, stop-area members and centroid nodes missing from the file are skipped
///   without a warning (normal in extracts); a station with no position at all, or no name,
///   is skipped with a warning.
struct OSMRecordBuilder {
    let scan: OSMScanner
    let operatorOverride: String?
    /// `TextFold.operatorKey` of each operator name, worked out once (an extract names a few
    /// operators many times).
    private let operatorKeys = OperatorKeys()

    init(scan: OSMScanner, operatorOverride: String?) {
        self.scan = scan
        self.operatorOverride = operatorOverride
    }

    final class OperatorKeys {
        private var known: [String: String] = [:]

        func key(_ name: String) -> String {
            if let k = known[name] { return k }
            let k = TextFold.operatorKey(name)
            known[name] = k
            return k
        }
    }

    struct RouteUse {
        var operators: [String]
        var serviceClass: ServiceClass
        var line: String?
    }

    struct PlacedStation {
        var candidate: OSMStationCandidate
        var name: String
        var point: Coordinate
    }

    func build() -> (records: [SourceRecord], warnings: [ImportWarning]) {
        var warnings: [ImportWarning] = []
        let stations = place(&warnings)
        var index: [OSMObjectRef: Int] = [:]
        for (i, s) in stations.enumerated() { index[s.candidate.ref] = i }

        var areasOfMember: [OSMObjectRef: [Int]] = [:]
        var stationsInArea: [[Int]] = []
        for (a, area) in scan.stopAreas.enumerated() {
            var inArea: [Int] = []
            for m in area.members {
                areasOfMember[m, default: []].append(a)
                if let s = index[m], !inArea.contains(s) { inArea.append(s) }
            }
            stationsInArea.append(inArea)
        }
        let foldInto = duplicateParts(stations, stationsInArea)
        var masterOfRoute: [Int64: Int] = [:]
        for (i, m) in scan.routeMasters.enumerated() {
            for r in m.routeIDs where masterOfRoute[r] == nil { masterOfRoute[r] = i }
        }

        var routesOf = [[RouteUse]](repeating: [], count: stations.count)
        var sequencesOf: [String: [[Int]]] = [:]     // line × class → each route's stations in member order
        for route in scan.routes {
            let master = masterOfRoute[route.id].map { scan.routeMasters[$0] }
            let use = RouteUse(
                operators: route.operators.isEmpty ? (master?.operators ?? []) : route.operators,
                serviceClass: route.isHighSpeed || master?.isHighSpeed == true ? .shinkansen : .conventional,
                line: master?.name ?? route.name.map(Self.lineName) ?? route.ref)
            let operatorKeys = Set(use.operators.map(operatorKeys.key))
            var on: [Int] = []
            for m in route.members {
                if let s = index[m] {
                    if !on.contains(s) { on.append(s) }
                    continue
                }
                for a in areasOfMember[m] ?? [] {
                    var candidates = stationsInArea[a]
                    if candidates.count > 1 && !operatorKeys.isEmpty {
                        let matching = candidates.filter {
                            stations[$0].candidate.operators.contains { operatorKeys.contains(self.operatorKeys.key($0)) }
                        }
                        if !matching.isEmpty { candidates = matching }
                    }
                    for s in candidates where !on.contains(s) { on.append(s) }
                }
            }
            for s in on { routesOf[foldInto[s] ?? s].append(use) }
            if let line = use.line { sequencesOf[Self.orderKey(line, use.serviceClass), default: []].append(on.map { foldInto[$0] ?? $0 }) }
        }
        let orders = sequencesOf.mapValues(Self.order)

        var records: [SourceRecord] = []
        for (i, s) in stations.enumerated() where foldInto[i] == nil {
            records += rows(for: s, routes: routesOf[i]).map { r in
                var r = r
                if let line = r.lines.first { r.lineOrder = orders[Self.orderKey(line, r.serviceClass)]?[i] }
                return r
            }
        }
        return (records, warnings)
    }

    static func orderKey(_ line: String, _ c: ServiceClass) -> String { line + "\u{1}" + c.rawValue }

    /// Positions along one line from its routes' stations in member order (OSM route
    /// relations list their `stop`/`platform` members in order of travel, wiki.openstreetmap.org
    /// "Public transport" PTv2): the route with the most stations is the main sequence (0, 1, …);
    /// another route (the other direction, a short working) adds a branch only where it has
    /// stations the main one and earlier branches lack, numbered from
    /// `SourceRecord.lineOrderBranchStep` × n.
    static func order(_ routes: [[Int]]) -> [Int: Int] {
        func distinct(_ a: [Int]) -> [Int] { var seen = Set<Int>(); return a.filter { seen.insert($0).inserted } }
        let ranked = routes.map(distinct).enumerated().sorted { ($0.element.count, -$0.offset) > ($1.element.count, -$1.offset) }.map(\.element)
        guard let main = ranked.first else { return [:] }
        var position: [Int: Int] = [:]
        for (i, s) in main.enumerated() { position[s] = i }
        var branch = 0
        for r in ranked.dropFirst() {
            let added = r.filter { position[$0] == nil }
            guard !added.isEmpty else { continue }
            branch += 1
            for (i, s) in added.enumerated() { position[s] = SourceRecord.lineOrderBranchStep * branch + i }
        }
        return position
    }

    /// Name-only duplicate parts: a station without operators that shares a stop area with a
    /// station of the same name (`TextFold.nameKey`) that has operators (typically an area
    /// `public_transport=station` beside the station node) is folded into it: no rows of its
    /// own, its routes go to the other. Maps the part's index to the station's.
    private func duplicateParts(_ stations: [PlacedStation], _ stationsInArea: [[Int]]) -> [Int: Int] {
        var fold: [Int: Int] = [:]
        for inArea in stationsInArea where inArea.count > 1 {
            for s in inArea where stations[s].candidate.operators.isEmpty && fold[s] == nil {
                let key = TextFold.nameKey(stations[s].name)
                if let t = inArea.first(where: {
                    $0 != s && !stations[$0].candidate.operators.isEmpty && TextFold.nameKey(stations[$0].name) == key
                }) {
                    fold[s] = t
                }
            }
        }
        return fold
    }

    /// Stations with a name and a position (node point, Overpass center, or centroid of the
    /// nodes found); the others become warnings.
    private func place(_ warnings: inout [ImportWarning]) -> [PlacedStation] {
        var placed: [PlacedStation] = []
        for s in scan.stations {
            guard let name = s.name else {
                warnings.append(ImportWarning(file: scan.file, line: s.line > 0 ? s.line : nil, message: "\(s.ref): station without name, skipped"))
                continue
            }
            var point = s.point
            if point == nil {
                var ids = s.wayNodes
                for m in s.members {
                    if m.type == .node { ids.append(m.id) } else { ids += scan.neededWays[m.id]?.nodes ?? [] }
                }
                var lat = 0.0, lon = 0.0, n = 0
                for id in ids {
                    guard let c = scan.neededNodes[id]?.coordinate else { continue }
                    lat += c.lat
                    lon += c.lon
                    n += 1
                }
                if n > 0 { point = Coordinate(lat: lat / Double(n), lon: lon / Double(n)) }
            }
            guard let point else {
                warnings.append(ImportWarning(file: scan.file, line: s.line > 0 ? s.line : nil,
                                              message: "\(s.ref) \(name): none of its nodes are in the file, skipped"))
                continue
            }
            placed.append(PlacedStation(candidate: s, name: name, point: point))
        }
        return placed
    }

    private func rows(for s: PlacedStation, routes: [RouteUse]) -> [SourceRecord] {
        var combos: [(op: String?, serviceClass: ServiceClass, line: String?)] = []
        func add(_ op: String?, _ c: ServiceClass, _ line: String?) {
            if !combos.contains(where: { $0.op == op && $0.serviceClass == c && $0.line == line }) {
                combos.append((op, c, line))
            }
        }
        let own = s.candidate.operators
        for r in routes {
            let ops: [String?] = !r.operators.isEmpty ? r.operators : (own.count == 1 ? [own[0]] : [nil])
            for op in ops { add(op, r.serviceClass, r.line) }
        }
        let covered = Set(combos.compactMap { $0.op.map(operatorKeys.key) })
        let ksjLine = s.candidate.ksjLine.flatMap { $0.isEmpty ? nil : $0 }
        for op in own where !covered.contains(operatorKeys.key(op)) { add(op, .conventional, ksjLine) }
        if combos.isEmpty { add(nil, .conventional, ksjLine) }
        let c = s.candidate
        return combos.map {
            SourceRecord(source: SourceRef(dataset: OSMImporter.dataset, id: c.ref.description), name: s.name,
                         reading: c.reading, latinName: c.latinName, operatorName: $0.op ?? operatorOverride,
                         serviceClass: $0.serviceClass, lines: $0.line.map { [$0] } ?? [], coordinate: s.point)
        }
    }

    /// Words that mark a route name's tail as a direction rather than part of the line name.
    private static let directionMarks = ["→", "⇒", "=>", "->", "⟶", "↔", "⇔", "上り", "下り", "方面", "行き", "内回り", "外回り"]

    /// `JR東海道線 (東京→熱海)` → `JR東海道線`; `東海道新幹線: 東京 => 新大阪` → `東海道新幹線`;
    /// names without a direction are returned unchanged.
    static func lineName(_ name: String) -> String {
        let marks = directionMarks
        if name.hasSuffix(")") || name.hasSuffix("）"),
           let open = name.lastIndex(where: { $0 == "(" || $0 == "（" }) {
            let inner = name[name.index(after: open)...]
            let head = name[..<open].trimmingCharacters(in: .whitespaces)
            if !head.isEmpty && marks.contains(where: { inner.contains($0) }) { return head }
        }
        if let colon = name.firstIndex(where: { $0 == ":" || $0 == "：" }) {
            let tail = name[name.index(after: colon)...]
            let head = name[..<colon].trimmingCharacters(in: .whitespaces)
            if !head.isEmpty && marks.contains(where: { tail.contains($0) }) { return head }
        }
        return name
    }
}
