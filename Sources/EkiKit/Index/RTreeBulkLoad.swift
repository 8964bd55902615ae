import EkiSQLite

/// Bulk (packed) build of an SQLite R*Tree virtual table: the tree is written straight into its
/// shadow tables (`<name>_node`, `<name>_parent`, `<name>_rowid`) instead of inserting row by
/// row, which costs a tree descent and often a split for every row.
///
/// Packing is Sort-Tile-Recursive (Leutenegger, Lopez, Edgington 1997): sort by x into √P
/// vertical slices, each slice by y, cut into full nodes; repeat one level up on the nodes'
/// boxes until one node (the root) is left. Nodes are filled to the module's capacity (51 cells
/// in 2 dimensions). The format is SQLite's (ext/rtree/rtree.c): every node is a blob of the
/// table's node size (the length of node 1); a 2-byte depth (root only: levels below it), a
/// 2-byte cell count, then cells of an 8-byte id and 2 × dimensions 4-byte floats, big-endian.
/// Leaf boxes are the row's values rounded outward to 32-bit floats exactly as rtree.c's
/// `rtreeValueDown`/`rtreeValueUp` do, so the leaves hold the same values a row-by-row insert
/// stores and every query gives the same rows; `rtreecheck()` accepts the result.
enum RTreeBulkLoad {
    /// One leaf entry: a row id and its box, already in 32-bit floats.
    struct Entry {
        var id: Int64
        var minX: Float, maxX: Float, minY: Float, maxY: Float
    }

    /// rtree.c's `rtreeValueDown`: the largest float ≤ d (what the R*Tree stores as a minimum).
    static func down(_ d: Double) -> Float {
        var f = Float(d)
        if Double(f) > d { f = Float(d * (d < 0 ? 1.0 + 1.0 / 8388608.0 : 1.0 - 1.0 / 8388608.0)) }
        return f
    }

    /// rtree.c's `rtreeValueUp`: the smallest float ≥ d (what the R*Tree stores as a maximum).
    static func up(_ d: Double) -> Float {
        var f = Float(d)
        if Double(f) < d { f = Float(d * (d < 0 ? 1.0 - 1.0 / 8388608.0 : 1.0 + 1.0 / 8388608.0)) }
        return f
    }

    /// The entry the R*Tree stores for a point.
    static func entry(id: Int64, x: Double, y: Double) -> Entry {
        Entry(id: id, minX: down(x), maxX: up(x), minY: down(y), maxY: up(y))
    }

    /// Replaces the contents of the 2-dimensional R*Tree `table` with a packed tree of `entries`.
    /// Call inside a transaction. The virtual table's own statements see the new tree at once
    /// (rtree.c reads nodes through the shadow tables, and its blob handle reopens when a row
    /// it points at changes).
    /// - Throws: `SQLiteError`.
    static func rebuild(_ db: Database, table: String, entries: [Entry]) throws {
        let nodeSize = Int(try db.scalarInt("SELECT length(data) FROM \"\(table)_node\" WHERE nodeno = 1") ?? 0)
        let cellSize = 8 + 4 * 4
        let capacity = (nodeSize - 4) / cellSize
        guard capacity >= 3 else {
            throw StoreError.unexpectedRTreeNode(table: table, size: Int(nodeSize))
        }
        try db.execute("DELETE FROM \"\(table)_node\"; DELETE FROM \"\(table)_parent\"; DELETE FROM \"\(table)_rowid\";")

        // Build levels bottom-up. A level is a list of (box, child) items; leaves' children are
        // row ids, upper levels' are node numbers.
        var items = entries
        var nextNode: Int64 = 2
        var level = 0
        var nodes: [(nodeno: Int64, level: Int, cells: ArraySlice<Entry>)] = []
        var rowidNode: [(rowid: Int64, node: Int64)] = []
        rowidNode.reserveCapacity(entries.count)
        var parents: [(node: Int64, parent: Int64)] = []
        while true {
            if items.count <= capacity {
                nodes.append((1, level, items[...]))
                if level == 0 { for e in items { rowidNode.append((e.id, 1)) } }
                else { for e in items { parents.append((e.id, 1)) } }
                break
            }
            let groups = strGroups(&items, capacity: capacity)
            var upper: [Entry] = []
            upper.reserveCapacity(groups.count)
            for g in groups {
                let cells = items[g]
                let n = nextNode
                nextNode += 1
                nodes.append((n, level, cells))
                if level == 0 { for e in cells { rowidNode.append((e.id, n)) } }
                else { for e in cells { parents.append((e.id, n)) } }
                var box = cells[cells.startIndex]
                for e in cells.dropFirst() {
                    box.minX = min(box.minX, e.minX); box.maxX = max(box.maxX, e.maxX)
                    box.minY = min(box.minY, e.minY); box.maxY = max(box.maxY, e.maxY)
                }
                box.id = n
                upper.append(box)
            }
            // Children must outlive `items`: keep this level's cells by copying the slices'
            // base into `nodes` (ArraySlice keeps its base array alive).
            items = upper
            level += 1
        }

        // Write the nodes in node-number order (the root, 1, first).
        nodes.sort { $0.nodeno < $1.nodeno }
        let insertNode = try db.prepare("INSERT INTO \"\(table)_node\" (nodeno, data) VALUES (?, ?)")
        var blob = [UInt8](repeating: 0, count: nodeSize)
        for node in nodes {
            for i in blob.indices { blob[i] = 0 }
            if node.nodeno == 1 { put16(&blob, 0, UInt16(level)) }
            put16(&blob, 2, UInt16(node.cells.count))
            var o = 4
            for e in node.cells {
                put64(&blob, o, UInt64(bitPattern: e.id))
                put32(&blob, o + 8, e.minX.bitPattern)
                put32(&blob, o + 12, e.maxX.bitPattern)
                put32(&blob, o + 16, e.minY.bitPattern)
                put32(&blob, o + 20, e.maxY.bitPattern)
                o += cellSize
            }
            insertNode.bind(node.nodeno, at: 1)
            blob.withUnsafeBytes { insertNode.bind(blob: $0, at: 2) }
            try insertNode.runBound()
        }
        let insertParent = try db.prepare("INSERT INTO \"\(table)_parent\" (nodeno, parentnode) VALUES (?, ?)")
        parents.sort { $0.node < $1.node }
        for p in parents {
            insertParent.bind(p.node, at: 1); insertParent.bind(p.parent, at: 2)
            try insertParent.runBound()
        }
        let insertRowid = try db.prepare("INSERT INTO \"\(table)_rowid\" (rowid, nodeno) VALUES (?, ?)")
        rowidNode.sort { $0.rowid < $1.rowid }
        for r in rowidNode {
            insertRowid.bind(r.rowid, at: 1); insertRowid.bind(r.node, at: 2)
            try insertRowid.runBound()
        }
    }

    /// Sort-Tile-Recursive grouping: reorders `items` and returns the index ranges of the nodes.
    static func strGroups(_ items: inout [Entry], capacity: Int) -> [Range<Int>] {
        let n = items.count
        let nodeCount = (n + capacity - 1) / capacity
        let slices = Int(Double(nodeCount).squareRoot().rounded(.up))
        let sliceSize = slices * capacity
        items.sort { cx($0) != cx($1) ? cx($0) < cx($1) : $0.id < $1.id }
        var groups: [Range<Int>] = []
        groups.reserveCapacity(nodeCount)
        var start = 0
        while start < n {
            let end = min(n, start + sliceSize)
            items[start..<end].sort { cy($0) != cy($1) ? cy($0) < cy($1) : $0.id < $1.id }
            var g = start
            while g < end {
                groups.append(g..<min(end, g + capacity))
                g += capacity
            }
            start = end
        }
        return groups
    }

    @inline(__always) static func cx(_ e: Entry) -> Double { (Double(e.minX) + Double(e.maxX)) / 2 }
    @inline(__always) static func cy(_ e: Entry) -> Double { (Double(e.minY) + Double(e.maxY)) / 2 }

    @inline(__always) static func put16(_ b: inout [UInt8], _ o: Int, _ v: UInt16) {
        b[o] = UInt8(v >> 8); b[o + 1] = UInt8(v & 0xFF)
    }
    @inline(__always) static func put32(_ b: inout [UInt8], _ o: Int, _ v: UInt32) {
        b[o] = UInt8(v >> 24); b[o + 1] = UInt8((v >> 16) & 0xFF); b[o + 2] = UInt8((v >> 8) & 0xFF); b[o + 3] = UInt8(v & 0xFF)
    }
    @inline(__always) static func put64(_ b: inout [UInt8], _ o: Int, _ v: UInt64) {
        put32(&b, o, UInt32(v >> 32)); put32(&b, o + 4, UInt32(v & 0xFFFF_FFFF))
    }
}
