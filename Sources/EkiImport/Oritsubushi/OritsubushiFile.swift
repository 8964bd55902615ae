import EkiKit
import EkiSQLite
import Foundation

/// The SQLite database of the 降りつぶし apps (i降りつぶし, 降りつぶしroid): the app's station table
/// and the person's records in one file. Tables read (the apps' public schema):
/// - `stations(s_id INTEGER PRIMARY KEY, station TEXT, yomi TEXT, wiki TEXT, pref INTEGER,
///   address TEXT, lat INTEGER, lng INTEGER, o_id INTEGER, enabled INTEGER, weight INTEGER)`,
///   lat/lng in millionths of a degree, names written with 駅 (`東京駅`);
/// - `operators(o_id, operator, type, enabled)`;
/// - `lines(l_id, line, o_id, enabled, l_type)`, `l_type` 1 = 新幹線;
/// - `stations_lines(l_id, s_id, s_sort)`;
/// - `completions(s_id INTEGER PRIMARY KEY, comp_date INTEGER, update_date INTEGER, memo TEXT)`,
///   `comp_date` 0 = not done, 1 = done on an unknown date, YYYY0000 a year, YYYYMM00 a
///   month, YYYYMMDD a day.
public struct OritsubushiFile: Sendable {
    /// One completed station of the file, with what its station row says.
    public struct Completion: Sendable, Equatable {
        public var stationID: Int64
        /// As the app writes it (`東京駅`).
        public var name: String
        public var reading: String?
        /// JIS X 0401 name (`東京都`), when the row's `pref` is 1…47.
        public var prefecture: String?
        /// Nil when the row has no point (lat and lng 0 or missing).
        public var coordinate: Coordinate?
        public var operatorName: String?
        /// The row's lines, by `s_sort` order of none: by line id.
        public var lines: [String]
        /// `.shinkansen` when every line of the row is 新幹線 (l_type 1), `.conventional` when
        /// none is, nil when the row has both or no lines.
        public var serviceClass: ServiceClass?
        public var date: VisitDate
        /// Nil when empty.
        public var memo: String?
    }

    /// Completions with `comp_date` ≠ 0, by station id.
    public private(set) var completions: [Completion] = []
    /// Rows of `completions` with `comp_date` 0 (listed by the app, not done).
    public private(set) var notDone = 0

    /// Reads `path` (opened read-only; never written).
    /// - Throws: `OritsubushiFileError` naming the file, and the table, `s_id` and field of a bad
    ///   value; `SQLiteError` for a file SQLite cannot read.
    public init(path: String) throws {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw OritsubushiFileError(file: path, message: "cannot read the file")
        }
        let db: Database
        do { db = try Database(path: path, readOnly: true, create: false) }
        catch { throw OritsubushiFileError(file: path, message: "not an SQLite database (\(error))") }
        let tables = try Self.tables(db, path: path)
        for t in ["stations", "completions"] where !tables.contains(t) {
            throw OritsubushiFileError(file: path, message: "no '\(t)' table: not a 降りつぶし database")
        }
        let hasOperators = tables.contains("operators"), hasLines = tables.contains("lines") && tables.contains("stations_lines")
        var lines: [Int64: [(name: String, shinkansen: Bool)]] = [:]
        if hasLines {
            let s = try db.prepare("""
                SELECT sl.s_id, l.line, l.l_type FROM stations_lines sl JOIN lines l ON l.l_id = sl.l_id
                ORDER BY sl.s_id, sl.s_sort, sl.l_id
                """)
            while try s.step() { lines[s.int64(0), default: []].append((s.text(1), s.int64(2) == 1)) }
        }
        let s = try db.prepare("""
            SELECT c.s_id, c.comp_date, c.memo, s.s_id IS NOT NULL, s.station, s.yomi, s.pref, s.lat, s.lng,
                   \(hasOperators ? "o.operator" : "NULL")
            FROM completions c LEFT JOIN stations s ON s.s_id = c.s_id
            \(hasOperators ? "LEFT JOIN operators o ON o.o_id = s.o_id" : "")
            ORDER BY c.s_id
            """)
        while try s.step() {
            let id = s.int64(0), comp = s.int64(1)
            if comp == 0 { notDone += 1; continue }
            let fail = { (field: String, m: String) in
                OritsubushiFileError(file: path, message: "completions s_id \(id): \(field): \(m)")
            }
            guard s.int64(3) == 1 else { throw fail("s_id", "no station row with this s_id") }
            guard let date = Self.date(comp) else { throw fail("comp_date", "\(comp) is not 1, YYYY0000, YYYYMM00 or YYYYMMDD") }
            let lat = s.int64(7), lng = s.int64(8)
            var point: Coordinate? = nil
            if !(lat == 0 && lng == 0), !s.isNull(7), !s.isNull(8) {
                let c = Coordinate(lat: Double(lat) / 1e6, lon: Double(lng) / 1e6)
                guard c.isValid else { throw fail("lat, lng", "\(lat), \(lng) is not a point (millionths of a degree)") }
                point = c
            }
            let name = s.text(4).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw fail("station", "the station row has no name") }
            let rowLines = lines[id] ?? []
            let shinkansen = rowLines.filter(\.shinkansen).count
            completions.append(Completion(
                stationID: id, name: name, reading: s.optionalText(5).flatMap { $0.isEmpty ? nil : $0 },
                prefecture: s.isNull(6) ? nil : Prefecture.name(code: String(s.int64(6))),
                coordinate: point, operatorName: s.optionalText(9).flatMap { $0.isEmpty ? nil : $0 },
                lines: rowLines.map(\.name),
                serviceClass: rowLines.isEmpty ? nil : shinkansen == rowLines.count ? .shinkansen : shinkansen == 0 ? .conventional : nil,
                date: date, memo: s.optionalText(2).flatMap { $0.isEmpty ? nil : $0 }))
        }
    }

    /// The visit date of a `comp_date` (1 unknown, YYYY0000, YYYYMM00, YYYYMMDD); nil when it is
    /// none of these or names no real date.
    public static func date(_ comp: Int64) -> VisitDate? {
        if comp == 1 { return .unknown }
        guard (1_000_0000...9999_1231).contains(comp) else { return nil }
        let y = Int(comp / 10_000), m = Int(comp / 100 % 100), d = Int(comp % 100)
        if m == 0 { return d == 0 ? VisitDate(year: y) : nil }
        return d == 0 ? VisitDate(year: y, month: m) : VisitDate(year: y, month: m, day: d)
    }

    static func tables(_ db: Database, path: String) throws -> Set<String> {
        do {
            let s = try db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
            var out = Set<String>()
            while try s.step() { out.insert(s.text(0)) }
            return out
        } catch {
            throw OritsubushiFileError(file: path, message: "not an SQLite database (\(error))")
        }
    }
}

/// A 降りつぶし database that cannot be read: the file and what is wrong (table, `s_id`, field).
public struct OritsubushiFileError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var message: String
    public var description: String { "\(file): \(message)" }
}
