import Foundation

/// The station database: one GeoPackage file (see `Schema`) holding the entries of every import.
///
/// Reading and writing go through one connection; not thread-safe.
public final class StationStore {
    public let db: Database
    /// How imports maintain the R-tree (see `SpatialIndexBuild`).
    public var spatialIndexBuild: SpatialIndexBuild = .automatic
    /// The R-tree's nodes and the points of its leaves, read on demand for the lean queries
    /// (see `StationStore+Lean.swift`); dropped when the file changes.
    var nodeCache: RTreeNodeCache?

    /// Opens the database at `path`, creating an empty GeoPackage when the file does not exist
    /// (unless `readOnly`).
    /// - Throws: `SQLiteError` when the file cannot be opened, or `StoreError.notAStationDatabase`
    ///   when it is an SQLite file without the station tables.
    public init(path: String, readOnly: Bool = false) throws {
        let exists = FileManager.default.fileExists(atPath: path)
        if readOnly && !exists { throw StoreError.missing(path) }
        db = try Database(path: path, readOnly: readOnly)
        try GeoPackage.registerFunctions(db)
        try db.execute("PRAGMA foreign_keys = ON")
        let hasStations = try db.scalarInt(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'stations'") ?? 0
        if hasStations == 0 {
            let tables = try db.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0
            guard tables == 0, !readOnly else { throw StoreError.notAStationDatabase(path) }
            try db.transaction { try db.execute(Schema.create) }
        }
        let version = try db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'schema_version'") ?? 0
        if version != Int64(Schema.version) { throw StoreError.schemaVersion(path, found: Int(version), expected: Schema.version) }
    }

    /// Number of entries (open and closed).
    public func count(includeClosed: Bool = true) throws -> Int {
        Int(try db.scalarInt(includeClosed ? "SELECT count(*) FROM stations"
                                           : "SELECT count(*) FROM stations WHERE open = 1") ?? 0)
    }

    // MARK: Reading entries

    static let columns = "s.key, s.name, s.reading, s.latin_name, s.operator, s.operator_ref, s.class, s.lines, s.prefecture, s.open, s.lon, s.lat, s.sources, s.former_names, s.retired"

    static func station(from s: Statement) -> Station {
        Station(key: s.text(0), name: s.text(1), reading: s.optionalText(2), latinName: s.optionalText(3),
                operatorName: s.optionalText(4), operatorRef: s.optionalText(5),
                serviceClass: ServiceClass(rawValue: s.text(6)) ?? .conventional,
                lines: JSONText.decodeStrings(s.text(7)), prefecture: s.optionalText(8),
                coordinate: Coordinate(lat: s.double(11), lon: s.double(10)),
                sources: JSONText.decodeStrings(s.text(12)).map { ref in
                    let parts = ref.split(separator: ":", maxSplits: 1)
                    return SourceRef(dataset: String(parts[0]), id: parts.count > 1 ? String(parts[1]) : "")
                },
                isOpen: s.int64(9) != 0,
                formerNames: JSONText.decodeStrings(s.text(13)), retired: s.optionalText(14))
    }

    /// Every entry, sorted by key.
    public func allStations(includeClosed: Bool = true) throws -> [Station] {
        let s = try db.prepare("SELECT \(Self.columns) FROM stations s \(includeClosed ? "" : "WHERE s.open = 1") ORDER BY s.key")
        var out: [Station] = []
        while try s.step() { out.append(Self.station(from: s)) }
        return out
    }

    /// The entry a key refers to now: the entry with that key, else the entry its alias chain
    /// (`station_aliases`: keys of entries merged into others) leads to, else nil.
    public func resolve(key: String) throws -> Station? {
        var k = key
        var seen = Set<String>()
        while seen.insert(k).inserted {
            if let s = try station(key: k) { return s }
            let a = try db.cached("SELECT new_key FROM station_aliases WHERE old_key = ?")
            try a.bind([.text(k)])
            guard try a.step() else { return nil }
            k = a.text(0)
        }
        return nil
    }

    /// The entry with `key`, or nil.
    public func station(key: String) throws -> Station? {
        let s = try db.cached("SELECT \(Self.columns) FROM stations s WHERE s.key = ?")
        try s.bind([.text(key)])
        return try s.step() ? Self.station(from: s) : nil
    }
}

/// Errors about the database file itself.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    case missing(String)
    case notAStationDatabase(String)
    case schemaVersion(String, found: Int, expected: Int)

    public var description: String {
        switch self {
        case .missing(let p): return "no station database at \(p) (build one with `eki import`)"
        case .notAStationDatabase(let p): return "\(p) is an SQLite file but not an EkiKit station database"
        case .schemaVersion(let p, let found, let expected):
            return "\(p) has schema version \(found), this eki reads \(expected): rebuild it with `eki import`"
        }
    }
}

/// Minimal JSON arrays of strings, as stored in the `lines` and `sources` columns. Strings
/// without `"`, `\\` or control characters (nearly all) are written and read directly, exactly as
/// JSONSerialization writes them (`["a","b"]`, no spaces, `/` unescaped); anything else goes
/// through JSONSerialization.
enum JSONText {
    static func encodeStrings(_ a: [String]) -> String {
        var out = "["
        for (i, s) in a.enumerated() {
            if s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                return slowEncode(a)
            }
            if i > 0 { out += "," }
            out += "\""
            out += s
            out += "\""
        }
        out += "]"
        return out
    }

    static func slowEncode(_ a: [String]) -> String {
        let data = try! JSONSerialization.data(withJSONObject: a, options: [.withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeStrings(_ s: String) -> [String] {
        var s = s
        return s.withUTF8 { decode($0) } ?? slowDecode(s)
    }

    /// Reads `["…","…"]` without escapes; nil for anything else.
    static func decode(_ b: UnsafeBufferPointer<UInt8>) -> [String]? {
        let quote = UInt8(ascii: "\""), n = b.count
        guard n >= 2, b[0] == UInt8(ascii: "["), b[n - 1] == UInt8(ascii: "]") else { return nil }
        if n == 2 { return [] }
        var out: [String] = []
        var i = 1
        while true {
            guard i < n, b[i] == quote else { return nil }
            let start = i + 1
            var j = start
            while j < n && b[j] != quote {
                if b[j] == UInt8(ascii: "\\") { return nil }
                j += 1
            }
            guard j < n - 1 else { return nil }
            out.append(String(decoding: UnsafeBufferPointer(rebasing: b[start..<j]), as: UTF8.self))
            i = j + 1
            if b[i] == UInt8(ascii: "]") { return i == n - 1 ? out : nil }
            guard b[i] == UInt8(ascii: ",") else { return nil }
            i += 1
        }
    }

    static func slowDecode(_ s: String) -> [String] {
        guard let data = s.data(using: .utf8),
              let a = try? JSONSerialization.jsonObject(with: data) as? [String] else { return [] }
        return a
    }
}
