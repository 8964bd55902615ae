import EkiSQLite

/// Keeping the search index's folded forms in step with `TextFold.foldVersion`.
extension SearchIndex {
    /// The fold version the search index of this database was built with (`eki_meta`
    /// `search_fold`); nil for a database written before the version was recorded (built with
    /// fold version 1: no 丁目 numerals or variant kanji in search).
    /// - Throws: `SQLiteError`.
    public func foldVersion() throws -> Int? {
        try db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'search_fold'").map { Int($0) }
    }

    /// Rebuilds the search index from `stations` when it was built with another fold version
    /// than `TextFold.foldVersion` (or none recorded), and records the current version. Called
    /// by every writable open (`StationStore.init` with `readOnly: false`: imports, `visit add`),
    /// so an existing database is brought up to date by the next command that may write; a
    /// read-only command on a stale database still answers, with the folds it was built with,
    /// until then. An empty database only records the version.
    /// - Throws: `StoreError.writerBusy` when another import holds the write lock; `SQLiteError`.
    func refoldIfNeeded() throws {
        guard exists, try foldVersion() != TextFold.foldVersion else { return }
        try db.writeTransaction {
            if (try db.scalarInt("SELECT count(*) FROM search_entry") ?? 0) > 0 {
                // Every entry is indexed again with the current folds; terms no entry uses any
                // more (old forms) are dropped by `update()`.
                try clear()
                try update()
            }
            try db.prepare("INSERT OR REPLACE INTO eki_meta (name, value) VALUES ('search_fold', ?)")
                .run([.text(String(TextFold.foldVersion))])
        }
    }
}
