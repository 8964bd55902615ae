/// What one import did.
public struct ImportSummary: Sendable, Equatable {
    public var dataset: String
    /// Source rows read.
    public var records: Int
    /// Entries written for this dataset.
    public var entries: Int
    /// Entries of this dataset that a previous import had written and this one replaced.
    public var replaced: Int
}

extension StationStore {
    /// Replaces the entries of `dataset` with the entries `EntryRule` makes of `records`, in one
    /// transaction: on any error the database is left exactly as it was. Entries of other
    /// datasets are not touched; a key already taken by another dataset's entry gets `@` and
    /// the geohash of the new entry's point.
    /// - Throws: `SQLiteError` (the transaction is rolled back).
    @discardableResult
    public func importRecords(_ records: [SourceRecord], dataset: String,
                              rule: EntryRule = EntryRule()) throws -> ImportSummary {
        try importBatches([(dataset, records)], rule: rule)[0]
    }

    /// Imports several datasets in one transaction (see `importRecords`): all of them or none.
    /// The search index is brought up to date in the same transaction.
    public func importBatches(_ batches: [(dataset: String, records: [SourceRecord])],
                              rule: EntryRule = EntryRule()) throws -> [ImportSummary] {
        try db.transaction {
            let summaries = try batches.map { try apply($0.records, dataset: $0.dataset, rule: rule) }
            try updateSearchIndex()
            return summaries
        }
    }

    func apply(_ records: [SourceRecord], dataset: String, rule: EntryRule) throws -> ImportSummary {
        let entries = rule.entries(from: records)
        do {
            let replaced = try deleteEntries(ofDataset: dataset)
            let insert = try db.prepare("""
                INSERT INTO stations (geom, key, name, reading, latin_name, operator, operator_ref, class,
                                      lines, prefecture, open, lon, lat, sources)
                VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                """)
            let insertSource = try db.prepare(
                "INSERT OR IGNORE INTO station_sources (station_fid, dataset, source_id) VALUES (?,?,?)")
            let keyTaken = try db.prepare("SELECT 1 FROM stations WHERE key = ?")
            for var e in entries {
                try keyTaken.bind([.text(e.key)])
                if try keyTaken.step() {
                    e.key += "@" + Geohash.encode(e.coordinate, precision: 7)
                }
                keyTaken.reset()
                try insert.run([
                    .blob(GeoPackage.pointBlob(lon: e.coordinate.lon, lat: e.coordinate.lat)),
                    .text(e.key), .text(e.name), e.reading.map(SQLValue.text) ?? .null,
                    e.latinName.map(SQLValue.text) ?? .null, e.operatorName.map(SQLValue.text) ?? .null,
                    e.operatorRef.map(SQLValue.text) ?? .null, .text(e.serviceClass.rawValue),
                    .text(JSONText.encodeStrings(e.lines)), e.prefecture.map(SQLValue.text) ?? .null,
                    .int(e.isOpen ? 1 : 0), .double(e.coordinate.lon), .double(e.coordinate.lat),
                    .text(JSONText.encodeStrings(e.sources.map(\.description))),
                ])
                let fid = db.lastInsertRowID
                for ref in e.sources {
                    try insertSource.run([.int(fid), .text(ref.dataset), .text(ref.id)])
                }
            }
            try updateExtent()
            return ImportSummary(dataset: dataset, records: records.count, entries: entries.count,
                                 replaced: replaced)
        }
    }

    /// Deletes the entries whose sources all belong to `dataset`; returns how many.
    func deleteEntries(ofDataset dataset: String) throws -> Int {
        let before = try count()
        try db.prepare("""
            DELETE FROM stations WHERE fid IN (SELECT station_fid FROM station_sources WHERE dataset = ?1)
              AND NOT EXISTS (SELECT 1 FROM station_sources o WHERE o.station_fid = stations.fid AND o.dataset != ?1)
            """).run([.text(dataset)])
        return before - (try count())
    }

    /// Writes the extent of all entries into gpkg_contents (GeoPackage requirement 13, informative).
    func updateExtent() throws {
        try db.execute("""
            UPDATE gpkg_contents SET
              min_x = (SELECT min(lon) FROM stations), max_x = (SELECT max(lon) FROM stations),
              min_y = (SELECT min(lat) FROM stations), max_y = (SELECT max(lat) FROM stations),
              last_change = strftime('%Y-%m-%dT%H:%M:%fZ','now')
            WHERE table_name = 'stations'
            """)
    }
}
