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
        var records: [SourceRecord] = []
        records.reserveCapacity(table.lineCountEstimate)
        // A station-code table repeats a station's id once per operator or line; the same id
        // with the same operator and line twice is a duplicate row.
        // Keyed by one string (id, operator, line joined by U+0001): short ones are stored inline,
        // where an array of three would cost a heap block per row (~150 MB at 1M rows).
        var idLines: [String: Int] = [:]
        var skipped = SkippedRows()
        while let row = try table.nextRow() {
            // The row's place: name and position, or (with --skip-invalid) none.
            let name: String, coordinate: Coordinate
            do throws(ImportError) {
                guard let n = CSVInput.value(row[col["name"]]) else {
                    throw row.error(column: col["name"]!, "empty station name")
                }
                name = n
                coordinate = try CSVInput.coordinate(row, lat: col["lat"]!, lon: col["lon"]!)
            } catch {
                if skipInvalid { skipped.add(error); continue }
                var e = error
                e.message += " (--skip-invalid skips rows without a usable position or name)"
                throw e
            }
            if let i = col["id"], let id = CSVInput.value(row.fields[i]) {
                let key = id + "\u{1}" + (CSVInput.value(row[col["operator"]]) ?? "") + "\u{1}" + (CSVInput.value(row[col["line"]]) ?? "")
                if let first = idLines[key] {
                    throw row.error(column: i, "'\(id)' is on lines \(first) and \(row.line) with the same operator and line; ids must be unique")
                }
                idLines[key] = row.line
            }
            var serviceClass = ServiceClass.conventional
            if let i = col["class"], let v = CSVInput.value(row.fields[i]) {
                switch v.lowercased() {
                case "shinkansen", "s", "新幹線", "1": serviceClass = .shinkansen
                case "conventional", "c", "在来線", "0": serviceClass = .conventional
                default: throw row.error(column: i, "'\(v)' is not a class (shinkansen or conventional)")
                }
            }
            let lines = (CSVInput.value(row[col["line"]]) ?? "").split(separator: ";")
                .map { CSVInput.trimmed(String($0)) }.filter { !$0.isEmpty }
            records.append(SourceRecord(
                source: SourceRef(dataset: dataset, id: CSVInput.value(row[col["id"]]) ?? "line\(row.line)"),
                name: name, reading: CSVInput.value(row[col["reading"]]).map(TextFold.hiragana),
                operatorName: CSVInput.value(row[col["operator"]]), serviceClass: serviceClass,
                lines: lines, coordinate: coordinate))
        }
        return ImportBatch(dataset: dataset, records: records, warnings: CSVInput.blankLineWarnings(table),
                           skipped: skipped)
    }
}
