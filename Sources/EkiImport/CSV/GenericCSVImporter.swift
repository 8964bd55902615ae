import EkiKit
import Foundation

/// Any CSV with a header row, mapped onto the fields id, name, lat, lon, operator, line,
/// reading, class (`--columns name=駅名,lat=緯度,...`; columns already named so need no map).
/// name, lat and lon are required. `line` may list several lines separated by `;`. `class` is
/// `shinkansen`/`s`/`新幹線` or `conventional`/`c`/`在来線` (empty = conventional). A missing
/// id becomes the row's line number; an id given on two rows with the same operator and line
/// is an error naming both lines.
/// Blank lines are skipped and counted (one warning).
///
/// A row without a usable position (empty, not a number, out of range, or the placeholder
/// (0, 0)) or without a name is refused, naming the option `--skip-invalid`; with it
/// (`skipInvalid`) such rows are skipped and counted in `ImportBatch.skipped`, the first few
/// with their file:line.
public struct GenericCSVImporter: StationImporter {
    /// The fields a column map can name.
    public static let fields = ["id", "name", "lat", "lon", "operator", "line", "reading", "class"]

    public let path: String
    public let encoding: TextEncoding?
    /// field → column name.
    public let columnMap: [String: String]
    /// Dataset name: `csv/<file name without extension>` unless given.
    public let dataset: String
    /// Skip rows without a usable position or name instead of refusing the file.
    public let skipInvalid: Bool
    /// The longest field accepted, in bytes (`--max-field-bytes`).
    public let maxFieldBytes: Int
    /// The longest line accepted, in bytes (`--max-line-bytes`).
    public var maxLineBytes = CSVLimits.defaultMaxLineBytes

    /// - Parameter maxFieldBytes: the longest field accepted; a longer one stops the import
    ///   with file:line:column, the limit and the flag that raises it.
    /// - Parameter columns: `field=COLUMN` pairs, comma-separated (e.g. `name=駅名,lat=緯度`).
    /// - Throws: `ImportOptionError` (a usage error) for a malformed pair or a field that is
    ///   not one of `fields`.
    public init(path: String, encoding: TextEncoding? = nil, columns: String? = nil,
                dataset: String? = nil, skipInvalid: Bool = false,
                maxFieldBytes: Int = CSVReader.defaultMaxFieldBytes) throws(ImportOptionError) {
        var map: [String: String] = [:]
        for pair in (columns ?? "").split(separator: ",") where !pair.isEmpty {
            let kv = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2, !kv[1].isEmpty else {
                throw ImportOptionError("--columns: '\(pair)' is not FIELD=COLUMN")
            }
            guard Self.fields.contains(kv[0]) else {
                throw ImportOptionError("--columns: unknown field '\(kv[0])' (fields: \(Self.fields.joined(separator: ", ")))")
            }
            map[kv[0]] = kv[1]
        }
        self.path = path
        self.encoding = encoding
        self.columnMap = map
        self.dataset = dataset ?? "csv/" + ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        self.skipInvalid = skipInvalid
        self.maxFieldBytes = maxFieldBytes
    }

    public func read() throws -> ImportBatch {
        var trace = PhaseTrace()
        var table = try CSVInput.table(path: path, encoding: encoding, maxFieldBytes: maxFieldBytes, maxLineBytes: maxLineBytes)
        var col: [String: Int] = [:]
        for field in Self.fields {
            let name = columnMap[field] ?? field
            if let i = table.column(name) {
                col[field] = i
            } else if columnMap[field] != nil {
                throw ImportError(file: path, line: 1, field: name,
                                  message: "--columns maps \(field) to '\(name)', which is not in the header (\(table.header.joined(separator: ",")))")
            }
        }
        for required in ["name", "lat", "lon"] where col[required] == nil {
            throw ImportError(file: path, line: 1, field: required,
                              message: "no '\(required)' column; name it with --columns \(required)=COLUMN")
        }
        trace.mark("csv: encoding and header")
        let nameColumn = col["name"]!, latColumn = col["lat"]!, lonColumn = col["lon"]!
        let idColumn = col["id"], operatorColumn = col["operator"], lineColumn = col["line"]
        let readingColumn = col["reading"], classColumn = col["class"]
        var records: [SourceRecord] = []
        records.reserveCapacity(table.rowCountEstimate)
        // A station-code table repeats a station's id once per operator or line; the same id
        // with the same operator and line twice is a duplicate row (`DuplicateIDs`).
        var duplicates = DuplicateIDs()
        // Operators and lines repeat on many rows: each distinct value is built once and shared
        // by the rows (one string buffer, one array of lines), not copied per row.
        var shared = SharedValues()
        var skipped = SkippedRows()
        while let row = try table.nextRow() {
            // The row's place: name and position, or (with --skip-invalid) none.
            let name: String, coordinate: Coordinate
            do throws(ImportError) {
                guard let n = CSVInput.value(row.fields[nameColumn]) else {
                    throw row.error(column: nameColumn, "empty station name")
                }
                name = n
                coordinate = try CSVInput.coordinate(row, lat: latColumn, lon: lonColumn)
            } catch {
                if skipInvalid { skipped.add(error); continue }
                var e = error
                e.message += " (--skip-invalid skips rows without a usable position or name)"
                throw e
            }
            let operatorName = operatorColumn.flatMap { shared.operatorName(row.fields[$0]) }
            let lineField = lineColumn.map { row.fields[$0] } ?? ""
            let lines = shared.lines(lineField)
            let id = idColumn.flatMap { CSVInput.key(row.fields[$0]) }
            if let id, let i = idColumn {
                let index = records.count
                if let first = duplicates.add(id: id, operator: operatorName ?? "", lines: CSVInput.key(lineField) ?? "", line: row.line, index: index,
                                              same: { j in records[j].source.id == id && (records[j].operatorName ?? "") == (operatorName ?? "") && records[j].lines == lines }) {
                    throw row.error(column: i, "'\(id)' is on lines \(first) and \(row.line) with the same operator and line; ids must be unique")
                }
            }
            var serviceClass = ServiceClass.conventional
            if let i = classColumn, let v = CSVInput.value(row.fields[i]) {
                switch CSVInput.trimmed(v).lowercased() {
                case "shinkansen", "s", "新幹線", "1": serviceClass = .shinkansen
                case "conventional", "c", "在来線", "0": serviceClass = .conventional
                default: throw row.error(column: i, "'\(v)' is not a class (shinkansen or conventional)")
                }
            }
            records.append(SourceRecord(
                source: SourceRef(dataset: dataset, id: id ?? "line\(row.line)"),
                name: name, reading: readingColumn.flatMap { CSVInput.value(row.fields[$0]) }.map(TextFold.hiragana),
                operatorName: operatorName, serviceClass: serviceClass,
                lines: lines, coordinate: coordinate))
        }
        trace.mark("csv: \(records.count) rows read")
        return ImportBatch(dataset: dataset, records: records, warnings: CSVInput.blankLineWarnings(table),
                           skipped: skipped)
    }
}

/// Finds an (id, operator, line) given twice. Each row leaves a hash of the three values and
/// its line and index (no copy of the values): a million rows cost a table of hashes, not a
/// million joined strings. A row whose hash an earlier row had is compared with that row by
/// value (`same`); the rare row of an equal hash and other values is kept by value.
struct DuplicateIDs {
    private struct Key: Hashable { var id: String; var op: String; var lines: String }
    /// Hash → line (high 32 bits) and record index (low 32 bits) of the first row with it.
    private var first: [Int: UInt64] = [:]
    /// Rows whose hash an earlier row of other values had: key → line.
    private var collided: [Key: Int] = [:]

    /// Records row `index` (at `line`); the line of an earlier row with the same id, operator
    /// and lines, if any. `same(j)` tells whether record j has this row's values.
    mutating func add(id: String, operator op: String, lines: String, line: Int, index: Int,
                      same: (Int) -> Bool) -> Int? {
        let key = Key(id: id, op: op, lines: lines)
        let h = key.hashValue
        guard let earlier = first[h] else {
            first[h] = UInt64(UInt32(truncatingIfNeeded: line)) << 32 | UInt64(UInt32(truncatingIfNeeded: index))
            return nil
        }
        if same(Int(earlier & 0xFFFF_FFFF)) { return Int(earlier >> 32) }
        if let l = collided[key] { return l }
        collided[key] = line
        return nil
    }
}

/// Values many rows repeat (operator names, line lists), built once per distinct field text
/// and shared: a copied Swift string or array shares its buffer, so a million rows on 600 lines
/// hold 600 arrays, not a million. At most `limit` distinct values are remembered (a column
/// of distinct values is built row by row as before).
struct SharedValues {
    static let limit = 65_536
    private var operators: [String: String?] = [:]
    private var lineLists: [String: [String]] = [:]

    /// `CSVInput.key(field)`.
    mutating func operatorName(_ field: String) -> String? {
        if let v = operators[field] { return v }
        let v = CSVInput.key(field)
        if operators.count < Self.limit { operators[field] = v }
        return v
    }

    /// The lines of a `line` field: split at `;`, trimmed, empty parts dropped.
    mutating func lines(_ field: String) -> [String] {
        if let v = lineLists[field] { return v }
        let v = (CSVInput.value(field) ?? "").split(separator: ";").map { CSVInput.trimmed(String($0)) }.filter { !$0.isEmpty }
        if lineLists.count < Self.limit { lineLists[field] = v }
        return v
    }
}
