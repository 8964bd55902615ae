import EkiSQLite

/// Lean viewport and nearest-first queries for a map that asks on every pan and zoom: compact
/// results (row id and point; load the entry with `station(fid:)` when it is tapped), answered
/// from the R-tree's nodes kept in memory (`RTreeNodeCache`) with no SQL once the nodes a query
/// needs have been read. Same answers as `stations(in:)` and `nearest(to:k:)`.
///
/// Each query first checks that the file has not changed since the nodes were read (one
/// `PRAGMA data_version`, a lock and unlock of the file: a few µs). A burst of queries inside
/// `StationStore.readSnapshot` skips that: the read lock is held for the burst.

/// An entry found by a lean query: its row id in `stations` and its exact point.
public struct StationHit: Hashable, Sendable {
    /// `stations.fid`; `StationStore.station(fid:)` loads the whole entry.
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

extension StationStore {
    /// The R-tree node cache for the file as it is now (a new one when the file changed).
    func currentNodeCache() throws -> RTreeNodeCache {
        if let c = nodeCache, c.dataVersion == (try db.dataVersion()) { return c }
        let c = try RTreeNodeCache(db: db, table: SpatialIndex.table)
        nodeCache = c
        return c
    }

    /// Runs `body` (a burst of queries, say one map redraw) in a read transaction: the queries
    /// see one version of the file and the lean ones skip their per-query change check. Other
    /// connections cannot commit while it runs: keep it short.
    /// - Throws: `SQLiteError`, or what `body` throws.
    public func readSnapshot<T>(_ body: () throws -> T) throws -> T {
        try db.readTransaction(body)
    }

    /// Reads the whole R-tree and every leaf's points now, so that later lean queries never
    /// wait for SQLite (about 1 s and 75 MB for 1M entries). Optional: queries read what they
    /// need on their own.
    /// - Throws: `SQLiteError`.
    public func preloadSpatialIndex() throws {
        let c = try currentNodeCache()
        var stack: [Int32] = [0]
        while let h = stack.popLast() {
            let node = c.nodes[Int(h)]
            guard node.level > 0 else { continue }
            for i in node.childNode.indices { stack.append(try c.child(of: node, i)) }
        }
    }

    /// The entries inside `bbox` (edges included; degrees WGS84, RFC 7946 order) in R-tree
    /// order, written into `hits` (emptied first; its storage is reused, so a caller that keeps
    /// one array allocates nothing per query once warm). The same entries as `stations(in:)`.
    /// - Throws: `SQLiteError` when a node has to be read and cannot be.
    public func stationHits(in bbox: BoundingBox, includeClosed: Bool = false, into hits: inout [StationHit]) throws {
        hits.removeAll(keepingCapacity: true)
        let c = try currentNodeCache()
        let minLon = bbox.minLon, maxLon = bbox.maxLon, minLat = bbox.minLat, maxLat = bbox.maxLat
        var stack = c.takeStack()
        defer { c.returnStack(stack) }
        stack.append(0)
        while let h = stack.popLast() {
            let node = c.nodes[Int(h)]
            if node.level == 0 {
                for i in node.fid.indices {
                    let lon = node.lon[i], lat = node.lat[i]
                    if lon >= minLon && lon <= maxLon && lat >= minLat && lat <= maxLat && (includeClosed || node.open[i]) {
                        hits.append(StationHit(fid: node.fid[i], coordinate: Coordinate(lat: lat, lon: lon)))
                    }
                }
            } else {
                try node.box.withUnsafeBufferPointer { b in
                    for i in node.childNode.indices {
                        let o = 4 * i
                        if Double(b[o]) <= maxLon && Double(b[o + 1]) >= minLon && Double(b[o + 2]) <= maxLat && Double(b[o + 3]) >= minLat {
                            stack.append(try c.child(of: node, i))
                        }
                    }
                }
            }
        }
    }

    /// `stationHits(in:includeClosed:into:)` into a new array.
    public func stationHits(in bbox: BoundingBox, includeClosed: Bool = false) throws -> [StationHit] {
        var hits: [StationHit] = []
        try stationHits(in: bbox, includeClosed: includeClosed, into: &hits)
        return hits
    }

    /// The `k` entries nearest `point` by geodesic distance (WGS84, Karney via PROJ, metres), nearest
    /// first, ties broken by key: the same entries in the same order as `nearest(to:k:)` and a
    /// brute-force scan.
    ///
    /// Best-first search (Hjaltason & Samet's incremental nearest neighbour): one priority queue
    /// holds tree nodes keyed by a lower bound of the distance to anything under them (the
    /// straight-line distance from the point, on the ellipsoid in Earth-centred coordinates, to
    /// a box holding the node's surface patch, less 1 cm), leaf entries keyed by their chord
    /// (less 1 cm), and entries keyed by their exact geodesic distance. An exact entry that
    /// comes out of the queue is the next nearest: nothing left can be nearer. The geodesic's error
    /// (about 15 nm) and rounding are inside the 1 cm, so the bounds hold for the distances the
    /// brute force computes. Entries tied at equal distance are ordered by key (read only then).
    /// - Throws: `SQLiteError` when a node has to be read and cannot be.
    public func nearestHits(to point: Coordinate, k: Int, includeClosed: Bool = false, into hits: inout [StationHit]) throws {
        hits.removeAll(keepingCapacity: true)
        guard k > 0 else { return }
        let c = try currentNodeCache()
        let q = Earth.point(lat: point.lat, lon: point.lon)
        var heap = c.takeHeap()
        defer { c.returnHeap(heap) }
        heap.push(.init(key: 0, node: 0, item: -1, kind: .node))
        var kth = Double.infinity
        while let top = heap.peek() {
            if hits.count >= k && top.key > kth { break }
            heap.pop()
            let node = c.nodes[Int(top.node)]
            switch top.kind {
            case .exact:
                let i = Int(top.item)
                hits.append(StationHit(fid: node.fid[i], coordinate: Coordinate(lat: node.lat[i], lon: node.lon[i]), distance: top.key))
                if hits.count == k { kth = top.key }
            case .entry:
                let i = Int(top.item)
                let d = Geodesic.distance(validLat1: point.lat, lon1: point.lon, lat2: node.lat[i], lon2: node.lon[i])
                heap.push(.init(key: d, node: top.node, item: top.item, kind: .exact))
            case .node:
                if top.item >= 0 {
                    let h = try c.child(of: node, Int(top.item))
                    let child = c.nodes[Int(h)]
                    if child.level == 0 {
                        child.xyz.withUnsafeBufferPointer { p in
                            for i in child.fid.indices where includeClosed || child.open[i] {
                                let dx = p[3 * i] - q.x, dy = p[3 * i + 1] - q.y, dz = p[3 * i + 2] - q.z
                                let lb = (dx * dx + dy * dy + dz * dz).squareRoot() - 0.01
                                if hits.count < k || lb <= kth {
                                    heap.push(.init(key: lb, node: h, item: Int32(i), kind: .entry))
                                }
                            }
                        }
                    } else {
                        pushChildren(of: child, handle: h, q: q, heap: &heap, bound: hits.count < k ? .infinity : kth)
                    }
                } else if node.level == 0 {   // the root is a leaf
                    for i in node.fid.indices where includeClosed || node.open[i] {
                        let d = Geodesic.distance(validLat1: point.lat, lon1: point.lon, lat2: node.lat[i], lon2: node.lon[i])
                        heap.push(.init(key: d, node: top.node, item: Int32(i), kind: .exact))
                    }
                } else {
                    pushChildren(of: node, handle: top.node, q: q, heap: &heap, bound: .infinity)
                }
            }
        }
        try orderTiesByKey(&hits)
        if hits.count > k { hits.removeSubrange(k...) }
    }

    /// `nearestHits(to:k:includeClosed:into:)` into a new array.
    public func nearestHits(to point: Coordinate, k: Int, includeClosed: Bool = false) throws -> [StationHit] {
        var hits: [StationHit] = []
        try nearestHits(to: point, k: k, includeClosed: includeClosed, into: &hits)
        return hits
    }

    private func pushChildren(of node: RTreeNodeCache.Node, handle: Int32, q: (x: Double, y: Double, z: Double),
                              heap: inout NearestHeap, bound: Double) {
        node.shell.withUnsafeBufferPointer { s in
            for i in node.childNode.indices {
                let o = 6 * i
                let dx = max(s[o] - q.x, 0, q.x - s[o + 1])
                let dy = max(s[o + 2] - q.y, 0, q.y - s[o + 3])
                let dz = max(s[o + 4] - q.z, 0, q.z - s[o + 5])
                let lb = (dx * dx + dy * dy + dz * dz).squareRoot() - 0.01
                if lb <= bound { heap.push(.init(key: lb, node: handle, item: Int32(i), kind: .node)) }
            }
        }
    }

    /// Hits sorted by distance: runs of equal distance are put in key order.
    func orderTiesByKey(_ hits: inout [StationHit]) throws {
        var i = 0
        while i < hits.count {
            var j = i + 1
            while j < hits.count && hits[j].distance == hits[i].distance { j += 1 }
            if j - i > 1 {
                let keyed = try hits[i..<j].map { (key: try key(fid: $0.fid), hit: $0) }.sorted { $0.key < $1.key }
                for (n, e) in keyed.enumerated() { hits[i + n] = e.hit }
            }
            i = j
        }
    }

    /// The key of the entry with row id `fid`.
    func key(fid: Int64) throws -> String {
        let s = try db.cached("SELECT key FROM stations WHERE fid = ?")
        s.bind(fid, at: 1)
        defer { s.reset() }
        guard try s.step() else { throw StoreError.noEntry(fid: fid) }
        return s.text(0)
    }
}

/// A binary min-heap of search items (value types only: no reference counting per operation).
struct NearestHeap {
    enum Kind: UInt8 { case node, entry, exact }
    struct Item {
        var key: Double
        /// Cache handle of the node (for `.node` items: the parent; `item` is the child cell,
        /// or -1 for the root itself).
        var node: Int32
        var item: Int32
        var kind: Kind
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
    func takeHeap() -> NearestHeap {
        var h = spareHeap ?? NearestHeap()
        spareHeap = nil
        h.removeAll()
        return h
    }
    func returnHeap(_ h: NearestHeap) { spareHeap = h }
    func takeStack() -> [Int32] {
        var s = spareStack ?? []
        spareStack = nil
        s.removeAll(keepingCapacity: true)
        return s
    }
    func returnStack(_ s: [Int32]) { spareStack = s }
}
