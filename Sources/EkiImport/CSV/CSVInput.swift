import EkiKit
import Foundation

/// Reading a CSV file into a `CSVTable`, with encoding detection and coordinate checks shared
/// by the CSV profiles.
enum CSVInput {
    /// Opens `path` (UTF-8 with or without BOM, or CP932; see `TextDecoding`) for reading row
    /// by row: the file is read in parts of 1 MiB (twice when the encoding is detected: once to
    /// decide it from the whole file, once to read), never whole.
    /// - Parameters:
    ///   - maxFieldBytes: the longest field accepted (`--max-field-bytes`).
    ///   - maxLineBytes: the longest record accepted (`--max-line-bytes`).
    /// - Throws: `ImportError` when the file cannot be read or decoded, has no header, or has a
    ///   field or line over its limit (naming file, line, field, the limit and its flag).
    static func table(path: String, encoding: TextEncoding?,
                      maxFieldBytes: Int = CSVReader.defaultMaxFieldBytes,
                      maxLineBytes: Int = CSVLimits.defaultMaxLineBytes) throws(ImportError) -> CSVTable {
        let limits = CSVLimits(maxFieldBytes: maxFieldBytes, maxLineBytes: maxLineBytes)
        let source = try CSVPartSource(path: path, encoding: encoding, limits: limits)
        return try CSVTable(source: source, maxFieldBytes: maxFieldBytes)
    }

    /// The whole file at `path` (for inputs that are not read row by row).
    /// - Throws: `ImportError` when the file cannot be read.
    static func readBytes(_ path: String) throws(ImportError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(file: path, message: "cannot read file")
        }
        return [UInt8](data)
    }

    /// The first `count` bytes of the file at `path` (all of a shorter file).
    /// - Throws: `ImportError` when the file cannot be read.
    static func readHead(_ path: String, count: Int) throws(ImportError) -> [UInt8] {
        guard let h = FileHandle(forReadingAtPath: path) else {
            throw ImportError(file: path, message: "cannot read file")
        }
        defer { try? h.close() }
        return [UInt8]((try? h.read(upToCount: count)) ?? Data())
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
        if trimmed(row.fields[lat]).isEmpty { throw row.error(column: lat, "empty: the row has no position") }
        if trimmed(row.fields[lon]).isEmpty { throw row.error(column: lon, "empty: the row has no position") }
        let la = try row.double(lat), lo = try row.double(lon)
        if PositionChecks.isPlaceholder(lat: la, lon: lo) { throw row.error(column: lat, PositionChecks.placeholderMessage) }
        guard (-90...90).contains(la) else { throw row.error(column: lat, "latitude \(la) is outside -90...90") }
        guard (-180...180).contains(lo) else { throw row.error(column: lon, "longitude \(lo) is outside -180...180") }
        return Coordinate(lat: la, lon: lo)
    }

    /// The row's station name and position; with `skipInvalid`, nil for a row without a usable
    /// name or position (empty, not a number, out of range, (0, 0)), counted in `skipped`.
    /// - Throws: `ImportError` naming line and column for such a row without `skipInvalid`;
    ///   the message names `--skip-invalid`.
    static func place(_ row: CSVRow, name: Int, lat: Int, lon: Int, skipInvalid: Bool,
                      skipped: inout SkippedRows) throws(ImportError) -> (name: String, coordinate: Coordinate)? {
        do throws(ImportError) {
            guard let n = value(row.fields[name]) else { throw row.error(column: name, "empty station name") }
            return (n, try coordinate(row, lat: lat, lon: lon))
        } catch {
            if skipInvalid { skipped.add(error); return nil }
            var e = error
            e.message += " (--skip-invalid skips rows without a usable position or name)"
            throw e
        }
    }

    /// `s` without surrounding whitespace; skips Foundation when there is none to trim.
    static func trimmed(_ s: String) -> String {
        guard let first = s.utf8.first, let last = s.utf8.last else { return s }
        let plain = { (b: UInt8) in b > 0x20 && b < 0x80 }
        return plain(first) && plain(last) ? s : s.trimmingCharacters(in: .whitespaces)
    }

    /// The field as written (spaces and tabs kept: `\tb ` stays `\tb `, `" B  "` stays ` B  `);
    /// nil for a field that is empty, blank or `NULL` (station_database writes `NULL` for
    /// missing values).
    static func value(_ s: String?) -> String? {
        guard let s else { return nil }
        let t = trimmed(s)
        return t.isEmpty || t == "NULL" ? nil : s
    }

    /// `value(s)` trimmed: for fields compared as keys (ids, classes, operator names), where
    /// ` OP1 ` is `OP1`.
    static func key(_ s: String?) -> String? { value(s).map(trimmed) }
}

/// A CSV file read part by part (`partSize` bytes at a time), each part holding whole records
/// decoded to UTF-8 without a BOM, within `CSVLimits` (`RecordSplitter`). With no encoding
/// given, the file is first read through once to decide it (`EncodingDetector`: from the whole
/// file, as `TextDecoding.decode` decides for bytes in memory).
final class CSVPartSource {
    let file: String
    let encoding: TextEncoding
    let partSize: Int
    /// The file's size in bytes, when the system gives it.
    let fileSize: Int?
    private let stream: FileByteStream
    private var splitter: RecordSplitter
    private var atEnd = false
    private var first = true

    /// - Throws: `ImportError` when the file cannot be opened or read, its encoding cannot be
    ///   decided, or (while deciding) a field or line passes its limit.
    init(path: String, encoding: TextEncoding?, limits: CSVLimits, partSize: Int = 1 << 20) throws(ImportError) {
        file = path
        self.partSize = partSize
        fileSize = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        // The header's names, to name fields in limit errors (the first line decoded on its own).
        var names: [String]? = nil
        let head = try CSVInput.readHead(path, count: 1 << 16)
        let firstLine = Array(head.prefix { $0 != 0x0A && $0 != 0x0D })
        if let decoded = try? TextDecoding.decode(firstLine, file: path, encoding: encoding) {
            var r = CSVReader(bytes: decoded.bytes, file: path)
            names = (try? r.nextRecord())?.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if let encoding {
            self.encoding = encoding
        } else {
            var detector = EncodingDetector(file: path)
            var splitter = RecordSplitter(file: path, limits: limits)
            splitter.header = names
            let stream = try FileByteStream(path: path)
            var end = false
            while !end {
                let data = try stream.read(upTo: partSize)
                let part: [UInt8]
                if data.isEmpty { part = splitter.finish(); end = true } else { part = try splitter.add(data) }
                if part.isEmpty { continue }
                try detector.add(part, firstLine: splitter.line)
                splitter.partDone()
            }
            self.encoding = try detector.decide()
        }
        stream = try FileByteStream(path: path)
        splitter = RecordSplitter(file: path, limits: limits)
        splitter.header = names
    }

    /// The header's column names, for naming fields in limit errors.
    var header: [String]? {
        get { splitter.header }
        set { splitter.header = newValue }
    }

    /// The next part, decoded; nil at the end of the file.
    /// - Throws: `ImportError` for a read error, a field or line over its limit, or bytes that
    ///   do not decode (naming the line).
    func next() throws(ImportError) -> [UInt8]? {
        while !atEnd {
            let data = try stream.read(upTo: partSize)
            let part: [UInt8]
            if data.isEmpty { part = splitter.finish(); atEnd = true } else { part = try splitter.add(data) }
            if part.isEmpty { continue }
            let line = splitter.line
            splitter.partDone()
            return try decode(part, firstLine: line)
        }
        return nil
    }

    private func decode(_ part: [UInt8], firstLine: Int) throws(ImportError) -> [UInt8] {
        var body = part
        if first {
            first = false
            if body.count >= 2, (body[0] == 0xFF && body[1] == 0xFE) || (body[0] == 0xFE && body[1] == 0xFF) {
                throw ImportError(file: file, line: 1, message: "file is UTF-16; convert it to UTF-8 (or CP932)")
            }
            if body.starts(with: [0xEF, 0xBB, 0xBF]) {
                if encoding == .cp932 { throw TextDecoding.bomContradicts(file: file) }
                body.removeFirst(3)
            }
        }
        switch encoding {
        case .utf8:
            if let bad = TextDecoding.firstInvalidUTF8(body) {
                throw ImportError(file: file, line: firstLine + TextDecoding.lineNumber(body, at: bad) - 1,
                                  message: "invalid UTF-8 byte 0x\(String(body[bad], radix: 16, uppercase: true)); use --encoding cp932 if the file is Shift_JIS")
            }
            return body
        case .cp932:
            do {
                return try TextDecoding.cp932ToUTF8(body, file: file)
            } catch {
                var e = error
                e.line = (e.line ?? 1) + firstLine - 1
                throw e
            }
        }
    }
}
