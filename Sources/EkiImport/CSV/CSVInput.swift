import EkiKit
import Foundation

/// Reading a CSV file into a `CSVTable`, with encoding detection and coordinate checks shared
/// by the CSV profiles.
enum CSVInput {
    /// Reads and decodes `path` (UTF-8 with or without BOM, or CP932; see `TextDecoding`).
    /// - Parameter maxFieldBytes: the longest field accepted (`--max-field-bytes`).
    /// - Throws: `ImportError` when the file cannot be read or decoded, or has no header.
    static func table(path: String, encoding: TextEncoding?,
                      maxFieldBytes: Int = CSVReader.defaultMaxFieldBytes) throws(ImportError) -> CSVTable {
        let bytes = try readBytes(path)
        let decoded = try TextDecoding.decode(bytes, file: path, encoding: encoding)
        return try CSVTable(bytes: decoded.bytes, file: path, maxFieldBytes: maxFieldBytes)
    }

    static func readBytes(_ path: String) throws(ImportError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(file: path, message: "cannot read file")
        }
        return [UInt8](data)
    }

    /// One warning counting the blank lines `table` skipped (none when there were none).
    static func blankLineWarnings(_ table: CSVTable) -> [ImportWarning] {
        guard let first = table.firstBlankLine else { return [] }
        let n = table.blankLines
        return [ImportWarning(file: table.file, line: first,
                              message: "\(n) blank line\(n == 1 ? "" : "s") skipped (the first here)")]
    }

    /// The column named `name`.
    /// - Throws: `ImportError` naming the missing column.
    static func require(_ table: CSVTable, _ name: String) throws(ImportError) -> Int {
        guard let i = table.column(name) else {
            throw ImportError(file: table.file, line: 1, field: name,
                              message: "required column '\(name)' is missing (header: \(table.header.joined(separator: ",")))")
        }
        return i
    }

    /// A WGS84 coordinate from two columns.
    /// - Throws: `ImportError` naming line and column for an empty, non-numeric or out-of-range
    ///   value, or for (0, 0) (`PositionChecks.placeholderMessage`).
    static func coordinate(_ row: CSVRow, lat: Int, lon: Int) throws(ImportError) -> Coordinate {
        for i in [lat, lon] where trimmed(row.fields[i]).isEmpty {
            throw row.error(column: i, "empty: the row has no position")
        }
        let la = try row.double(lat), lo = try row.double(lon)
        if PositionChecks.isPlaceholder(lat: la, lon: lo) { throw row.error(column: lat, PositionChecks.placeholderMessage) }
        guard (-90...90).contains(la) else { throw row.error(column: lat, "latitude \(la) is outside -90...90") }
        guard (-180...180).contains(lo) else { throw row.error(column: lon, "longitude \(lo) is outside -180...180") }
        return Coordinate(lat: la, lon: lo)
    }

    /// `s` without surrounding whitespace; skips Foundation when there is none to trim.
    static func trimmed(_ s: String) -> String {
        guard let first = s.utf8.first, let last = s.utf8.last else { return s }
        let plain = { (b: UInt8) in b > 0x20 && b < 0x80 }
        return plain(first) && plain(last) ? s : s.trimmingCharacters(in: .whitespaces)
    }

    /// nil for an empty or `NULL` field (station_database writes `NULL` for missing values).
    static func value(_ s: String?) -> String? {
        guard let s else { return nil }
        let t = trimmed(s)
        return t.isEmpty || t == "NULL" ? nil : t
    }
}
