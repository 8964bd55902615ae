import EkiSQLite
import Foundation

/// One cluster question, as the map asks it below its pin zoom: the cells of a box at a zoom.
///
/// The cell rule: a cell is one Web Mercator tile at `cellZoom` (= `zoom + 2`, so a cell is 64
/// screen pixels of a 256-pixel-tile map) **split by prefecture**: the entries of one tile and
/// one prefecture form one cluster (entries without a prefecture form their own). Every cell
/// whose tile overlaps `bbox` is answered whole (also its entries just outside the box).
///
/// ```swift
/// let q = ClusterQuery(bbox: BoundingBox(minLon: 122, minLat: 20, maxLon: 154, maxLat: 46), zoom: 5,
///                      visited: visits.fids)
/// let japan = try store.spatial.clusters(q)   // ≥ 1 cluster in each of the 47 prefectures
/// ```
public struct ClusterQuery: Sendable, Equatable {
    public var bbox: BoundingBox
    /// The map's zoom, 0…`maxZoom`.
    public var zoom: Int
    /// Row ids (`stations.fid`) of the visited entries (`VisitedStations.fids`).
    public var visited: Set<Int64>
    /// Which entries count: all, the visited ones only, or the others.
    public var filter: VisitFilter
    /// Also closed entries.
    public var includeClosed: Bool

    /// Cells are tiles this many zoom levels deeper than the map (4 × 4 cells per 256-px tile).
    public static let cellZoomOffset = 2
    /// The deepest map zoom a cluster question may name.
    public static let maxZoom = 20

    public init(bbox: BoundingBox, zoom: Int, visited: Set<Int64> = [], filter: VisitFilter = .all,
                includeClosed: Bool = false) {
        (self.bbox, self.zoom, self.visited, self.filter, self.includeClosed) = (bbox, zoom, visited, filter, includeClosed)
    }

    /// `zoom + cellZoomOffset`.
    public var cellZoom: Int { zoom + Self.cellZoomOffset }

    /// The tiles at `cellZoom` overlapping `bbox`: x and y ranges (y grows southwards).
    public var tiles: (x: ClosedRange<Int>, y: ClosedRange<Int>) {
        let z = min(max(cellZoom, 0), ClusterGrid.maxCellZoom)
        let x0 = WebMercator.tile(WebMercator.x(bbox.minLon), z), x1 = WebMercator.tile(WebMercator.x(bbox.maxLon), z)
        let y0 = WebMercator.tile(WebMercator.y(bbox.maxLat), z), y1 = WebMercator.tile(WebMercator.y(bbox.minLat), z)
        return (x0...x1, y0...y1)
    }

    /// How many cells (tiles) the box overlaps at `cellZoom`.
    public var cellCount: Int { tiles.x.count * tiles.y.count }
}

/// One cluster: the entries of one cell (tile × prefecture) that count.
public struct Cluster: Sendable, Equatable {
    /// The tile: zoom, x, y (slippy-map numbering).
    public var cellZoom: Int, x: Int, y: Int
    /// JIS X 0401 code (13 = 東京都); 0 for entries without a prefecture.
    public var prefectureCode: Int
    /// Entries that count, and how many of them are visited.
    public var total: Int, visited: Int
    /// The entry nearest the mean of the cluster's entries (Web Mercator plane; ties by key):
    /// a real station, so it lies in the cluster's prefecture.
    public var representative: StationHit
    /// The extent of the cluster's entries (degrees).
    public var extent: BoundingBox

    /// `cellZoom/x/y/prefectureCode` (`7/113/50/13`).
    public var id: String { "\(cellZoom)/\(x)/\(y)/\(prefectureCode)" }
    /// The prefecture's name (東京都), nil for code 0.
    public var prefecture: String? { prefectureCode > 0 ? Prefecture.names[prefectureCode - 1] : nil }
}

/// The answer to a `ClusterQuery`: clusters sorted by id (none with total 0), and their sums.
public struct ClusterResult: Sendable, Equatable {
    public var cellZoom: Int
    public var clusters: [Cluster]
    public var total: Int { clusters.reduce(0) { $0 + $1.total } }
    public var visited: Int { clusters.reduce(0) { $0 + $1.visited } }
}

/// Every entry's point, prefecture and open flag in memory, in the order of a Morton (Z-order)
/// curve of their Web Mercator positions, so that the entries of any tile are one run of
/// memory; and per cell zoom (built when first asked, kept) the clusters of every tile ×
/// prefecture with their counts, representative and extent. A cluster question then reads only
/// the cells in view; the visited entries (few) are binned the same way on each question, and
/// only cells holding some are counted again when they must be left out. Valid for one version
/// of the file; `SpatialIndex` keeps one and replaces it when the file changes. About 70 bytes
/// an entry, plus about 100 a cluster of each cell zoom asked (the 16 asked last are kept: more
/// than the 12 zooms the page asks clusters at). Not thread-safe.
final class ClusterGrid {
    /// The deepest cell zoom (Morton codes hold 31 bits per axis).
    static let maxCellZoom = ClusterQuery.maxZoom + ClusterQuery.cellZoomOffset
    private static let bits = 31

    let dataVersion: UInt32
    // Entries by position along the curve (ties of equal codes by row id).
    private let code: [UInt64]
    private let fid: [Int64]
    private let lat: [Double], lon: [Double]
    private let mx: [Double], my: [Double]
    private let pref: [UInt8]
    private let open: [Bool]
    /// Position of the entry's key in key order (ties of the representative go to the lower).
    private let keyRank: [Int32]
    /// Row ids sorted, with the position of each.
    private let fidsSorted: [Int64]
    private let positionOfSorted: [Int32]
    /// Scratch: true at the positions of the visited entries during a question.
    private var visitedMask: [Bool]
    private var levels: [Int: Level] = [:]
    /// Level ids, least recently asked first; at most `keptLevels` are kept.
    private var recent: [Int] = []
    private static let keptLevels = 16

    /// The clusters of one cell zoom (open entries, or all): sorted by `key` (tile code, then
    /// prefecture), each with its tile's run of positions for questions that must count again.
    private struct Level {
        var key: [UInt64] = []
        var count: [Int32] = []
        var rep: [Int32] = []
        var extent: [BoundingBox] = []
        var run: [Range<Int>] = []
        /// Sums of the members' world x and y (their mean is `sum / count`).
        var sumX: [Double] = [], sumY: [Double] = []
        /// The `nearCount` members nearest the mean, nearest first (ties by key), cluster c's
        /// at `near[nearStart[c]..<nearStart[c + 1]]`: where a filter's mean moved to is looked
        /// for among them first.
        var near: [Int32] = []
        var nearStart: [Int32] = [0]
    }

    /// How many members nearest its mean each cluster keeps.
    private static let nearCount = 16

    /// Reads every entry of the file.
    /// - Throws: `SQLiteError`.
    init(db: Database) throws {
        dataVersion = try db.dataVersion()
        let n = Int(try db.scalarInt("SELECT count(*) FROM stations") ?? 0)
        var fid: [Int64] = [], lat: [Double] = [], lon: [Double] = [], pref: [UInt8] = [], open: [Bool] = []
        fid.reserveCapacity(n); lat.reserveCapacity(n); lon.reserveCapacity(n); pref.reserveCapacity(n); open.reserveCapacity(n)
        let codes = Dictionary(uniqueKeysWithValues: Prefecture.names.enumerated().map { ($0.element, UInt8($0.offset + 1)) })
        let s = try db.prepare("SELECT fid, lat, lon, prefecture, open FROM stations ORDER BY fid")
        while try s.step() {
            fid.append(s.int64(0)); lat.append(s.double(1)); lon.append(s.double(2))
            pref.append(s.optionalText(3).flatMap { codes[$0] } ?? 0)
            open.append(s.int64(4) != 0)
        }
        // Key ranks, by row-id index.
        var rankByRow = [Int32](repeating: 0, count: fid.count)
        let k = try db.prepare("SELECT fid FROM stations ORDER BY key")
        var rank: Int32 = 0
        while try k.step() {
            if let i = Self.index(of: k.int64(0), in: fid) { rankByRow[i] = rank }
            rank += 1
        }
        let mxRow = lon.map(WebMercator.x), myRow = lat.map(WebMercator.y)
        let morton: [UInt64] = (0..<fid.count).map { Self.morton(mxRow[$0], myRow[$0]) }
        // Row-id order breaks ties of equal codes (the sort is not stable).
        let order: [Int] = (0..<fid.count).sorted { (a: Int, b: Int) -> Bool in
            let ma = morton[a], mb = morton[b]
            return ma != mb ? ma < mb : a < b
        }
        code = order.map { morton[$0] }
        self.fid = order.map { fid[$0] }
        self.lat = order.map { lat[$0] }; self.lon = order.map { lon[$0] }
        mx = order.map { mxRow[$0] }; my = order.map { myRow[$0] }
        self.pref = order.map { pref[$0] }; self.open = order.map { open[$0] }
        keyRank = order.map { rankByRow[$0] }
        fidsSorted = fid
        var positions = [Int32](repeating: 0, count: fid.count)
        for (p, row) in order.enumerated() { positions[row] = Int32(p) }
        positionOfSorted = positions
        visitedMask = [Bool](repeating: false, count: fid.count)
    }

    /// The position of the entry with row id `f`, or nil.
    private func position(of f: Int64) -> Int? { Self.index(of: f, in: fidsSorted).map { Int(positionOfSorted[$0]) } }

    /// The clusters of `q` (see `ClusterQuery` for the cell rule).
    func clusters(_ q: ClusterQuery) -> ClusterResult {
        let cz = q.cellZoom
        let shift = UInt64(2 * (Self.bits - cz))
        let (xs, ys) = q.tiles
        func inView(_ tile: UInt64) -> Bool {
            let (x, y) = Self.deinterleave(tile)
            return xs.contains(Int(x)) && ys.contains(Int(y))
        }
        // The visited entries that count, binned by cluster key.
        var visitedByKey: [UInt64: [Int]] = [:]
        var marked: [Int] = []
        for f in q.visited {
            guard let i = position(of: f), q.includeClosed || open[i] else { continue }
            let tile = code[i] >> shift
            guard inView(tile) else { continue }
            visitedByKey[tile << 6 | UInt64(pref[i]), default: []].append(i)
            marked.append(i)
        }
        var out: [Cluster] = []
        if q.filter == .visited {
            for (key, members) in visitedByKey {
                out.append(cluster(key: key, cz: cz, members: members.sorted(), visited: members.count))
            }
        } else {
            for i in marked { visitedMask[i] = true }
            defer { for i in marked { visitedMask[i] = false } }
            let level = self.level(cz, includeClosed: q.includeClosed)
            forEachCluster(level, xs: xs, ys: ys) { c in
                let key = level.key[c], v = visitedByKey[key]?.count ?? 0
                if q.filter == .all || v == 0 {
                    out.append(Cluster(cellZoom: cz, key: key, total: Int(level.count[c]), visited: q.filter == .all ? v : 0,
                                       representative: hit(Int(level.rep[c])), extent: level.extent[c]))
                } else if Int(level.count[c]) > v {
                    // Unvisited, some visited here: the rest of the cell's entries of that prefecture.
                    if let quick = unvisited(level, c, cz: cz, visited: visitedByKey[key]!) {
                        out.append(quick)
                    } else {
                        let p = UInt8(key & 63)
                        let members = level.run[c].filter { pref[$0] == p && (q.includeClosed || open[$0]) && !visitedMask[$0] }
                        out.append(cluster(key: key, cz: cz, members: members, visited: 0))
                    }
                }
            }
        }
        let ids = out.map(\.id)
        return ClusterResult(cellZoom: cz, clusters: out.indices.sorted { ids[$0] < ids[$1] }.map { out[$0] })
    }

    // MARK: Levels

    private func level(_ cz: Int, includeClosed: Bool) -> Level {
        let id = cz * 2 + (includeClosed ? 1 : 0)
        recent.removeAll { $0 == id }
        recent.append(id)
        if let l = levels[id] { return l }
        if recent.count > Self.keptLevels { levels[recent.removeFirst()] = nil }
        var l = Level()
        let shift = UInt64(2 * (Self.bits - cz))
        var start = 0
        var members: [[Int]] = Array(repeating: [], count: 64)
        var touched: [Int] = []
        while start < code.count {
            let tile = code[start] >> shift
            var end = start
            while end < code.count && code[end] >> shift == tile {
                if includeClosed || open[end] {
                    let p = Int(pref[end])
                    if members[p].isEmpty { touched.append(p) }
                    members[p].append(end)
                }
                end += 1
            }
            touched.sort()
            for p in touched {
                let m = members[p]
                let (rep, extent) = summary(m)
                l.key.append(tile << 6 | UInt64(p))
                l.count.append(Int32(m.count))
                l.rep.append(Int32(rep))
                l.extent.append(extent)
                l.run.append(start..<end)
                var sx = 0.0, sy = 0.0
                for i in m { sx += mx[i]; sy += my[i] }
                l.sumX.append(sx); l.sumY.append(sy)
                l.near.append(contentsOf: nearest(m, toX: sx / Double(m.count), y: sy / Double(m.count), k: Self.nearCount).map { Int32($0) })
                l.nearStart.append(Int32(l.near.count))
                members[p].removeAll(keepingCapacity: true)
            }
            touched.removeAll(keepingCapacity: true)
            start = end
        }
        levels[id] = l
        return l
    }

    /// Calls `body` with the index of every cluster of `level` whose tile is in view, in key order.
    private func forEachCluster(_ level: Level, xs: ClosedRange<Int>, ys: ClosedRange<Int>, _ body: (Int) -> Void) {
        let cells = xs.count * ys.count
        if cells * 8 < level.key.count {
            // Few cells: look each tile up.
            var tiles: [UInt64] = []
            tiles.reserveCapacity(cells)
            for y in ys { for x in xs { tiles.append(Self.interleave(UInt32(x), UInt32(y))) } }
            tiles.sort()
            for t in tiles {
                var c = Self.lowerBound(t << 6, in: level.key)
                while c < level.key.count && level.key[c] >> 6 == t { body(c); c += 1 }
            }
        } else {
            for c in level.key.indices {
                let (x, y) = Self.deinterleave(level.key[c] >> 6)
                if xs.contains(Int(x)) && ys.contains(Int(y)) { body(c) }
            }
        }
    }

    // MARK: One cluster

    /// The cluster of `members` (entry positions, all of one cell and prefecture).
    private func cluster(key: UInt64, cz: Int, members: [Int], visited: Int) -> Cluster {
        let (rep, extent) = summary(members)
        return Cluster(cellZoom: cz, key: key, total: members.count, visited: visited, representative: hit(rep), extent: extent)
    }

    /// The representative (entry position) and extent of a non-empty list of entry positions.
    private func summary(_ members: [Int]) -> (rep: Int, extent: BoundingBox) {
        var sx = 0.0, sy = 0.0
        var minLat = Double.infinity, minLon = Double.infinity, maxLat = -Double.infinity, maxLon = -Double.infinity
        for i in members {
            sx += mx[i]; sy += my[i]
            minLat = min(minLat, lat[i]); maxLat = max(maxLat, lat[i])
            minLon = min(minLon, lon[i]); maxLon = max(maxLon, lon[i])
        }
        let cx = sx / Double(members.count), cy = sy / Double(members.count)
        var best = members[0], bestD = Double.infinity
        for i in members {
            let d = (mx[i] - cx) * (mx[i] - cx) + (my[i] - cy) * (my[i] - cy)
            if d < bestD || (d == bestD && keyRank[i] < keyRank[best]) { best = i; bestD = d }
        }
        return (best, BoundingBox(minLon: minLon, minLat: minLat, maxLon: maxLon, maxLat: maxLat))
    }

    /// Cluster `c` of `level` without its `visited` members (positions, marked in the mask),
    /// from the kept sums and nearest members, or nil when those cannot decide it exactly:
    /// a visited member on the extent's edge, or the mean moved so far that an entry beyond
    /// the nearest kept could be the nearer one (by the triangle inequality).
    private func unvisited(_ level: Level, _ c: Int, cz: Int, visited: [Int]) -> Cluster? {
        let e = level.extent[c]
        for i in visited where lat[i] == e.minLat || lat[i] == e.maxLat || lon[i] == e.minLon || lon[i] == e.maxLon { return nil }
        let count = Double(level.count[c]), rest = count - Double(visited.count)
        var sx = level.sumX[c], sy = level.sumY[c]
        for i in visited { sx -= mx[i]; sy -= my[i] }
        let cx = sx / rest, cy = sy / rest
        let moved = ((level.sumX[c] / count - cx) * (level.sumX[c] / count - cx)
                     + (level.sumY[c] / count - cy) * (level.sumY[c] / count - cy)).squareRoot()
        let near = level.near[Int(level.nearStart[c])..<Int(level.nearStart[c + 1])].map { Int($0) }
        var best: Int?, bestD = Double.infinity
        for i in near where !visitedMask[i] {
            let d = (mx[i] - cx) * (mx[i] - cx) + (my[i] - cy) * (my[i] - cy)
            if d < bestD || (d == bestD && keyRank[i] < keyRank[best!]) { best = i; bestD = d }
        }
        guard let best else { return nil }
        if near.count < Int(level.count[c]) {
            let m0x = level.sumX[c] / count, m0y = level.sumY[c] / count, last = near[near.count - 1]
            let lastD = ((mx[last] - m0x) * (mx[last] - m0x) + (my[last] - m0y) * (my[last] - m0y)).squareRoot()
            guard lastD - moved - 1e-12 > bestD.squareRoot() else { return nil }
        }
        return Cluster(cellZoom: cz, key: level.key[c], total: Int(rest), visited: 0, representative: hit(best), extent: e)
    }

    /// The `k` of `members` nearest (x, y), nearest first, ties by key.
    private func nearest(_ members: [Int], toX x: Double, y: Double, k: Int) -> [Int] {
        func d(_ i: Int) -> Double { (mx[i] - x) * (mx[i] - x) + (my[i] - y) * (my[i] - y) }
        func before(_ a: Int, _ b: Int) -> Bool { d(a) != d(b) ? d(a) < d(b) : keyRank[a] < keyRank[b] }
        var kept: [Int] = []
        kept.reserveCapacity(k + 1)
        for i in members {
            if kept.count == k, !before(i, kept[k - 1]) { continue }
            let at = kept.firstIndex { before(i, $0) } ?? kept.count
            kept.insert(i, at: at)
            if kept.count > k { kept.removeLast() }
        }
        return kept
    }

    private func hit(_ i: Int) -> StationHit { StationHit(fid: fid[i], coordinate: Coordinate(lat: lat[i], lon: lon[i])) }

    // MARK: Bits

    static func index(of f: Int64, in sorted: [Int64]) -> Int? {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < f { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && sorted[lo] == f ? lo : nil
    }

    static func lowerBound(_ v: UInt64, in sorted: [UInt64]) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The Morton code of a world position at 31 bits per axis.
    static func morton(_ x: Double, _ y: Double) -> UInt64 {
        let scale = Double(1 << bits)
        return interleave(UInt32(min(max(x * scale, 0), scale - 1)), UInt32(min(max(y * scale, 0), scale - 1)))
    }

    /// x's bits at even positions, y's at odd ones.
    static func interleave(_ x: UInt32, _ y: UInt32) -> UInt64 { spread(x) | spread(y) << 1 }

    static func deinterleave(_ m: UInt64) -> (UInt32, UInt32) { (compact(m), compact(m >> 1)) }

    private static func spread(_ v: UInt32) -> UInt64 {
        var x = UInt64(v)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | x << 2) & 0x3333_3333_3333_3333
        x = (x | x << 1) & 0x5555_5555_5555_5555
        return x
    }

    private static func compact(_ m: UInt64) -> UInt32 {
        var x = m & 0x5555_5555_5555_5555
        x = (x | x >> 1) & 0x3333_3333_3333_3333
        x = (x | x >> 2) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF
        x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF
        x = (x | x >> 16) & 0x0000_0000_FFFF_FFFF
        return UInt32(x)
    }
}

extension Cluster {
    fileprivate init(cellZoom cz: Int, key: UInt64, total: Int, visited: Int, representative: StationHit, extent: BoundingBox) {
        let (x, y) = ClusterGrid.deinterleave(key >> 6)
        self.init(cellZoom: cz, x: Int(x), y: Int(y), prefectureCode: Int(key & 63), total: total, visited: visited,
                  representative: representative, extent: extent)
    }
}

extension SpatialIndex {
    /// The clusters of `query` (the cell rule is `ClusterQuery`'s), sorted by id; clusters with
    /// no entry that counts are left out. The first question of a file version reads every
    /// entry, and the first at each cell zoom bins them all; later ones read only the cells in
    /// view and the visited entries.
    /// - Throws: `SQLiteError`.
    public func clusters(_ query: ClusterQuery) throws -> ClusterResult {
        precondition((0...ClusterQuery.maxZoom).contains(query.zoom), "zoom out of range")
        return try currentClusterGrid().clusters(query)
    }
}
