import EkiSQLite
import Foundation

/// The GeoPackage R-tree of `stations`, read from its node table (`rtree_stations_geom_node`)
/// one node at a time when a query first reaches it, and kept. Leaves also keep their entries'
/// exact points and open flags (from `stations`), so once warm a query never goes back to SQLite.
///
/// It answers what the SQL R-tree query answers: the tree's 32-bit boxes are only a filter and
/// the exact coordinates decide. A process that asks one question reads a handful of nodes (a
/// cold `eki bbox` reads ~10); one that asks thousands ends up holding the whole tree (for 1M
/// entries about 40 MB: 52 bytes per internal cell plus 37 per leaf entry). It is valid for one
/// version of the file (`Database.dataVersion()`); the store drops it when the file changes.
///
/// Layout: flat arrays (struct of arrays), not one object per node. A node is a handle (its
/// index in `node`); its cells (internal node) or entries (leaf) are a
/// contiguous run of the cell or entry arrays, appended when the node is read, so that a query
/// reads a node as one run of memory.
final class RTreeNodeCache {
    /// Per node handle (the root is 0): its level (0 = leaf), the index of its first cell or
    /// entry, how many, and for leaves whether every entry is open (one record: one fetch).
    private(set) var node: [NodeInfo] = []

    struct NodeInfo {
        var first: Int32
        var count: Int32
        var level: Int32
        var allOpen: Bool
    }

    /// Cells of internal nodes: the child's node number, its handle once read (-1 before).
    private(set) var childNode: [Int64] = []
    private(set) var childHandle: [Int32] = []
    /// 32-bit boxes of the cells: minX, maxX, minY, maxY per cell.
    private(set) var box: [Float] = []
    /// Earth-centred boxes (metres) holding the surface patch of each cell's box:
    /// minX, maxX, minY, maxY, minZ, maxZ per cell (for k-NN lower bounds), `Earth.shell`
    /// rounded outward to 32-bit floats.
    private(set) var shell: [Float] = []

    /// Leaf entries, a leaf's entries contiguous: exact point and row id.
    private(set) var entry: [Entry] = []
    private(set) var open: [Bool] = []
    /// Earth-centred point of each leaf entry rounded to 32-bit floats, x, y, z (metres; within
    /// `Earth.floatPointError` of the exact one): what a k-NN query scans, 12 bytes an entry.
    private(set) var xyz: [Float] = []

    /// A leaf entry: its exact point (degrees WGS84) and `stations.fid`.
    struct Entry {
        var lat: Double
        var lon: Double
        var fid: Int64
    }

    let db: Database
    let table: String
    let dataVersion: UInt32
    /// Scratch storage reused by queries.
    var spareSearch: NearestSearch?
    var spareStack: [Int32]?

    /// Reads the root. - Throws: `SQLiteError`, `StoreError.corruptRTree`.
    init(db: Database, table: String) throws {
        self.db = db
        self.table = table
        dataVersion = try db.dataVersion()
        _ = try load(nodeno: 1, level: nil)
    }

    /// The cells (internal node) or entries (leaf) of node `h`, as indices into the flat arrays.
    @inline(__always) func range(_ h: Int) -> Range<Int> {
        let n = node[h]
        return Int(n.first)..<(Int(n.first) + Int(n.count))
    }

    /// The level of node `h` (0 = leaf).
    @inline(__always) func level(_ h: Int) -> Int32 { node[h].level }

    /// Whether every entry of leaf `h` is open.
    @inline(__always) func allOpen(_ h: Int) -> Bool { node[h].allOpen }

    /// The handle of the node cell `cell` of a node at `parentLevel` points at, read when first
    /// reached. - Throws: `SQLiteError`, `StoreError.corruptRTree`.
    @inline(__always) func child(ofCell cell: Int, parentLevel: Int32) throws -> Int {
        let h = childHandle[cell]
        if h >= 0 { return Int(h) }
        let loaded = try load(nodeno: childNode[cell], level: parentLevel - 1)
        childHandle[cell] = Int32(loaded)
        return loaded
    }

    private func load(nodeno: Int64, level known: Int32?) throws -> Int {
        let s = try db.cached("SELECT data FROM \"\(table)_node\" WHERE nodeno = ?")
        s.bind(nodeno, at: 1)
        defer { s.reset() }
        guard try s.step() else {
            throw StoreError.corruptRTree(table: table, node: nodeno, problem: "is missing")
        }
        var fids: [Int64] = []
        let nodeLevel: Int32 = try s.withBlob(0) { b in
            guard b.count >= 4 else { throw StoreError.corruptRTree(table: table, node: nodeno, problem: "is too short") }
            func u16(_ o: Int) -> Int { Int(b[o]) << 8 | Int(b[o + 1]) }
            func u32(_ o: Int) -> UInt32 {
                UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
            }
            // Only the root holds the depth (SQLite's R-tree format); children are one level down.
            let nodeLevel = known ?? Int32(u16(0))
            let n = u16(2)
            guard 4 + n * 24 <= b.count else { throw StoreError.corruptRTree(table: table, node: nodeno, problem: "is corrupt") }
            if nodeLevel > 0 {
                node.append(NodeInfo(first: Int32(childNode.count), count: Int32(n), level: nodeLevel, allOpen: true))
            }
            for c in 0..<n {
                let o = 4 + c * 24
                let id = Int64(bitPattern: UInt64(u32(o)) << 32 | UInt64(u32(o + 4)))
                if nodeLevel > 0 {
                    childNode.append(id)
                    childHandle.append(-1)
                    let minX = Float(bitPattern: u32(o + 8)), maxX = Float(bitPattern: u32(o + 12))
                    let minY = Float(bitPattern: u32(o + 16)), maxY = Float(bitPattern: u32(o + 20))
                    box.append(contentsOf: [minX, maxX, minY, maxY])
                    let patch = Earth.shell(minLon: Double(minX), maxLon: Double(maxX), minLat: Double(minY), maxLat: Double(maxY))
                    for (j, v) in patch.enumerated() { shell.append(j % 2 == 0 ? Earth.floatDown(v) : Earth.floatUp(v)) }
                } else {
                    fids.append(id)
                }
            }
            return nodeLevel
        }
        if nodeLevel == 0 { try appendLeaf(fids) }
        return node.count - 1
    }

    /// Appends a leaf with the entries of `fids` that are in `stations` (exact points, open flags).
    private func appendLeaf(_ fids: [Int64]) throws {
        let s = try db.cached("SELECT lon, lat, open FROM stations WHERE fid = ?")
        let start = entry.count
        var everyOpen = true
        for fid in fids {
            s.bind(fid, at: 1)
            defer { s.reset() }
            guard try s.step() else { continue }   // not in the table: nothing to answer
            let lon = s.double(0), lat = s.double(1), isOpen = s.int64(2) != 0
            let p = Earth.point(lat: lat, lon: lon)
            entry.append(Entry(lat: lat, lon: lon, fid: fid))
            xyz.append(Float(p.x)); xyz.append(Float(p.y)); xyz.append(Float(p.z))
            open.append(isOpen)
            everyOpen = everyOpen && isOpen
        }
        node.append(NodeInfo(first: Int32(start), count: Int32(entry.count - start), level: 0, allOpen: everyOpen))
    }
}
