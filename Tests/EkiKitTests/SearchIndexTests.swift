import Testing
import Foundation
@testable import EkiKit
import EkiImport
import EkiTestSupport

/// The search index's plans against brute force, and its upkeep across imports and versions.
@Suite(.serialized) struct SearchIndexTests {

    /// One `search_entry` row, with its sort key computed from its `stations` row.
    struct Row { var fid: Int64; var key: String; var sortKey: String; var sid: Int64; var open: Bool; var point: Coordinate; var forms: [SearchField: String] }

    /// 小田原 of 小田急電鉄 (dataset t, row 1): the one entry of the migration tests' files.
    static let odawara = SourceRecord(source: SourceRef(dataset: "t", id: "1"), name: "小田原", reading: "おだわら",
                                      operatorName: "小田急電鉄", serviceClass: .conventional, lines: ["小田原線"],
                                      coordinate: Coordinate(lat: 35.256, lon: 139.155))

    static func rows(_ store: StationStore) throws -> [Row] {
        let s = try store.db.prepare("""
            SELECT e.fid, s.key, s.name, s.reading, e.open, e.lon, e.lat, e.name_h, e.reading_h, e.romaji_h, e.line_h, e.operator_h, e.sid
            FROM search_entry e JOIN stations s ON s.fid = e.fid
            """)
        var out: [Row] = []
        var keys = SearchIndexBuilder(db: store.db, brands: [:])
        while try s.step() {
            out.append(Row(fid: s.int64(0), key: s.text(1), sortKey: keys.sortKey(key: s.text(1), name: s.text(2), reading: s.optionalText(3)),
                           sid: s.int64(12), open: s.int64(4) != 0,
                           point: Coordinate(lat: s.double(6), lon: s.double(5)),
                           forms: [.name: s.text(7), .reading: s.text(8), .romaji: s.text(9), .line: s.text(10), .operator: s.text(11)]))
        }
        return out
    }

    /// What `search` must return, computed over every row with the same match tests.
    static func bruteForce(_ query: String, _ o: SearchOptions, _ rows: [Row]) -> [String] {
        let q = SearchQuery(query, scope: o.by)
        let own = q.fields.filter { [.name, .reading, .romaji].contains($0.field) }
        let other = q.fields.filter { [.line, .operator].contains($0.field) }
        var ranks: [(SearchQuery.Tier, [SearchQuery.FieldQuery])] = []
        for tier in (o.match == .partial ? [SearchQuery.Tier.exact, .prefix, .partial] : [.exact, .prefix]) {
            for g in [own, other] where !g.isEmpty { ranks.append((tier, g)) }
        }
        var found: [(rank: Int, order: Double, sortKey: String, key: String)] = []
        for r in rows where (o.includeClosed || r.open) && (o.bbox?.contains(r.point) ?? true) {
            guard let rank = ranks.firstIndex(where: { tier, g in
                g.contains { SearchQuery.matches(tier, $0, framed: r.forms[$0.field] ?? "") } }) else { continue }
            found.append((rank, o.near.map { Geodesic.distance(valid: $0, r.point) } ?? 0, r.sortKey, r.key))
        }
        found.sort { $0.rank != $1.rank ? $0.rank < $1.rank : $0.order != $1.order ? $0.order < $1.order : SearchRun.before($0.sortKey, $1.sortKey) }
        return found.prefix(o.limit ?? Int.max).map(\.key)
    }

    @Test(.needsN02) func everyPlanEqualsBruteForce() throws {
        let store = RealData.open(RealData.n02Database)
        let rows = try Self.rows(store)
        var rng = SplitMix64(state: 2024)
        var queries = ["新", "線", "山", "東京", "前", "駅", "本線", "鉄道", "えき", "s", "a", "東", "京", "川"]
        for _ in 0..<60 {
            let r = rows[Int.random(in: 0..<rows.count, using: &rng)]
            let field: SearchField = [.name, .name, .line, .operator].randomElement(using: &rng)!
            let forms = (r.forms[field] ?? "").split(separator: "\u{1}")
            guard let form = forms.randomElement(using: &rng) else { continue }
            let chars = Array(form)
            let len = min(chars.count, Int.random(in: 1...4, using: &rng))
            let start = Int.random(in: 0...(chars.count - len), using: &rng)
            queries.append(String(chars[start..<(start + len)]))
        }
        let boxes = [nil, try BoundingBox(parsing: "139.60,35.55,139.90,35.80"), try BoundingBox(parsing: "135.0,34.0,136.0,35.0"),
                     try BoundingBox(parsing: "139.74,35.67,139.78,35.69")]
        for (i, q) in queries.enumerated() {
            var o = SearchOptions(by: SearchOptions.Scope.allCases.randomElement(using: &rng)!,
                                  match: SearchOptions.Match.allCases.randomElement(using: &rng)!,
                                  bbox: boxes.randomElement(using: &rng)!,
                                  limit: [nil, 1, 5, 20, 200].randomElement(using: &rng)!,
                                  includeClosed: Bool.random(using: &rng))
            if i % 3 == 0 {
                o.near = Coordinate(lat: Double.random(in: 33...36, using: &rng), lon: Double.random(in: 132...140, using: &rng))
            }
            let expected = Self.bruteForce(q, o, rows)
            // Default thresholds, then the scans forced (nearest first with `near`, the whole
            // box with `bbox`, in result order for one character), then postings only (and a
            // scan in result order that gives up at once).
            for caps in [SearchRun.Caps(), SearchRun.Caps(postings: 0, boxScan: 1_000_000, scanAbove: 0, scanBudget: 1_000_000),
                         SearchRun.Caps(postings: Int.max, boxScan: 0, scanAbove: 0, scanBudget: 1)] {
                let got = try store.search.stations(matching: q, options: o, caps: caps).map(\.station.key)
                #expect(got == expected, "query \(i) '\(q)' \(o) \(caps)")
            }
        }
    }

    @Test func importsKeepTheIndexInStep() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("upkeep.gpkg").path
        let store = try StationStore(path: path)
        func record(_ ds: String, _ id: String, _ name: String, _ line: String, lat: Double) -> SourceRecord {
            SourceRecord(source: SourceRef(dataset: ds, id: id), name: name, reading: nil, operatorName: "ブランド鉄道",
                         serviceClass: .conventional, lines: [line], coordinate: Coordinate(lat: lat, lon: 139))
        }
        try store.importRecords([record("a", "1", "甲駅前", "ブランド甲線", lat: 35)], dataset: "a")
        // One line: no brand yet, so 甲線 is no line prefix.
        #expect(try store.search.stations(matching: "甲線", options: SearchOptions(by: .line)).isEmpty)
        try store.importRecords([record("b", "1", "乙", "ブランド乙線", lat: 36)], dataset: "b")
        // Two lines sharing ブランド: the brand is dropped from both, including the earlier entry.
        #expect(try store.search.stations(matching: "甲線", options: SearchOptions(by: .line)).map(\.station.name) == ["甲駅前"])
        #expect(try store.search.stations(matching: "乙線", options: SearchOptions(by: .line)).map(\.station.name) == ["乙"])
        // Replacing a dataset replaces its search rows; unused terms go.
        try store.importRecords([record("b", "2", "丙", "ブランド乙線", lat: 36)], dataset: "b")
        #expect(try store.search.stations(matching: "乙", options: SearchOptions(by: .name)).isEmpty)
        let heiKey = try store.search.stations(matching: "丙").first?.station.key
        #expect(try store.search.stations(matching: "丙").map(\.station.name) == ["丙"])
        // The replaced entry is kept, retired and closed: found only with closed ones.
        #expect(try store.search.stations(matching: "乙", options: SearchOptions(by: .name, includeClosed: true)).map(\.station.name) == ["乙"])
        // A renamed station keeps its entry (same row, same key); its search row follows.
        try store.importRecords([record("b", "2", "丁", "ブランド乙線", lat: 36)], dataset: "b")
        // The old name is a former name now, searched as a name: it finds the renamed entry.
        #expect(try store.search.stations(matching: "丙").map(\.station.name) == ["丁"])
        #expect(try store.search.stations(matching: "丙").first?.station.formerNames == ["丙"])
        let renamed = try store.search.stations(matching: "丁").map(\.station.key)
        #expect(heiKey != nil && renamed == [heiKey!])
        try checkConsistency(store)
    }

    @Test func aFullGapRenumbersEveryEntry() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("gaps.gpkg").path
        let store = try StationStore(path: path)
        func record(_ ds: String, _ name: String, _ reading: String) -> SourceRecord {
            SourceRecord(source: SourceRef(dataset: ds, id: name), name: name, reading: reading, operatorName: "テスト",
                         serviceClass: .conventional, lines: ["本線"], coordinate: Coordinate(lat: 35, lon: 139))
        }
        try store.importRecords([record("a", "亜", "あ"), record("a", "運", "ん")], dataset: "a")
        // Squeeze the two sort ids together, as many imports into one spot would.
        try store.db.execute("""
            UPDATE search_entry SET sid = CASE WHEN sid = (SELECT min(sid) FROM search_entry) THEN 1 ELSE 2 END;
            UPDATE search_posting SET sid = (SELECT sid FROM search_entry e WHERE e.fid = search_posting.fid);
            """)
        try store.importRecords([record("b", "可", "か")], dataset: "b")
        #expect(try store.search.stations(matching: "本線", options: SearchOptions(by: .line, limit: nil)).map(\.station.name) == ["亜", "可", "運"])
        #expect(try store.db.scalarInt("SELECT min(sid) FROM search_entry")! > 2)
        try checkConsistency(store)
    }

    /// The bigram document, written as bytes, is the token of each gram in order, once each.
    @Test func bigramDocumentIsTheTokensOfTheGrams() {
        for form in ["", "a", "aa", "おだわら", "とうきょうとう", "ab\u{1F600}c", "s000015"] {
            let tokens = SearchIndex.grams(form).map { g in
                let u = Array(g.unicodeScalars)
                return SearchIndex.bigramToken(code: 3, u[0], u[1])
            }
            #expect(SearchIndex.bigramDocument(code: 3, form) == tokens.joined(separator: " "), "\(form)")
        }
        #expect(SearchIndex.bigramDocument(code: 0, "aba") == "0x61x62 0x62x61 0x61x1")
    }

    /// Entries imported later get sort ids between those of the indexed entries (no renumbering
    /// while gaps are free); deleting an entry deletes its postings through its forms, also forms
    /// holding the characters the trigger escapes (`"` and backslash).
    @Test func laterEntriesFitBetweenAndDeletedOnesLeaveNoPostings() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("between.gpkg").path
        let store = try StationStore(path: path)
        func record(_ ds: String, _ name: String, _ reading: String) -> SourceRecord {
            SourceRecord(source: SourceRef(dataset: ds, id: name), name: name, reading: reading, operatorName: "テスト",
                         serviceClass: .conventional, lines: ["本線"], coordinate: Coordinate(lat: 35, lon: 139))
        }
        func sids() throws -> [Int64] {
            let s = try store.db.prepare("SELECT sid FROM search_entry ORDER BY sid")
            var out: [Int64] = []
            while try s.step() { out.append(s.int64(0)) }
            return out
        }
        let odd = "伊\"\\x"
        try store.importRecords([record("a", "亜", "あ"), record("a", "運", "う")], dataset: "a")
        #expect(try sids() == [SearchIndex.sidSpacing, 2 * SearchIndex.sidSpacing])
        try store.importRecords([record("b", "可", "か"), record("b", odd, "い")], dataset: "b")
        // あ い う か: い halfway between あ and う, か one spacing after う; あ and う keep their ids.
        #expect(try sids() == [8, 12, 16, 24])
        #expect(try store.search.stations(matching: "本線", options: SearchOptions(by: .line, limit: nil)).map(\.station.name) == ["亜", odd, "運", "可"])
        #expect(try store.db.scalarInt("SELECT count(*) FROM search_entry WHERE instr(name_h, '\"') > 0 AND instr(name_h, '\\') > 0") == 1)
        #expect(try store.search.stations(matching: odd).map(\.station.name) == [odd])
        try checkConsistency(store)
        // Replacing dataset b without it retires 伊"\x (closed): its row and postings are written
        // again, the old postings deleted through its forms.
        try store.importRecords([record("b", "可", "か")], dataset: "b")
        #expect(try store.search.stations(matching: odd).isEmpty)
        #expect(try store.search.stations(matching: odd, options: SearchOptions(includeClosed: true)).map(\.station.name) == [odd])
        try checkConsistency(store)
        // Deleted without an import (its terms stay until the next one drops them).
        try store.db.execute("DELETE FROM stations WHERE name = '\(odd)'")
        #expect(try store.db.scalarInt("SELECT count(*) FROM search_entry") == 3)
        try checkPostings(store)
    }

    /// A version 6 file (postings with an index on fid, no deletion trigger) is rebuilt in the
    /// version 7 form when opened writable, and finds the same entries.
    @Test func version6DatabasesGetTheNewIndexWhenOpenedWritable() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("v6.gpkg").path
        do {
            let store = try StationStore(path: path)
            try store.importRecords([Self.odawara], dataset: "t")
            try store.db.execute("""
                DROP TRIGGER search_entry_gone; DROP INDEX search_entry_sid;
                ALTER TABLE search_entry ADD COLUMN sort_key TEXT; CREATE UNIQUE INDEX search_entry_sort ON search_entry(sort_key);
                CREATE INDEX search_posting_fid ON search_posting(fid);
                UPDATE eki_meta SET value = '6' WHERE name = 'schema_version';
                """)
        }
        #expect(throws: StoreError.self) { try StationStore(path: path, readOnly: true) }
        let writable = try StationStore(path: path)
        #expect(try writable.db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'schema_version'") == Int64(Schema.version))
        #expect(try writable.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name IN ('search_posting_fid', 'search_entry_sort')") == 0)
        #expect(try writable.search.stations(matching: "odawara").map(\.station.name) == ["小田原"])
        #expect(try writable.search.stations(matching: "小田原線", options: SearchOptions(by: .line)).map(\.station.name) == ["小田原"])
        try checkConsistency(writable)
    }

    @Test func version2DatabasesGetTheIndexWhenOpenedWritable() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("v2.gpkg").path
        do {
            let store = try StationStore(path: path)
            try store.importRecords([Self.odawara], dataset: "t")
            // Make it a version 2 file: no search tables.
            try store.db.execute("""
                DROP TRIGGER search_entry_stale; DROP TABLE search_fts; DROP TABLE search_bigram; DROP TABLE search_posting;
                DROP TABLE search_term; DROP TABLE search_entry; DROP TABLE search_brand;
                UPDATE eki_meta SET value = '2' WHERE name = 'schema_version';
                """)
        }
        #expect(throws: StoreError.self) { try StationStore(path: path, readOnly: true) }
        let writable = try StationStore(path: path)
        #expect(try writable.search.stations(matching: "odawara").map(\.station.name) == ["小田原"])
        #expect(try writable.db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'schema_version'") == Int64(Schema.version))
        try checkConsistency(writable)
        #expect(try StationStore(path: path, readOnly: true).search.stations(matching: "小田原").count == 1)
    }

    /// A version 5 file (grams in `search_gram`, `source_records` with a rowid) is upgraded
    /// when opened writable: its grams move into `search_bigram`, short partial queries find the
    /// same entries, and the rows are kept.
    @Test func version5DatabasesGetBigramsWhenOpenedWritable() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("v5.gpkg").path
        let rows = [Self.odawara,
                    SourceRecord(source: SourceRef(dataset: "t", id: "2"), name: "新松田", reading: "しんまつだ",
                                 operatorName: "小田急電鉄", serviceClass: .conventional, lines: ["小田原線"],
                                 coordinate: Coordinate(lat: 35.342, lon: 139.139))]
        do {
            let store = try StationStore(path: path)
            try store.importRecords(rows, dataset: "t")
            try store.db.execute("""
                DROP TABLE search_bigram;
                CREATE TABLE search_gram (field INTEGER NOT NULL, gram TEXT NOT NULL, term_id INTEGER NOT NULL,
                  PRIMARY KEY (field, gram, term_id)) WITHOUT ROWID;
                CREATE TABLE old_rows AS SELECT * FROM source_records;
                DROP TABLE source_records;
                CREATE TABLE source_records (dataset TEXT NOT NULL, ord INTEGER NOT NULL, source_id TEXT NOT NULL,
                  name TEXT NOT NULL, reading TEXT, latin_name TEXT, operator TEXT, operator_ref TEXT, class TEXT NOT NULL,
                  lines TEXT NOT NULL, lon REAL NOT NULL, lat REAL NOT NULL, prefecture TEXT, closed INTEGER NOT NULL,
                  line_order INTEGER, line_color TEXT, PRIMARY KEY (dataset, ord));
                INSERT INTO source_records SELECT * FROM old_rows; DROP TABLE old_rows;
                UPDATE eki_meta SET value = '5' WHERE name = 'schema_version';
                """)
        }
        #expect(throws: StoreError.self) { try StationStore(path: path, readOnly: true) }
        let writable = try StationStore(path: path)
        #expect(try writable.db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'schema_version'") == Int64(Schema.version))
        #expect(try writable.db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'search_gram'") == 0)
        #expect(try writable.db.scalarInt("SELECT wr FROM pragma_table_list WHERE name = 'source_records'") == 1)
        #expect(try writable.info.sourceRecords() == rows)
        // 1- and 2-character partial queries (松, 松田 inside 新松田; 田 in both names).
        #expect(try writable.search.stations(matching: "松", options: SearchOptions(by: .name, match: .partial, limit: nil)).map(\.station.name) == ["新松田"])
        #expect(try writable.search.stations(matching: "松田", options: SearchOptions(by: .name, match: .partial, limit: nil)).map(\.station.name) == ["新松田"])
        #expect(Set(try writable.search.stations(matching: "田", options: SearchOptions(by: .name, match: .partial, limit: nil)).map(\.station.name)) == ["小田原", "新松田"])
        try checkConsistency(writable)
    }

    @Test(.needsN02) func n02IndexIsConsistent() throws {
        let store = RealData.open(RealData.n02Database, writable: true)
        try checkConsistency(store)
    }

    /// N02-23 and station_database imported in one batch, 10,040 entries, take the bulk path
    /// (10,000 or more new entries; station_database alone gives 9,985 since its rows are
    /// reconciled).
    @Test(.needsN02AndStationDatabase) func stationDatabaseIndexIsConsistent() throws {
        let store = RealData.open(RealData.combinedDatabase, writable: true)
        #expect(try store.entries.count() >= 10_000)
        try checkConsistency(store)
    }

    /// Every entry has one search row, every term a posting, the FTS index matches its content.
    func checkConsistency(_ store: StationStore) throws {
        let db = store.db
        #expect(try db.scalarInt("SELECT count(*) FROM search_entry") == Int64(try store.entries.count()))
        #expect(try db.scalarInt("SELECT count(*) FROM search_term t WHERE NOT EXISTS (SELECT 1 FROM search_posting p WHERE p.term_id = t.id)") == 0)
        try db.execute("INSERT INTO search_fts (search_fts) VALUES ('integrity-check')")
        try db.execute("INSERT INTO search_bigram (search_bigram) VALUES ('integrity-check')")
        // Each term (the first 300) is found by the bigram index under each of its grams.
        let terms = try db.prepare("SELECT id, field, form FROM search_term ORDER BY id LIMIT 300")
        let found = try db.prepare("SELECT count(*) FROM search_bigram WHERE search_bigram MATCH ? AND rowid = ?")
        var missing: [String] = []
        while try terms.step() {
            for g in SearchIndex.grams(terms.text(2)) {
                try found.bind([.text(SearchIndex.bigramMatch(code: Int(terms.int64(1)), g)), .int(terms.int64(0))])
                if try !found.step() || found.int64(0) != 1 { missing.append(terms.text(2) + " " + g) }
                found.reset()
            }
        }
        #expect(missing.isEmpty)
        // Sort ids follow sort keys.
        let sids = try Self.rows(store).sorted { SearchRun.before($0.sortKey, $1.sortKey) }.map(\.sid)
        #expect(sids == sids.sorted())
        try checkPostings(store)
        // Every term of 3 or more characters is in the trigram index (shorter ones have no
        // trigram), and nothing else is.
        try db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_fts_rows USING fts5vocab(main, search_fts, instance)")
        #expect(try db.scalarInt("SELECT count(DISTINCT doc) FROM temp.search_fts_rows")
                == (try db.scalarInt("SELECT count(*) FROM search_term WHERE length(form) >= 3")))
        #expect(try db.scalarInt("""
            SELECT count(*) FROM (SELECT DISTINCT doc FROM temp.search_fts_rows) d
            WHERE NOT EXISTS (SELECT 1 FROM search_term t WHERE t.id = d.doc)
            """) == 0)
        try db.execute("DROP TABLE temp.search_fts_rows")
    }

    /// Each posting has its entry's sort id and open flag, no posting outlives its entry
    /// (deleted entries' postings go by trigger), and each entry has one posting per stored form.
    func checkPostings(_ store: StationStore) throws {
        let db = store.db
        #expect(try db.scalarInt("SELECT count(*) FROM search_posting p JOIN search_entry e ON e.fid = p.fid WHERE p.sid != e.sid OR p.open != e.open") == 0)
        #expect(try db.scalarInt("SELECT count(*) FROM search_posting p WHERE NOT EXISTS (SELECT 1 FROM search_entry e WHERE e.fid = p.fid)") == 0)
        let forms = try db.prepare("SELECT name_h, reading_h, romaji_h, line_h, operator_h FROM search_entry")
        var formCount: Int64 = 0
        while try forms.step() {
            for c in Int32(0)..<5 { formCount += Int64(forms.text(c).split(separator: "\u{1}").count) }
        }
        #expect(try db.scalarInt("SELECT count(*) FROM search_posting") == formCount)
    }
}
