import EkiSQLite
import Foundation

/// The GeoPackage R-tree of `stations`, read from its node table (`rtree_stations_geom_node`)
/// one node at a time when a query first reaches it, and kept. Leaves also keep their entries'
/// exact points and open flags (from `stations`), so once warm a query never goes back to SQLite.
///
/// It answers what the SQL R-tree query answers: the tree's 32-bit boxes are only a filter and
/// the exact coordinates decide. A process that asks one question reads a handful of nodes (a
/// cold `eki bbox` reads ~10); one that asks thousands ends up holding the whole tree (for 1M
/// entries about 75 MB: 24 bytes per tree cell plus 49 per leaf entry). It is valid for one
/// version of the file (`Database.dataVersion()`); the store drops it when the file changes.
final class RTreeNodeCache {
    /// One node. Internal nodes fill the `child…`/`box`/`shell` arrays, leaves the rest.
    final class Node {
        let level: Int
        var childNode: [Int64] = []
        var childHandle: [Int32] = []
        /// 32-bit boxes of the children: minX, maxX, minY, maxY per cell.
        var box: [Float] = []
        /// Earth-centred boxes (metres) holding the surface patch of each child's box:
        /// minX, maxX, minY, maxY, minZ, maxZ per cell (for k-NN lower bounds).
        var shell: [Double] = []
        var fid: [Int64] = []
        var lon: [Double] = []
        var lat: [Double] = []
        var open: [Bool] = []
        /// Earth-centred point of each leaf entry, x, y, z (metres).
        var xyz: [Double] = []

        init(level: Int) { self.level = level }
    }

    let db: Database
    let table: String
    let dataVersion: UInt32
    private(set) var nodes: [Node] = []
    /// Scratch storage reused by queries.
    var spareSearch: NearestSearch?
    var spareStack: [Int32]?

    /// Reads the root. - Throws: `SQLiteError`.
    init(db: Database, table: String) throws {
        self.db = db
        self.table = table
        dataVersion = try db.dataVersion()
        _ = try load(nodeno: 1, level: nil)
    }

    var root: Node { nodes[0] }

    /// The node a child cell points at, read when first reached.
    @inline(__always) func child(of parent: Node, _ i: Int) throws -> Int32 {
        let h = parent.childHandle[i]
        if h >= 0 { return h }
        let loaded = try load(nodeno: parent.childNode[i], level: parent.level - 1)
        parent.childHandle[i] = loaded
        return loaded
    }

    private func load(nodeno: Int64, level: Int?) throws -> Int32 {
        let s = try db.cached("SELECT data FROM \"\(table)_node\" WHERE nodeno = ?")
        s.bind(nodeno, at: 1)
        defer { s.reset() }
        guard try s.step() else {
            throw StoreError.corruptRTree(table: table, node: nodeno, problem: "is missing")
        }
        let node: Node = try s.withBlob(0) { b in
            guard b.count >= 4 else { throw StoreError.corruptRTree(table: table, node: nodeno, problem: "is too short") }
            func u16(_ o: Int) -> Int { Int(b[o]) << 8 | Int(b[o + 1]) }
            func u32(_ o: Int) -> UInt32 {
                UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
            }
            let node = Node(level: level ?? u16(0))
            let n = u16(2)
            guard 4 + n * 24 <= b.count else { throw StoreError.corruptRTree(table: table, node: nodeno, problem: "is corrupt") }
            for c in 0..<n {
                let o = 4 + c * 24
                let id = Int64(bitPattern: UInt64(u32(o)) << 32 | UInt64(u32(o + 4)))
                if node.level > 0 {
                    node.childNode.append(id)
                    node.childHandle.append(-1)
                    let box = (Float(bitPattern: u32(o + 8)), Float(bitPattern: u32(o + 12)),
                               Float(bitPattern: u32(o + 16)), Float(bitPattern: u32(o + 20)))
                    node.box.append(contentsOf: [box.0, box.1, box.2, box.3])
                    node.shell.append(contentsOf: Earth.shell(minLon: Double(box.0), maxLon: Double(box.1),
                                                              minLat: Double(box.2), maxLat: Double(box.3)))
                } else {
                    node.fid.append(id)
                }
            }
            return node
        }
        if node.level == 0 { try fillLeaf(node) }
        nodes.append(node)
        return Int32(nodes.count - 1)
    }

    private func fillLeaf(_ node: Node) throws {
        let s = try db.cached("SELECT lon, lat, open FROM stations WHERE fid = ?")
        var kept: [Int64] = []
        for fid in node.fid {
            s.bind(fid, at: 1)
            defer { s.reset() }
            guard try s.step() else { continue }   // not in the table: nothing to answer
            let lon = s.double(0), lat = s.double(1)
            kept.append(fid)
            node.lon.append(lon)
            node.lat.append(lat)
            node.open.append(s.int64(2) != 0)
            let p = Earth.point(lat: lat, lon: lon)
            node.xyz.append(contentsOf: [p.x, p.y, p.z])
        }
        node.fid = kept
    }
}

/// Earth-centred, Earth-fixed coordinates on the WGS84 ellipsoid, for lower bounds of geodesic
/// distance: the straight line between two surface points is never longer than a path on the
/// surface, so the chord (and the distance to a box holding a surface patch) bounds the geodesic
/// distance from below.
enum Earth {
    static let a = Geodesic.a
    static let e2 = Geodesic.f * (2 - Geodesic.f)

    /// The point at latitude/longitude (degrees) on the ellipsoid, metres.
    @inline(__always) static func point(lat: Double, lon: Double) -> (x: Double, y: Double, z: Double) {
        let phi = lat * .pi / 180, lam = lon * .pi / 180
        let sp = sin(phi), cp = cos(phi)
        let n = a / (1 - e2 * sp * sp).squareRoot()
        return (n * cp * cos(lam), n * cp * sin(lam), n * (1 - e2) * sp)
    }

    /// The straight-line distance (metres, less 1 cm) from `q` to the box at offset `o` of a
    /// `Node.shell` array: a lower bound of the geodesic distance to anything inside.
    @inline(__always) static func lowerBound(_ q: (x: Double, y: Double, z: Double), _ s: UnsafeBufferPointer<Double>, _ o: Int) -> Double {
        let dx = max(s[o] - q.x, 0, q.x - s[o + 1])
        let dy = max(s[o + 2] - q.y, 0, q.y - s[o + 3])
        let dz = max(s[o + 4] - q.z, 0, q.z - s[o + 5])
        return (dx * dx + dy * dy + dz * dz).squareRoot() - 0.01
    }

    /// The smallest radius of curvature of the ellipsoid, b²/a (along the meridian at the
    /// equator), metres.
    static let minRadius = a * (1 - Geodesic.f) * (1 - Geodesic.f)

    /// An upper bound of the geodesic distance (metres) between two surface points `chord`
    /// metres apart in a straight line. A geodesic bends (in space) no more than the surface
    /// does, at most 1/minRadius, so by Schur's comparison theorem its chord is at least that of
    /// a circle arc of the same length s and radius minRadius: chord ≥ 2R sin(s / 2R), i.e.
    /// s ≤ 2R asin(chord / 2R) (for s ≤ πR: chords up to 10,000 km; beyond, ∞). Widened by
    /// 1e-9 relative and 1 cm for rounding and the geodesic's own error.
    static func geodesicUpperBound(chord: Double) -> Double {
        guard chord < 1e7 else { return .infinity }
        return 2 * minRadius * asin(chord / (2 * minRadius)) * (1 + 1e-9) + 0.01
    }

    /// Distance from the parallel's radius N·cosφ and height N(1−e²)sinφ at latitude φ.
    @inline(__always) static func radiusAndHeight(_ lat: Double) -> (r: Double, z: Double) {
        let phi = lat * .pi / 180
        let sp = sin(phi), cp = cos(phi)
        let n = a / (1 - e2 * sp * sp).squareRoot()
        return (n * cp, n * (1 - e2) * sp)
    }

    /// An axis-aligned box (minX, maxX, minY, maxY, minZ, maxZ; metres, widened by 1 cm) that
    /// holds every surface point with latitude and longitude in the given ranges (degrees).
    /// The parallel's radius N·cosφ shrinks as |φ| grows and the height N(1−e²)sinφ grows with
    /// φ; x = r·cosλ and y = r·sinλ are bilinear in (r, cosλ) and (r, sinλ), so their extremes
    /// lie at the range ends, where cos and sin reach ±1 inside the longitude range included.
    static func shell(minLon: Double, maxLon: Double, minLat: Double, maxLat: Double) -> [Double] {
        let lo = radiusAndHeight(minLat), hi = radiusAndHeight(maxLat)
        let rMin = min(lo.r, hi.r)
        let rMax = (minLat <= 0 && maxLat >= 0) ? a : max(lo.r, hi.r)
        var cMin = min(cos(minLon * .pi / 180), cos(maxLon * .pi / 180))
        var cMax = max(cos(minLon * .pi / 180), cos(maxLon * .pi / 180))
        var sMin = min(sin(minLon * .pi / 180), sin(maxLon * .pi / 180))
        var sMax = max(sin(minLon * .pi / 180), sin(maxLon * .pi / 180))
        func spans(_ l: Double) -> Bool {   // some λ ≡ l (mod 360) inside [minLon, maxLon]
            var k = ((minLon - l) / 360).rounded(.up)
            if k * 360 + l < minLon { k += 1 }
            return k * 360 + l <= maxLon
        }
        if maxLon - minLon >= 360 { cMin = -1; cMax = 1; sMin = -1; sMax = 1 } else {
            if spans(0) { cMax = 1 }
            if spans(180) { cMin = -1 }
            if spans(90) { sMax = 1 }
            if spans(-90) { sMin = -1 }
        }
        let xs = [rMin * cMin, rMin * cMax, rMax * cMin, rMax * cMax]
        let ys = [rMin * sMin, rMin * sMax, rMax * sMin, rMax * sMax]
        let m = 0.01
        return [xs.min()! - m, xs.max()! + m, ys.min()! - m, ys.max()! + m, lo.z - m, hi.z + m]
    }
}
