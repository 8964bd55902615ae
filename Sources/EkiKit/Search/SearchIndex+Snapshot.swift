import EkiSQLite

/// What an offline copy of the station database needs to search as `stations(matching:)` does:
/// every entry's stored folded forms, in result order, and where the old keys of merged entries
/// went. (The map page's station snapshot, `/api/snapshot`, is made from these.)
extension SearchIndex {
    /// One entry's folded forms as the index stores them (`SearchFold`), without the framing.
    public struct EntryForms: Sendable, Equatable {
        /// `stations.fid`.
        public var fid: Int64
        /// The name, then its former names (`SearchFold.name`).
        public var name: [String]
        /// The readings (`SearchFold.reading`).
        public var reading: [String]
        /// The romanized forms (`SearchFold.romaji`).
        public var romaji: [String]
        /// The forms of its line names (`SearchIndex.lineForms`).
        public var line: [String]
    }

    /// Every entry's forms in result order (sort id: folded reading, else folded name, then key),
    /// open entries only unless `includeClosed`.
    /// - Throws: `SearchError.indexMissing` for a database without a search index, `SQLiteError`.
    public func entryForms(includeClosed: Bool = false) throws -> [EntryForms] {
        guard exists else { throw SearchError.indexMissing(db.path) }
        let s = try db.prepare(sql: """
            SELECT fid, name_h, reading_h, romaji_h, line_h FROM search_entry INDEXED BY search_entry_sid
            WHERE \(includeClosed) OR open = 1 ORDER BY sid
            """)
        func forms(_ framed: String) -> [String] {
            framed.unicodeScalars.split(separator: Self.separatorScalar).map { String(String.UnicodeScalarView($0)) }
        }
        var out: [EntryForms] = []
        while try s.step() {
            out.append(EntryForms(fid: s.int64(0), name: forms(s.text(1)), reading: forms(s.text(2)),
                                  romaji: forms(s.text(3)), line: forms(s.text(4))))
        }
        return out
    }

    private static var separatorScalar: Unicode.Scalar { "\u{1}" }
}

extension EntryCatalog {
    /// Every old key of a merged entry with the key of the entry its alias chain leads to now
    /// (as `resolve(key:)` follows it), sorted by old key; chains that lead to no entry are left
    /// out.
    /// - Throws: `SQLiteError`.
    public func aliases() throws -> [(old: String, current: String)] {
        let s = try db.prepare("SELECT old_key, new_key FROM station_aliases ORDER BY old_key")
        var next: [String: String] = [:]
        var order: [String] = []
        while try s.step() {
            next[s.text(0)] = s.text(1)
            order.append(s.text(0))
        }
        let live = try db.prepare("SELECT 1 FROM stations WHERE key = ?")
        func exists(_ key: String) throws -> Bool {
            try live.bind([.text(key)])
            defer { live.reset() }
            return try live.step()
        }
        var out: [(old: String, current: String)] = []
        for old in order {
            if try exists(old) { continue }
            var k = old
            var seen: Set<String> = [old]
            while let n = next[k], seen.insert(n).inserted {
                k = n
                if try exists(k) { out.append((old, k)); break }
            }
        }
        return out
    }
}
