import EkiSQLite

/// Lean viewport and nearest-first queries for a map that asks on every pan and zoom: compact
/// results (row id and point; load the entry with `entries.station(fid:)` when it is tapped), answered
/// from the R-tree's nodes kept in memory (`RTreeNodeCache`) with no SQL once the nodes a query
/// needs have been read. Same answers as `stations(in:)` and `nearest(to:k:)`, which load them whole.
///
/// Each query first checks that the file has not changed since the nodes were read (one
/// `PRAGMA data_version`, a lock and unlock of the file: a few µs). A burst of queries inside
/// `StationStore.readSnapshot` skips that: the read lock is held for the burst.

/// An entry found by a lean query: its row id in `stations` and its exact point.
public struct StationHit: Hashable, Sendable {
    /// `stations.fid`; `store.entries.station(fid:)` loads the whole entry.
    public var fid: Int64
    /// Degrees WGS84.
    public var coordinate: Coordinate
    /// Geodesic distance from the query point, metres (nearest-first queries; 0 for bbox).
    public var distance: Double

    public init(fid: Int64, coordinate: Coordinate, distance: Double = 0) {
        self.fid = fid
        self.coordinate = coordinate
        self.distance = distance
    }
}

extension SpatialIndex {
    /// The entries inside `bbox` (edges included; degrees WGS84, RFC 7946 order; a box across
    /// the antimeridian is two queries, one per side, `BoundingBox.halves`) in R-tree order,
    /// written into `hits` (emptied first; its storage is reused, so a caller that keeps one
    /// array allocates nothing per query once warm). The same entries as `stations(in:)`.
    /// - Throws: `SQLiteError` when a node has to be read and cannot be.
    public func hits(in bbox: BoundingBox, includeClosed: Bool = false, into hits: inout [StationHit]) throws {
        hits.removeAll(keepingCapacity: true)
        for half in bbox.halves { try appendHits(in: half, includeClosed: includeClosed, to: &hits) }
    }

    /// Appends the entries inside `bbox` (which does not cross the antimeridian) to `hits`.
    private func appendHits(in bbox: BoundingBox, includeClosed: Bool, to hits: inout [StationHit]) throws {
        let c = try currentNodeCache()
        let minLon = bbox.minLon, maxLon = bbox.maxLon, minLat = bbox.minLat, maxLat = bbox.maxLat
        var stack = c.takeStack()
        defer { c.returnStack(stack) }
        stack.append(0)
        while let h32 = stack.popLast() {
            let h = Int(h32), level = c.level(h)
            if level == 0 {
                for i in c.range(h) {
                    let e = c.entry[i]
                    if e.lon >= minLon && e.lon <= maxLon && e.lat >= minLat && e.lat <= maxLat && (includeClosed || c.open[i]) {
                        hits.append(StationHit(fid: e.fid, coordinate: Coordinate(lat: e.lat, lon: e.lon)))
                    }
                }
            } else {
                for i in c.range(h) {
                    let o = 4 * i
                    if Double(c.box[o]) <= maxLon && Double(c.box[o + 1]) >= minLon
                        && Double(c.box[o + 2]) <= maxLat && Double(c.box[o + 3]) >= minLat {
                        stack.append(Int32(try c.child(ofCell: i, parentLevel: level)))
                    }
                }
            }
        }
    }

    /// `hits(in:includeClosed:into:)` into a new array.
    public func hits(in bbox: BoundingBox, includeClosed: Bool = false) throws -> [StationHit] {
        var hits: [StationHit] = []
        try self.hits(in: bbox, includeClosed: includeClosed, into: &hits)
        return hits
    }

    /// The `k` entries nearest `point` by geodesic distance (WGS84, Karney via PROJ, metres), nearest
    /// first, ties broken by key: the same entries in the same order as `nearest(to:k:)` and a
    /// brute-force scan.
    ///
    /// Best-first search (Hjaltason & Samet's incremental nearest neighbour): one priority queue
    /// holds tree cells keyed by a lower bound of the distance to anything under them (the
    /// straight-line distance from the point, on the ellipsoid in Earth-centred coordinates, to
    /// a box holding the cell's surface patch, less 1 cm), leaf entries keyed by their chord
    /// (from their point rounded to floats: less `Earth.floatPointError` and 1 cm), and
    /// entries keyed by their exact geodesic distance. An exact entry that
    /// comes out of the queue is the next nearest: nothing left can be nearer. The geodesic's error
    /// (about 15 nm) and rounding are inside the 1 cm, so the bounds hold for the distances the
    /// brute force computes. The geodesic is thus computed only for entries whose chord could
    /// put them among the `k` (about k + 1 per query). Entries tied at equal distance are
    /// ordered by key (read only then).
    /// The search first descends straight to the leaf nearest the point; from then on the k
    /// smallest chords of the entries seen bound the k-th distance from above
    /// (`Earth.geodesicUpperBound`), and cells or entries whose lower bound exceeds it are not
    /// queued. Scratch storage is reused between queries: a warm query allocates only when
    /// `hits` has to grow.
    /// - Throws: `SQLiteError` when a node has to be read and cannot be.
    public func nearestHits(to point: Coordinate, k: Int, includeClosed: Bool = false, into hits: inout [StationHit]) throws {
        hits.removeAll(keepingCapacity: true)
        guard k > 0 else { return }
        let c = try currentNodeCache()
        let q = Earth.point(lat: point.lat, lon: point.lon)
        var search = c.takeSearch(k: k)
        defer { c.returnSearch(search) }
        // First the path to the leaf nearest the point (each level's other cells are kept with
        // their squared distances): its entries give upper bounds of the k-th distance, so that
        // far cells and entries are never queued.
        var h = 0
        var level = c.level(0)
        while level > 0 {
            let cells = c.range(h)
            let firstSibling = search.siblings.count
            var best = -1, bestD2 = Double.infinity
            c.shell.withUnsafeBufferPointer { s in
                for i in cells {
                    let d2 = Earth.squaredDistance(q, s, 6 * i)
                    search.siblings.append(.init(key: d2, index: Int32(i), kind: .node, level: UInt8(level - 1)))
                    if d2 < bestD2 { bestD2 = d2; best = i }
                }
            }
            guard best >= 0 else { break }   // an empty node (an empty tree's root)
            search.siblings.swapAt(firstSibling + best - cells.lowerBound, search.siblings.count - 1)
            search.siblings.removeLast()
            h = try c.child(ofCell: best, parentLevel: level)
            level -= 1
        }
        if level == 0 { expandLeaf(c, h, q: q, includeClosed: includeClosed, search: &search) }
        let firstLimit = Earth.squaredLimit(search.bound)
        for var s in search.siblings where s.key <= firstLimit {
            s.key = Earth.lowerBound(squared: s.key)
            search.heap.push(s)
        }
        var kth = Double.infinity
        while let top = search.heap.peek() {
            if hits.count >= k && top.key > kth { break }
            search.heap.pop()
            let i = Int(top.index)
            switch top.kind {
            case .exact:
                let e = c.entry[i]
                hits.append(StationHit(fid: e.fid, coordinate: Coordinate(lat: e.lat, lon: e.lon), distance: top.key))
                if hits.count == k { kth = top.key }
            case .entry:
                let e = c.entry[i]
                let d = Geodesic.distance(validLat1: point.lat, lon1: point.lon, lat2: e.lat, lon2: e.lon)
                search.heap.push(.init(key: d, index: top.index, kind: .exact, level: 0))
            case .node:
                let child = try c.child(ofCell: i, parentLevel: Int32(top.level) + 1)
                if top.level == 0 {
                    expandLeaf(c, child, q: q, includeClosed: includeClosed, search: &search)
                } else {
                    let limit = Earth.squaredLimit(min(search.bound, kth))
                    let cells = c.range(child)
                    c.shell.withUnsafeBufferPointer { s in
                        for j in cells {
                            let d2 = Earth.squaredDistance(q, s, 6 * j)
                            if d2 <= limit {
                                search.heap.push(.init(key: Earth.lowerBound(squared: d2), index: Int32(j), kind: .node, level: top.level - 1))
                            }
                        }
                    }
                }
            }
        }
        try orderTiesByKey(&hits)
        if hits.count > k { hits.removeSubrange(k...) }
    }

    /// Queues the (open) entries of leaf `h` by a lower bound of their distance (the chord from
    /// their float point, less its error and 1 cm), after offering upper bounds (the chord plus
    /// that error) to the k-th distance bound. Reads each queued entry's record once, so that
    /// the memory of the few that come out of the queue is already being fetched.
    @inline(__always)
    private func expandLeaf(_ c: RTreeNodeCache, _ h: Int, q: (x: Double, y: Double, z: Double),
                            includeClosed: Bool, search: inout NearestSearch) {
        let entries = c.range(h)
        let checkOpen = !includeClosed && !c.allOpen(h)
        let slack = Earth.floatPointError
        search.chords.removeAll(keepingCapacity: true)
        c.xyz.withUnsafeBufferPointer { p in
            for i in entries {
                let dx = Double(p[3 * i]) - q.x, dy = Double(p[3 * i + 1]) - q.y, dz = Double(p[3 * i + 2]) - q.z
                let chord = (dx * dx + dy * dy + dz * dz).squareRoot()
                search.chords.append(chord)
                if !checkOpen || c.open[i] { search.offer(chord + slack) }
            }
        }
        let bound = search.bound
        c.entry.withUnsafeBufferPointer { e in
            for (j, chord) in search.chords.enumerated() where chord - slack - 0.01 <= bound {
                let i = entries.lowerBound + j
                if !checkOpen || c.open[i] {
                    search.heap.push(.init(key: chord - slack - 0.01, index: Int32(i), kind: .entry, level: 0))
                    search.fetched &+= e[i].fid
                }
            }
        }
    }

    /// `nearestHits(to:k:includeClosed:into:)` into a new array.
    public func nearestHits(to point: Coordinate, k: Int, includeClosed: Bool = false) throws -> [StationHit] {
        var hits: [StationHit] = []
        try nearestHits(to: point, k: k, includeClosed: includeClosed, into: &hits)
        return hits
    }

    /// Hits sorted by distance: runs of equal distance are put in key order.
    func orderTiesByKey(_ hits: inout [StationHit]) throws {
        var i = 0
        while i < hits.count {
            var j = i + 1
            while j < hits.count && hits[j].distance == hits[i].distance { j += 1 }
            if j - i > 1 {
                let keyed = try hits[i..<j].map { (key: try entries.key(fid: $0.fid), hit: $0) }.sorted { $0.key < $1.key }
                for (n, e) in keyed.enumerated() { hits[i + n] = e.hit }
            }
            i = j
        }
    }
}

/// A binary min-heap of search items (value types only: no reference counting per operation).
struct NearestHeap {
    enum Kind: UInt8 { case node, entry, exact }
    struct Item {
        var key: Double
        /// A cell (`.node`) or a leaf entry (`.entry`, `.exact`): its index in the cache's
        /// flat arrays.
        var index: Int32
        var kind: Kind
        /// For `.node`: the level of the node the cell points at.
        var level: UInt8
    }
    var items: [Item] = []

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    @inline(__always) func peek() -> Item? { items.first }

    @inline(__always) mutating func push(_ x: Item) {
        items.append(x)
        var i = items.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if items[p].key <= x.key { break }
            items[i] = items[p]
            i = p
        }
        items[i] = x
    }

    @inline(__always) mutating func pop() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        let n = items.count
        var i = 0
        while true {
            let l = 2 * i + 1
            if l >= n { break }
            var m = l
            if l + 1 < n && items[l + 1].key < items[l].key { m = l + 1 }
            if items[m].key >= last.key { break }
            items[i] = items[m]
            i = m
        }
        items[i] = last
    }
}

extension RTreeNodeCache {
    func takeSearch(k: Int) -> NearestSearch {
        var s = spareSearch ?? NearestSearch()
        spareSearch = nil
        s.reset(k: k)
        return s
    }
    func returnSearch(_ s: NearestSearch) { spareSearch = s }
    func takeStack() -> [Int32] {
        var s = spareStack ?? []
        spareStack = nil
        s.removeAll(keepingCapacity: true)
        return s
    }
    func returnStack(_ s: [Int32]) { spareStack = s }
}

/// Scratch state of one k-NN query, reused between queries: the queue, the siblings met on the
/// first descent, the chords of the leaf being expanded, and the k smallest chords of the
/// entries seen so far (a max-heap: the geodesic upper bound of its top bounds the k-th
/// distance, `Earth.geodesicUpperBound`).
struct NearestSearch {
    var heap = NearestHeap()
    var siblings: [NearestHeap.Item] = []
    var chords: [Double] = []
    /// A sum of the row ids of queued entries: reading them starts fetching their records
    /// while the search goes on (its value is not used).
    var fetched: Int64 = 0
    private var upper: [Double] = []
    private var k = 0

    /// Empties everything for a query asking for `k` entries.
    mutating func reset(k: Int) {
        heap.removeAll()
        siblings.removeAll(keepingCapacity: true)
        upper.removeAll(keepingCapacity: true)
        self.k = k
    }

    /// An upper bound of the k-th nearest distance (metres): from the k-th smallest chord
    /// offered, or ∞.
    var bound: Double { upper.count < k ? .infinity : Earth.geodesicUpperBound(chord: upper[0]) }

    /// Takes one entry's chord (each entry at most once).
    @inline(__always) mutating func offer(_ u: Double) {
        if upper.count < k {
            upper.append(u)
            var i = upper.count - 1
            while i > 0 {
                let p = (i - 1) / 2
                if upper[p] >= u { break }
                upper[i] = upper[p]
                i = p
            }
            upper[i] = u
        } else if u < upper[0] {
            let n = upper.count
            var i = 0
            while true {
                let l = 2 * i + 1
                if l >= n { break }
                var m = l
                if l + 1 < n && upper[l + 1] > upper[l] { m = l + 1 }
                if upper[m] <= u { break }
                upper[i] = upper[m]
                i = m
            }
            upper[i] = u
        }
    }
}
