import EkiSQLite

/// The columns of the `stations` feature table as the store reads and writes them, declared
/// once: the SELECT list, the decoding into a `Station`, the INSERT and UPDATE statements and
/// their binding, and the table of a new file, all come from `columns`. Adding a column to the
/// entries is one declaration here (plus the frozen migration step that adds it to older files).
///
/// `fid` (the row id) is not among them: statements that need it select or bind it themselves.
package enum StationColumns {
    /// One column: its name and type in `stations` (nil: not a column of the table), the
    /// expression selected for it (from `stations s`), how its value goes into a `Station`, and
    /// how a `Station` (with its base key) binds the value written at a parameter (nil: not written).
    package struct Column: Sendable {
        let name: String
        let definition: String?
        let select: String
        let decode: @Sendable (Statement, Int32, inout Station) -> Void
        let encode: (@Sendable (Statement, Int32, Station, _ baseKey: String) -> Void)?

        init(_ name: String, _ definition: String?, select: String? = nil,
             decode: @escaping @Sendable (Statement, Int32, inout Station) -> Void,
             encode: (@Sendable (Statement, Int32, Station, _ baseKey: String) -> Void)?) {
            self.name = name
            self.definition = definition
            self.select = select ?? "s.\(name)"
            self.decode = decode
            self.encode = encode
        }
    }

    /// Every column read or written for an entry. `geom` is written (the GeoPackage point
    /// blob) but read back through `lon` and `lat`; the entry's sources are read from
    /// `station_sources` (a range of its B-tree) as a JSON array of `dataset:id`; `base_key` is
    /// NULL when it equals the key and `kind` NULL for a regular stop (schema version 8).
    package static let columns: [Column] = [
        Column("geom", "POINT", select: "NULL", decode: { _, _, _ in },
               encode: { st, i, s, _ in GeoPackage.pointBlob(lon: s.coordinate.lon, lat: s.coordinate.lat).withUnsafeBytes { st.bind(blob: $0, at: i) } }),
        Column("key", "TEXT NOT NULL UNIQUE", decode: { r, i, s in s.key = r.text(i) }, encode: { st, i, s, _ in st.bind(s.key, at: i) }),
        Column("base_key", "TEXT", select: "NULL", decode: { _, _, _ in }, encode: { st, i, s, base in st.bind(base == s.key ? nil : base, at: i) }),
        Column("name", "TEXT NOT NULL", decode: { r, i, s in s.name = r.text(i) }, encode: { st, i, s, _ in st.bind(s.name, at: i) }),
        Column("reading", "TEXT", decode: { r, i, s in s.reading = r.optionalText(i) }, encode: { st, i, s, _ in st.bind(s.reading, at: i) }),
        Column("latin_name", "TEXT", decode: { r, i, s in s.latinName = r.optionalText(i) }, encode: { st, i, s, _ in st.bind(s.latinName, at: i) }),
        Column("operator", "TEXT", decode: { r, i, s in s.operatorName = r.optionalText(i) }, encode: { st, i, s, _ in st.bind(s.operatorName, at: i) }),
        Column("operator_ref", "TEXT", decode: { r, i, s in s.operatorRef = r.optionalText(i) }, encode: { st, i, s, _ in st.bind(s.operatorRef, at: i) }),
        Column("operator_id", "TEXT NOT NULL", decode: { r, i, s in s.operatorID = r.text(i) }, encode: { st, i, s, _ in st.bind(s.operatorID, at: i) }),
        Column("class", "TEXT NOT NULL CHECK (class IN ('shinkansen', 'conventional'))", decode: { r, i, s in s.serviceClass = ServiceClass(rawValue: r.text(i)) ?? .conventional },
               encode: { st, i, s, _ in st.bind(s.serviceClass.rawValue, at: i) }),
        Column("lines", "TEXT NOT NULL", decode: { r, i, s in s.lines = JSONText.decodeStrings(r.text(i)) },
               encode: { st, i, s, _ in st.bind(JSONText.encodeStrings(s.lines), at: i) }),
        Column("prefecture", "TEXT", decode: { r, i, s in s.prefecture = r.optionalText(i) }, encode: { st, i, s, _ in st.bind(s.prefecture, at: i) }),
        Column("open", "INTEGER NOT NULL", decode: { r, i, s in s.isOpen = r.int64(i) != 0 }, encode: { st, i, s, _ in st.bind(Int64(s.isOpen ? 1 : 0), at: i) }),
        Column("lon", "REAL NOT NULL", decode: { r, i, s in s.coordinate.lon = r.double(i) }, encode: { st, i, s, _ in st.bind(s.coordinate.lon, at: i) }),
        Column("lat", "REAL NOT NULL", decode: { r, i, s in s.coordinate.lat = r.double(i) }, encode: { st, i, s, _ in st.bind(s.coordinate.lat, at: i) }),
        Column("former_names", "TEXT NOT NULL DEFAULT '[]'", decode: { r, i, s in s.formerNames = JSONText.decodeStrings(r.text(i)) },
               encode: { st, i, s, _ in st.bind(JSONText.encodeStrings(s.formerNames), at: i) }),
        Column("retired", "TEXT", decode: { r, i, s in s.retired = r.optionalText(i) }, encode: { st, i, s, _ in st.bind(s.retired, at: i) }),
        Column("kind", "TEXT CHECK (kind IN ('seasonal', 'staff-only'))", decode: { r, i, s in s.kind = r.isNull(i) ? .regular : StationKind(rawValue: r.text(i)) ?? .regular },
               encode: { st, i, s, _ in st.bind(s.kind == .regular ? nil : s.kind.rawValue, at: i) }),
        Column("sources", nil, select: "(SELECT json_group_array(src_.dataset || ':' || src_.source_id) FROM station_sources src_ WHERE src_.station_fid = s.fid)",
               decode: { r, i, s in
                   s.sources = JSONText.decodeStrings(r.text(i)).map { ref in
                       let parts = ref.split(separator: ":", maxSplits: 1)
                       return SourceRef(dataset: String(parts[0]), id: parts.count > 1 ? String(parts[1]) : "")
                   }.sorted()
               }, encode: nil),
    ]

    /// `CREATE TABLE name (…)`: `fid`, then every column with its definition, in declaration
    /// order (the feature table of a new file; migrations keep their own frozen copies).
    /// The TEXT columns of `stations` (what `StoreCheck` reads back as UTF-8).
    package static let textColumns = columns.filter { $0.definition?.hasPrefix("TEXT") == true }.map(\.name)

    package static func createTable(_ name: String) -> String {
        let columns = ["fid INTEGER PRIMARY KEY AUTOINCREMENT"] + columns.compactMap { c in c.definition.map { "\(c.name) \($0)" } }
        return "CREATE TABLE \(name) (\n  " + columns.joined(separator: ",\n  ") + ");\n"
    }

    /// The columns read back (those whose select is not NULL).
    private static let read = columns.filter { $0.select != "NULL" }
    private static let written = columns.filter { $0.encode != nil }

    /// The SELECT list for `stations s` that `decode` reads (`read.count` columns).
    package static let selectList = read.map(\.select).joined(separator: ", ")
    /// How many result columns `selectList` has.
    package static let count = Int32(read.count)

    /// The entry in the columns of `selectList`, starting at result column `offset`.
    package static func decode(_ row: Statement, offset: Int32 = 0) -> Station {
        var s = Station(key: "", name: "", reading: nil, latinName: nil, operatorName: nil, operatorRef: nil,
                        serviceClass: .conventional, lines: [], prefecture: nil, coordinate: Coordinate(lat: 0, lon: 0),
                        sources: [], isOpen: false)
        for (i, c) in read.enumerated() { c.decode(row, offset + Int32(i), &s) }
        return s
    }

    /// `INSERT INTO stations (…) VALUES (?, …)` over the written columns.
    package static let insertSQL = "INSERT INTO stations (\(written.map(\.name).joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: written.count).joined(separator: ",") + ")"
    /// `UPDATE stations SET … WHERE fid = ?`: the written columns, then the fid (`bindFid`).
    package static let updateSQL = "UPDATE stations SET " + written.map { "\($0.name) = ?" }.joined(separator: ", ") + " WHERE fid = ?"

    /// Binds the entry's values to `insertSQL` or `updateSQL` (with `baseKey`, the key the entry
    /// was first given before any place qualifier).
    package static func bind(_ s: Station, baseKey: String, to st: Statement) {
        for (i, c) in written.enumerated() { c.encode!(st, Int32(i + 1), s, baseKey) }
    }

    /// Binds the fid of `updateSQL`'s WHERE.
    package static func bindFid(_ fid: Int64, to st: Statement) {
        st.bind(fid, at: Int32(written.count + 1))
    }
}
