import Foundation

/// The 47 prefectures of Japan as polygons (WGS84 degrees), for the prefecture of a point and
/// for drawing outlines offline.
///
/// Source: 国土数値情報 行政区域データ (N03, MLIT) as simplified to 1 % by smartnews-smri/
/// japan-topography (`s0010/prefectures.json`, commit b403e71), shipped as the library resource
/// `prefectures-n03.geojson` (credit 「出典：国土数値情報（行政区域データ）（国土交通省）を加工して作成」).
/// The simplification moves borders and coasts by up to a few hundred metres, so a point that
/// falls in no polygon (a station on reclaimed land, a pier, a point just off a simplified coast)
/// takes the nearest polygon within `fallbackDistance`; a source's own prefecture should still be
/// preferred when it has one.
public struct PrefectureBoundaries: Sendable {
    /// One prefecture: its name (e.g. 東京都, as `Prefecture.names`) and its polygons, each an
    /// outer ring followed by its holes, each ring a closed list of points.
    public struct Region: Sendable {
        public var name: String
        public var polygons: [[[Coordinate]]]
    }

    /// The prefectures in JIS X 0401 order (北海道 … 沖縄県).
    public let regions: [Region]
    /// The farthest a point outside every polygon may lie from the nearest one and still take
    /// its prefecture, metres (default 20 km: outlying piers and the simplified coasts).
    public var fallbackDistance: Double = 20_000
    /// The nearest-edge fallback looks at every edge instead of the cells near the point (the
    /// reference the cell index is tested against).
    var fallbackScansEveryEdge = false

    /// One polygon part with its edges bucketed by latitude band for point-in-polygon tests.
    private struct Part: Sendable {
        var region: Int
        var minLon, minLat, maxLon, maxLat: Double
        /// Edges as (lon1, lat1, lon2, lat2), all rings of the part (outer and holes).
        var edges: [SIMD4<Double>]
        /// `bands[i]` indexes the edges whose latitude range meets band i (`bandHeight` degrees
        /// from `minLat`).
        var bands: [[Int32]]
    }
    private let parts: [Part]
    private static let bandHeight = 0.02
    /// Every edge once with its region, for the nearest-edge fallback, bucketed in
    /// `cellSize`-degree cells (`cells[cellKey]` lists the edges whose bounding box meets the
    /// cell): a point off the coast looks at the few cells within `fallbackDistance`, not at every
    /// edge of every nearby part (on 300,000 points at sea that was most of an import's time).
    private let fallbackEdges: [(edge: SIMD4<Double>, region: Int32)]
    private let cells: [Int: [Int32]]
    private static let cellSize = 0.1
    private static func cellKey(_ ix: Int, _ iy: Int) -> Int { (ix + 4_000) &* 8_000 &+ (iy + 4_000) }
    private static func cell(_ degrees: Double) -> Int { Int((degrees / cellSize).rounded(.down)) }

    /// The boundaries shipped with the library, read once (0.3 s in a release build; 736 parts, 61,033 points).
    /// Nil only if the resource is missing or damaged, which a build from this package never is.
    public static let builtIn: PrefectureBoundaries? = {
        guard let url = Bundle.module.url(forResource: "prefectures-n03", withExtension: "geojson"),
              let data = try? Data(contentsOf: url) else { return nil }
        return try? PrefectureBoundaries(geoJSON: data)
    }()

    /// Reads a GeoJSON FeatureCollection of (Multi)Polygon features named by the property
    /// `N03_001` (the N03 prefecture name) or `name`.
    /// - Throws: `DecodingError` when the data is not such a FeatureCollection (a feature without
    ///   a name, a geometry that is not a Polygon or MultiPolygon).
    public init(geoJSON data: Data) throws {
        let collection = try JSONDecoder().decode(FeatureCollection.self, from: data)
        var regions: [Region] = []
        for (i, f) in collection.features.enumerated() {
            guard let name = f.properties.n03 ?? f.properties.name else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "feature \(i): no N03_001 or name"))
            }
            let polygons = f.geometry.polygons.map { $0.map { ring in ring.map { Coordinate(lat: $0[1], lon: $0[0]) } } }
            regions.append(Region(name: name, polygons: polygons))
        }
        self.init(regions: regions)
    }

    /// The GeoJSON shapes read (RFC 7946 §3): positions are [lon, lat].
    private struct FeatureCollection: Decodable {
        struct Feature: Decodable {
            var properties: Properties
            var geometry: Geometry
        }
        struct Properties: Decodable {
            var n03: String?
            var name: String?
            enum CodingKeys: String, CodingKey { case n03 = "N03_001", name }
        }
        struct Geometry: Decodable {
            var polygons: [[[[Double]]]]
            enum CodingKeys: String, CodingKey { case type, coordinates }
            init(from decoder: Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                switch try c.decode(String.self, forKey: .type) {
                case "MultiPolygon": polygons = try c.decode([[[[Double]]]].self, forKey: .coordinates)
                case "Polygon": polygons = [try c.decode([[[Double]]].self, forKey: .coordinates)]
                case let other:
                    throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "\(other) is not a polygon")
                }
            }
        }
        var features: [Feature]
    }

    /// Builds the index over `regions` (each polygon an outer ring then holes).
    public init(regions: [Region]) {
        self.regions = regions
        var parts: [Part] = []
        for (ri, region) in regions.enumerated() {
            for polygon in region.polygons {
                var edges: [SIMD4<Double>] = []
                var minLon = Double.infinity, minLat = Double.infinity, maxLon = -Double.infinity, maxLat = -Double.infinity
                for ring in polygon where ring.count > 1 {
                    for j in 0..<ring.count {
                        let a = ring[j], b = ring[(j + 1) % ring.count]
                        if a == b { continue }
                        edges.append(SIMD4(a.lon, a.lat, b.lon, b.lat))
                        minLon = min(minLon, a.lon); maxLon = max(maxLon, a.lon)
                        minLat = min(minLat, a.lat); maxLat = max(maxLat, a.lat)
                    }
                }
                guard !edges.isEmpty else { continue }
                let count = Int(((maxLat - minLat) / Self.bandHeight).rounded(.down)) + 1
                var bands = [[Int32]](repeating: [], count: count)
                for (k, e) in edges.enumerated() {
                    let lo = Int((min(e.y, e.w) - minLat) / Self.bandHeight)
                    let hi = Int((max(e.y, e.w) - minLat) / Self.bandHeight)
                    for b in max(0, lo)...min(count - 1, hi) { bands[b].append(Int32(k)) }
                }
                parts.append(Part(region: ri, minLon: minLon, minLat: minLat, maxLon: maxLon, maxLat: maxLat,
                                  edges: edges, bands: bands))
            }
        }
        self.parts = parts
        var fallback: [(edge: SIMD4<Double>, region: Int32)] = []
        var cells: [Int: [Int32]] = [:]
        for p in parts {
            for e in p.edges {
                let k = Int32(fallback.count)
                fallback.append((e, Int32(p.region)))
                for ix in Self.cell(min(e.x, e.z))...Self.cell(max(e.x, e.z)) {
                    for iy in Self.cell(min(e.y, e.w))...Self.cell(max(e.y, e.w)) {
                        cells[Self.cellKey(ix, iy), default: []].append(k)
                    }
                }
            }
        }
        self.fallbackEdges = fallback
        self.cells = cells
    }

    /// The prefecture a point lies in (its name, e.g. 神奈川県): the polygon containing it, else
    /// the nearest polygon within `fallbackDistance`; nil when none is that near (a point
    /// outside Japan) or the coordinate is not finite.
    public func prefecture(at c: Coordinate) -> String? {
        guard c.lat.isFinite, c.lon.isFinite else { return nil }
        if let r = containingRegion(c) { return regions[r].name }
        return nearestRegion(c)
    }

    /// The prefecture of the nearest edge within `fallbackDistance` of `c` (a point outside
    /// every polygon), nil when none is that near.
    private func nearestRegion(_ c: Coordinate) -> String? {
        // Nearest edge, in a local equirectangular plane (error ≪ 1 % at these distances).
        let kx = cos(c.lat * .pi / 180) * 111_320.0, ky = 110_574.0
        let marginLat = fallbackDistance / ky, marginLon = fallbackDistance / max(kx, 1)
        var best = Double.infinity, bestRegion: Int?
        func consider(_ k: Int) {
            let region = fallbackEdges[k].1
            let d = squaredDistance(toEdge: k, from: c, kx: kx, ky: ky)
            // Ties (an edge met in two cells, or two regions' shared edge) keep the lower region,
            // as the scan over every part in region order did.
            if d < best || (d == best && Int(region) < (bestRegion ?? .max)) { best = d; bestRegion = Int(region) }
        }
        if fallbackScansEveryEdge || !(marginLat < 10 && marginLon < 10) {
            // A margin wider than the cells are useful for (a huge `fallbackDistance`): every edge.
            for k in fallbackEdges.indices { consider(k) }
        } else {
            for ix in Self.cell(c.lon - marginLon)...Self.cell(c.lon + marginLon) {
                for iy in Self.cell(c.lat - marginLat)...Self.cell(c.lat + marginLat) {
                    for k in cells[Self.cellKey(ix, iy)] ?? [] { consider(Int(k)) }
                }
            }
        }
        guard let r = bestRegion, best.squareRoot() <= fallbackDistance else { return nil }
        return regions[r].name
    }

    /// `prefecture(at:)` for many points, remembered by grid cell (`cellDegrees`): a cell that
    /// no polygon edge meets lies wholly inside the same polygons (even-odd containment only
    /// changes across an edge), so the first point found inside one gives the answer for every
    /// later point of the cell. Points in cells an edge meets, and points outside every polygon
    /// (whose nearest-edge fallback depends on the point), are looked up one by one. Same
    /// answers as `prefecture(at:)`.
    public struct Lookup {
        public let boundaries: PrefectureBoundaries
        /// 0.05° ≈ 5 km: most of Japan's area lies in cells no simplified border or coast meets.
        static let cellDegrees = 0.05
        /// Cells some edge's bounding box meets (built on first use).
        private var crossed: Set<Int>? = nil
        /// Cell → region index of an edge-free cell inside a polygon; -1: an edge-free cell
        /// outside every polygon (each point takes the nearest-edge fallback); -3: one so far
        /// from every edge that no point in it takes a prefecture; -2: a cell an edge meets
        /// (each point looked up whole).
        private var memo: [Int: Int32] = [:]

        public init(_ boundaries: PrefectureBoundaries) { self.boundaries = boundaries }

        private static func key(_ ix: Int, _ iy: Int) -> Int { (ix + 8_000) &* 16_000 &+ (iy + 8_000) }
        private static func cell(_ degrees: Double) -> Int { Int((degrees / cellDegrees).rounded(.down)) }

        /// The prefecture of `c`, as `PrefectureBoundaries.prefecture(at:)` gives it.
        public mutating func prefecture(at c: Coordinate) -> String? {
            guard c.lat.isFinite, c.lon.isFinite, abs(c.lon) <= 360, abs(c.lat) <= 360 else { return boundaries.prefecture(at: c) }
            let k = Self.key(Self.cell(c.lon), Self.cell(c.lat))
            if let r = memo[k] {
                if r >= 0 { return boundaries.regions[Int(r)].name }
                if r == -3 { return nil }
                return r == -1 ? boundaries.nearestRegion(c) : boundaries.prefecture(at: c)
            }
            if crossed == nil {
                var set = Set<Int>()
                for (e, _) in boundaries.fallbackEdges {
                    for ix in Self.cell(min(e.x, e.z))...Self.cell(max(e.x, e.z)) {
                        for iy in Self.cell(min(e.y, e.w))...Self.cell(max(e.y, e.w)) { set.insert(Self.key(ix, iy)) }
                    }
                }
                crossed = set
            }
            if crossed!.contains(k) {
                memo[k] = -2
                return boundaries.prefecture(at: c)
            }
            if let region = boundaries.containingRegion(c) {
                memo[k] = Int32(region)
                return boundaries.regions[region].name
            }
            // Outside every polygon: the whole cell is farther than `fallbackDistance` from every
            // edge when its centre is farther than that plus the centre-to-corner distance (≤ 4 km
            // for a 0.05° cell) and 1 km for the local plane's scale changing across the cell.
            let centre = Coordinate(lat: (Double(Self.cell(c.lat)) + 0.5) * Self.cellDegrees,
                                    lon: (Double(Self.cell(c.lon)) + 0.5) * Self.cellDegrees)
            memo[k] = boundaries.hasEdge(within: boundaries.fallbackDistance + 5_000, of: centre) ? -1 : -3
            return memo[k] == -3 ? nil : boundaries.nearestRegion(c)
        }
    }

    /// True when some edge lies within `distance` metres of `c` (in the local plane the
    /// nearest-edge fallback measures in).
    /// The squared distance in metres² from `c` to fallback edge `k`, in the local
    /// equirectangular plane of `c` (`kx`, `ky`: metres per degree of longitude and latitude).
    private func squaredDistance(toEdge k: Int, from c: Coordinate, kx: Double, ky: Double) -> Double {
        let e = fallbackEdges[k].edge
        let ax = (e.x - c.lon) * kx, ay = (e.y - c.lat) * ky
        let bx = (e.z - c.lon) * kx, by = (e.w - c.lat) * ky
        let dx = bx - ax, dy = by - ay
        let len2 = dx * dx + dy * dy
        let t = len2 > 0 ? max(0, min(1, -(ax * dx + ay * dy) / len2)) : 0
        let px = ax + t * dx, py = ay + t * dy
        return px * px + py * py
    }

    private func hasEdge(within distance: Double, of c: Coordinate) -> Bool {
        let kx = cos(c.lat * .pi / 180) * 111_320.0, ky = 110_574.0
        let marginLat = distance / ky, marginLon = distance / max(kx, 1)
        func near(_ k: Int) -> Bool {
            squaredDistance(toEdge: k, from: c, kx: kx, ky: ky).squareRoot() <= distance
        }
        guard marginLat < 10 && marginLon < 10 else { return fallbackEdges.indices.contains(where: near) }
        for ix in Self.cell(c.lon - marginLon)...Self.cell(c.lon + marginLon) {
            for iy in Self.cell(c.lat - marginLat)...Self.cell(c.lat + marginLat) {
                if (cells[Self.cellKey(ix, iy)] ?? []).contains(where: { near(Int($0)) }) { return true }
            }
        }
        return false
    }

    /// The region of the first part (in order) whose polygon contains `c`, if any.
    private func containingRegion(_ c: Coordinate) -> Int? {
        for p in parts where c.lon >= p.minLon && c.lon <= p.maxLon && c.lat >= p.minLat && c.lat <= p.maxLat {
            if contains(p, c) { return p.region }
        }
        return nil
    }

    /// Even-odd ray casting over the edges of the point's latitude band (holes included).
    private func contains(_ p: Part, _ c: Coordinate) -> Bool {
        let band = Int((c.lat - p.minLat) / Self.bandHeight)
        guard band >= 0, band < p.bands.count else { return false }
        var inside = false
        for k in p.bands[band] {
            let e = p.edges[Int(k)]
            if (e.y > c.lat) != (e.w > c.lat) {
                let x = e.x + (c.lat - e.y) / (e.w - e.y) * (e.z - e.x)
                if c.lon < x { inside.toggle() }
            }
        }
        return inside
    }
}
