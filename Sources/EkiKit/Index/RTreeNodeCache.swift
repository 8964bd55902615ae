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
        let b = cell * 4
        let loaded = try load(nodeno: childNode[cell], level: parentLevel - 1, within: (box[b], box[b + 1], box[b + 2], box[b + 3]))
        childHandle[cell] = Int32(loaded)
        return loaded
    }

    /// A parent cell's box: minX, maxX, minY, maxY.
    typealias Box = (Float, Float, Float, Float)

    /// Reads node `nodeno` (`level` nil: the root, which holds the depth) and appends it. A
    /// node that does not fit where it was reached from is damage, not an answer: cells whose
    /// box is inverted or not a number, or outside `parent` (the box of the cell pointing at
    /// the node), a node other than the root without cells, a leaf entry whose row is not in
    /// `stations` or whose exact point is outside its box.
    private func load(nodeno: Int64, level known: Int32?, within parent: Box? = nil) throws -> Int {
        let s = try db.cached("SELECT data FROM \"\(table)_node\" WHERE nodeno = ?")
        s.bind(nodeno, at: 1)
        defer { s.reset() }
        guard try s.step() else { throw corrupt(nodeno, "is missing") }
        var leaf: [(fid: Int64, box: Box)] = []
        let nodeLevel: Int32 = try s.withBlob(0) { b in
            guard b.count >= 4 else { throw corrupt(nodeno, "is too short") }
            func u16(_ o: Int) -> Int { Int(b[o]) << 8 | Int(b[o + 1]) }
            func u32(_ o: Int) -> UInt32 {
                UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
            }
            // Only the root holds the depth (SQLite's R-tree format); children are one level down.
            let nodeLevel = known ?? Int32(u16(0))
            let n = u16(2)
            guard 4 + n * 24 <= b.count else { throw corrupt(nodeno, "holds more cells than fit in it") }
            guard n > 0 || known == nil else { throw corrupt(nodeno, "has no cells") }
            if nodeLevel > 0 {
                node.append(NodeInfo(first: Int32(childNode.count), count: Int32(n), level: nodeLevel, allOpen: true))
            }
            for c in 0..<n {
                let o = 4 + c * 24
                let id = Int64(bitPattern: UInt64(u32(o)) << 32 | UInt64(u32(o + 4)))
                let minX = Float(bitPattern: u32(o + 8)), maxX = Float(bitPattern: u32(o + 12))
                let minY = Float(bitPattern: u32(o + 16)), maxY = Float(bitPattern: u32(o + 20))
                // NaN fails every comparison, so it is caught here too.
                guard minX <= maxX, minY <= maxY else { throw corrupt(nodeno, "has cell \(c) with an inverted box") }
                if let p = parent, !(p.0 <= minX && maxX <= p.1 && p.2 <= minY && maxY <= p.3) {
                    throw corrupt(nodeno, "has cell \(c) outside its parent's box")
                }
                if nodeLevel > 0 {
                    childNode.append(id)
                    childHandle.append(-1)
                    box.append(contentsOf: [minX, maxX, minY, maxY])
                    let patch = Earth.shell(minLon: Double(minX), maxLon: Double(maxX), minLat: Double(minY), maxLat: Double(maxY))
                    for (j, v) in patch.enumerated() { shell.append(j % 2 == 0 ? Earth.floatDown(v) : Earth.floatUp(v)) }
                } else {
                    leaf.append((id, (minX, maxX, minY, maxY)))
                }
            }
            return nodeLevel
        }
        if nodeLevel == 0 { try appendLeaf(leaf, nodeno: nodeno) }
        return node.count - 1
    }

    /// Appends leaf `nodeno` with its entries' exact points and open flags from `stations`.
    /// The GeoPackage triggers keep the tree and the table in step, so an entry without a row,
    /// or a row whose point is outside the entry's box (rounded outward), is damage.
    private func appendLeaf(_ cells: [(fid: Int64, box: Box)], nodeno: Int64) throws {
        let s = try db.cached("SELECT lon, lat, open FROM stations WHERE fid = ?")
        let start = entry.count
        var everyOpen = true
        for (fid, b) in cells {
            s.bind(fid, at: 1)
            defer { s.reset() }
            guard try s.step() else { throw corrupt(nodeno, "names row \(fid), which stations does not have") }
            let lon = s.double(0), lat = s.double(1), isOpen = s.int64(2) != 0
            guard Double(b.0) <= lon, lon <= Double(b.1), Double(b.2) <= lat, lat <= Double(b.3) else {
                throw corrupt(nodeno, "puts row \(fid) where stations does not")
            }
            let p = Earth.point(lat: lat, lon: lon)
            entry.append(Entry(lat: lat, lon: lon, fid: fid))
            xyz.append(Float(p.x)); xyz.append(Float(p.y)); xyz.append(Float(p.z))
            open.append(isOpen)
            everyOpen = everyOpen && isOpen
        }
        node.append(NodeInfo(first: Int32(start), count: Int32(entry.count - start), level: 0, allOpen: everyOpen))
    }

    private func corrupt(_ nodeno: Int64, _ problem: String) -> StoreError {
        StoreError.corruptRTree(path: db.path, table: table, node: nodeno, problem: problem)
    }
}
