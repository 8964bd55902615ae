import EkiKit
import Foundation

/// Namespace for the GTFS file types: one type per file (`stops.txt` → `GTFS.Stop`), each
/// declaring beside it the columns this importer needs.
enum GTFS {}

/// Reads one GTFS file row by row without holding more than one part of it (1 MiB plus the
/// record that crosses the part's end, at most `CSVLimits.maxLineBytes`) in memory:
/// stop_times.txt can be hundreds of megabytes. A field or line over the feed's `CSVLimits`
/// stops the read where the limit is passed (`RecordSplitter`).
///
/// Each part ends at a line feed outside quotes and is checked before it is parsed: GTFS files
/// must be UTF-8 (a BOM is allowed and skipped), so a UTF-16 BOM, a byte that is not UTF-8 or a
/// NUL byte is an `ImportError` naming the file, line, column and (after the header) field.
/// Rows come from `CSVTable` (quoted fields, CRLF/LF); rows with missing trailing fields, or
/// extra empty ones, are mended and counted (`finish(into:)`), other ragged rows refused.
struct FeedTableReader {
    /// Bytes read from the file at a time (1 MiB unless a test asks for less).
    let partSize: Int

    /// The file name used in errors (`feed.zip/stops.txt`).
    let file: String
    private let stream: FeedByteStream
    private var table: CSVTable
    private var splitter: RecordSplitter
    private var atEnd = false

    /// Opens `name` in `feed`, reads its header and checks that every column in `required`
    /// is present. `partSize` is the number of bytes read at a time.
    /// - Throws: `ImportError` when the file is missing, empty, badly encoded, has a CSV
    ///   syntax error in its first part, has no header row (its first line names none of
    ///   `required`), or lacks a required column (naming the column).
    init(feed: FeedSource, name: String, required: [String], partSize: Int = 1 << 20) throws(ImportError) {
        file = feed.displayName(name)
        self.partSize = partSize
        guard feed.contains(name) else {
            throw ImportError(file: file, message: "required file is missing from the feed")
        }
        stream = try feed.open(name)
        splitter = RecordSplitter(file: file, limits: feed.limits.csv)
        var first: [UInt8] = []
        var end = false
        while first.isEmpty && !end {
            let data = try stream.read(upTo: partSize)
            if data.isEmpty {
                first = splitter.finish()
                end = true
            } else {
                first = try splitter.add(data)
            }
        }
        try FeedTableReader.check(first, file: file, firstLine: 1, header: nil)
        if !required.isEmpty {
            // A file without its header row: its first line names none of the required
            // columns and holds a value no column is named like (`05:00:00`, `35.68`) or one
            // twice. Say so, rather than what its first row's values look like as names.
            var r = CSVReader(bytes: Array(first.prefix { $0 != 0x0A && $0 != 0x0D }), file: file)
            let names = ((try? r.nextRecord()) ?? nil)?.map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            let notAName = names.contains { name in
                !(name.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } ?? false)
                    || !name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            }
            if notAName || Set(names).count < names.count, !required.contains(where: names.contains) {
                throw ImportError(file: file, line: 1, message: "no header row: the first line names none of the required columns (\(required.joined(separator: ", "))); a GTFS file starts with its column names")
            }
        }
        table = try CSVTable(bytes: first, file: file, maxFieldBytes: feed.limits.csv.maxFieldBytes)
        table.mendsRaggedRows = true
        splitter.header = table.header
        splitter.partDone()
        atEnd = end
        for column in required where table.column(column) == nil {
            throw ImportError(file: file, line: 1, field: column, message: "required column is missing")
        }
    }

    /// After the last row: one warning when rows had missing or extra empty trailing fields
    /// (read as empty / dropped; `CSVTable.mendsRaggedRows`).
    func finish(into warnings: inout WarningList) {
        guard table.mendedRows > 0 else { return }
        warnings.append(ImportWarning(file: file, line: table.firstMendedLine,
                                      message: "\(table.mendedRows) rows have a field count other than the header's; missing trailing fields read as empty, extra empty ones ignored"))
    }

    /// `finish(into:)`, then the warnings of `setAside` in order.
    func finish(into warnings: inout WarningList, _ setAside: any SetAsideRows...) {
        finish(into: &warnings)
        for rows in setAside { warnings.append(contentsOf: rows.warnings(file: file)) }
    }

    /// Column index of `name` in the header, or nil.
    func column(_ name: String) -> Int? { table.column(name) }

    /// The next row, or nil at the end of the file. Blank lines are skipped.
    /// - Throws: `ImportError` for bad encoding, CSV syntax errors and ragged rows.
    mutating func next() throws(ImportError) -> CSVRow? {
        while true {
            if let row = try table.nextRow() { return row }
            if atEnd { return nil }
            let data = try stream.read(upTo: partSize)
            let part: [UInt8]
            if data.isEmpty {
                part = splitter.finish()
                atEnd = true
            } else {
                part = try splitter.add(data)
            }
            if part.isEmpty { continue }
            try FeedTableReader.check(part, file: file, firstLine: splitter.line, header: table.header)
            splitter.partDone()
            table.append(part)
        }
    }

    /// Refuses UTF-16 (by its BOM, or by the NUL bytes it is full of), NUL bytes and bytes
    /// that are not UTF-8. `header` names the field of a bad byte (nil: take it from `part`).
    static func check(_ part: [UInt8], file: String, firstLine: Int, header: [String]?) throws(ImportError) {
        if firstLine == 1, part.count >= 2,
           (part[0] == 0xFE && part[1] == 0xFF) || (part[0] == 0xFF && part[1] == 0xFE) {
            throw ImportError(file: file, line: 1, message: "file is encoded in UTF-16; GTFS files must be UTF-8")
        }
        var bad: (index: Int, message: String)? = nil
        if let nul = part.firstIndex(of: 0) {
            bad = (nul, "file contains a NUL byte (GTFS files are UTF-8 text)")
        }
        if let invalid = TextDecoding.firstInvalidUTF8(part), invalid < (bad?.index ?? Int.max) {
            bad = (invalid, "invalid UTF-8 byte 0x\(String(part[invalid], radix: 16, uppercase: true)); GTFS files must be UTF-8")
        }
        guard let bad else { return }
        let (line, column) = location(of: bad.index, in: part)
        var names = header
        if names == nil, let lf = part.firstIndex(of: 0x0A), lf < bad.index {
            var r = CSVReader(bytes: Array(part[..<lf]), file: file)
            names = (try? r.nextRecord())?.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let lineNumber = firstLine + line - 1
        let field = lineNumber > 1 ? names.flatMap { column <= $0.count ? $0[column - 1] : nil } : nil
        throw ImportError(file: file, line: lineNumber, column: column, field: field, message: bad.message)
    }

    /// 1-based line (within `bytes`) and field number of byte `index`; the field number counts
    /// commas outside quotes from the start of the line.
    static func location(of index: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for i in 0..<index where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        var quoted = false
        for i in lineStart..<index {
            if bytes[i] == UInt8(ascii: "\"") { quoted.toggle() }
            else if bytes[i] == UInt8(ascii: ","), !quoted { column += 1 }
        }
        return (line, column)
    }
}

extension CSVRow {
    /// The field in column `i` with surrounding spaces and tabs removed; "" when `i` is nil.
    /// (Ids are compared trimmed: a real GTFS-JP feed writes agency_id `1060001027696 `.)
    func text(_ i: Int?) -> String {
        guard let i else { return "" }
        let s = fields[i]
        // Fast path (most fields): nothing to trim, no Foundation call.
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last else { return s }
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        if !blank(first) && !blank(last) { return s }
        return s.trimmingCharacters(in: .whitespaces)
    }

    /// The trimmed field in column `i`.
    /// - Throws: `ImportError` naming the column when it is empty.
    func requiredText(_ i: Int) throws(ImportError) -> String {
        let s = text(i)
        if s.isEmpty { throw error(column: i, "required value is empty") }
        return s
    }
}

/// Rows set aside while a GTFS file is read, warned about once it is done
/// (`FeedTableReader.finish(into:_:)`).
protocol SetAsideRows {
    /// The warnings, naming `file`.
    func warnings(file: String) -> [ImportWarning]
}

extension GTFS {
    /// The ids of a file's rows (`field`): a repeated id keeps its first row, each repeat warned
    /// about (`<field> '<id>' repeated; the first row is used`) and left out.
    struct FirstRows {
        let field: String
        private var seen = Set<String>()

        init(field: String) { self.field = field }

        /// True the first time `id` is met; false, with a warning at `line` of `file`, after.
        mutating func isFirst(_ id: String, line: Int, file: String, warnings: inout WarningList) -> Bool {
            if seen.insert(id).inserted { return true }
            warnings.append(ImportWarning(file: file, line: line, field: field, message: "\(field) '\(id)' repeated; the first row is used"))
            return false
        }
    }

    /// Rows of one kind (repeated ids, references to a trip the feed lacks): counted, the first
    /// remembered, one warning in all at the first row: `message(count, first id)` on `field`.
    struct RowCount: SetAsideRows {
        let field: String
        let message: (_ count: Int, _ first: String) -> String
        private(set) var count = 0
        private var first: (line: Int, id: String)?

        init(field: String, message: @escaping (_ count: Int, _ first: String) -> String) {
            self.field = field
            self.message = message
        }

        mutating func add(_ id: String, line: Int) {
            count += 1
            if first == nil { first = (line, id) }
        }

        func warnings(file: String) -> [ImportWarning] {
            guard let first else { return [] }
            return [ImportWarning(file: file, line: first.line, field: field, message: message(count, first.id))]
        }
    }

    /// Ids a file names that the file they refer to lacks (a route_id not in routes.txt): the
    /// first line and the number of rows of each, one warning per id at its first row, in the
    /// order they first appear: `message(id, rows)` on `field`.
    struct UnknownIDs: SetAsideRows {
        let field: String
        let message: (_ id: String, _ rows: Int) -> String
        private var seen: [String: (line: Int, count: Int)] = [:]

        init(field: String, message: @escaping (_ id: String, _ rows: Int) -> String) {
            self.field = field
            self.message = message
        }

        mutating func add(_ id: String, line: Int) { seen[id, default: (line, 0)].count += 1 }

        func warnings(file: String) -> [ImportWarning] {
            seen.sorted { $0.value.line < $1.value.line }.map { id, s in
                ImportWarning(file: file, line: s.line, field: field, message: message(id, s.count))
            }
        }
    }
}
