import EkiSQLite

/// The `source_records` table: every row as its source gave it, per dataset in import order
/// (`ord`). Entries are derived from these rows by every import.
struct SourceRows {
    let db: Database

    /// Replaces the stored rows of `dataset` with `records` (their order kept in `ord`).
    func replace(_ records: [SourceRecord], dataset: String) throws {
        try db.prepare("DELETE FROM source_records WHERE dataset = ?").run([.text(dataset)])
        let insert = try db.prepare("""
            INSERT INTO source_records (dataset, ord, source_id, name, reading, latin_name, operator, operator_ref,
                                        class, lines, lon, lat, prefecture, closed, line_order, line_color)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        for (i, r) in records.enumerated() {
            insert.bind(dataset, at: 1); insert.bind(Int64(i), at: 2); insert.bind(r.source.id, at: 3)
            insert.bind(r.name, at: 4); insert.bind(r.reading, at: 5); insert.bind(r.latinName, at: 6)
            insert.bind(r.operatorName, at: 7); insert.bind(r.operatorRef, at: 8)
            insert.bind(r.serviceClass.rawValue, at: 9); insert.bind(JSONText.encodeStrings(r.lines), at: 10)
            insert.bind(r.coordinate.lon, at: 11); insert.bind(r.coordinate.lat, at: 12)
            insert.bind(r.prefecture, at: 13); insert.bind(Int64(r.isClosed ? 1 : 0), at: 14)
            if let o = r.lineOrder { insert.bind(Int64(o), at: 15) } else { insert.bind(nil as String?, at: 15) }; insert.bind(r.lineColor, at: 16)
            try insert.runBound()
        }
    }

    /// Every stored source row (of `dataset` when given), in import order.
    func read(dataset: String? = nil) throws -> [SourceRecord] {
        let s = try db.prepare("""
            SELECT dataset, source_id, name, reading, latin_name, operator, operator_ref, class, lines, lon, lat,
                   prefecture, closed, line_order, line_color FROM source_records \(dataset == nil ? "" : "WHERE dataset = ?1") ORDER BY dataset, ord
            """)
        if let dataset { try s.bind([.text(dataset)]) }
        var out: [SourceRecord] = []
        while try s.step() {
            out.append(SourceRecord(
                source: SourceRef(dataset: s.text(0), id: s.text(1)), name: s.text(2), reading: s.optionalText(3),
                latinName: s.optionalText(4), operatorName: s.optionalText(5), operatorRef: s.optionalText(6),
                serviceClass: ServiceClass(rawValue: s.text(7)) ?? .conventional, lines: JSONText.decodeStrings(s.text(8)),
                coordinate: Coordinate(lat: s.double(10), lon: s.double(9)), prefecture: s.optionalText(11),
                isClosed: s.int64(12) != 0, lineOrder: s.isNull(13) ? nil : Int(s.int64(13)), lineColor: s.optionalText(14)))
        }
        return out
    }

    /// Entries per dataset (entries holding at least one of its rows).
    func datasetCounts() throws -> [String: Int] {
        // In primary-key order an entry's rows of one dataset are adjacent: one pass, no sort.
        let s = try db.prepare("SELECT DISTINCT station_fid, dataset FROM station_sources")
        var out: [String: Int] = [:]
        while try s.step() { out[s.text(1), default: 0] += 1 }
        return out
    }
}
