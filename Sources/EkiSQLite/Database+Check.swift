/// SQLite's own consistency checks, and which table or index each page of the file belongs to.
extension Database {
    /// `PRAGMA integrity_check(maxErrors)`: every page, cell, freelist entry and index of the
    /// main database read back and compared (https://sqlite.org/pragma.html#pragma_integrity_check).
    /// Not a checksum: a changed byte inside a value (a letter of a name, a digit of a
    /// coordinate) that leaves the page well-formed passes.
    /// - Returns: the problems found, one message each (empty when SQLite says "ok"); at most
    ///   `maxErrors`, then SQLite's own error when it stopped after reporting them (it does on
    ///   a page it cannot parse: "database disk image is malformed").
    /// - Throws: `SQLiteError` when the check cannot run at all (the file's header or schema
    ///   cannot be read, a lock).
    public func integrityCheck(maxErrors: Int = 100) throws -> [String] {
        let s = try prepare("PRAGMA integrity_check(\(max(1, maxErrors)))")
        var out: [String] = []
        do {
            while try s.step() {
                for line in s.text(0).split(separator: "\n") where line != "ok" && line != "*** in database main ***" {
                    out.append(String(line))
                }
            }
        } catch let e as SQLiteError where !out.isEmpty {
            if out.last != e.message { out.append(e.message) }
        }
        return out
    }

    /// `rtreecheck(table)` on the R-tree virtual table `table`: each node's cells inside its
    /// parent's box, min ≤ max on every axis, and the `_rowid` and `_parent` tables in step with
    /// the nodes (https://sqlite.org/rtree.html#integrity_check_using_the_rtreecheck_sql_function).
    /// - Returns: the problems found, one message each (empty when it says "ok").
    /// - Throws: `SQLiteError` when the check cannot run (no such R-tree, a page it cannot read).
    public func rtreeCheck(_ table: String) throws -> [String] {
        let s = try prepare(sql: "SELECT rtreecheck(\(table))")
        guard try s.step() else { return [] }
        return s.text(0).split(separator: "\n").map(String.init).filter { $0 != "ok" }
    }

    /// The page numbers of the table or index `name` (every b-tree page of it, overflow pages
    /// included), from the `dbstat` virtual table (Debian's SQLite has it: SQLITE_ENABLE_DBSTAT_VTAB).
    /// - Throws: `SQLiteError` when `dbstat` is missing or cannot walk the tree (a damaged page
    ///   on the way).
    public func pages(of name: String) throws -> [Int64] {
        let s = try prepare(sql: "SELECT pageno FROM dbstat WHERE name = \(name)")
        var out: [Int64] = []
        while try s.step() { out.append(s.int64(0)) }
        return out
    }

    /// Every table and index of the schema with its root page and the table it belongs to
    /// (`sqlite_master`; virtual tables have no root and are left out). Page 1 is the schema's
    /// own root, `sqlite_schema`.
    /// - Throws: `SQLiteError` when the schema cannot be read.
    public func schemaTrees() throws -> [(name: String, table: String, rootPage: Int64)] {
        let s = try prepare("SELECT name, tbl_name, rootpage FROM sqlite_master WHERE type IN ('table', 'index') AND rootpage > 0 ORDER BY rootpage")
        var out: [(name: String, table: String, rootPage: Int64)] = [("sqlite_schema", "sqlite_schema", 1)]
        while try s.step() { out.append((s.text(0), s.text(1), s.int64(2))) }
        return out
    }
}
