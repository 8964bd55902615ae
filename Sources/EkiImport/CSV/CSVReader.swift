/// An RFC 4180 CSV reader over UTF-8 bytes: quoted fields with commas, line breaks and doubled
/// quotes; CRLF, LF or CR-less last lines. A `"` inside an unquoted field is kept as text (as
/// csv-spectrum's location_coordinates expects). Records are returned as arrays of strings.
public struct CSVReader {
    private var bytes: [UInt8]
    private var pos: Int = 0
    private var currentLine: Int = 1
    /// The file name used in errors.
    public let file: String
    /// The field separator (a comma by default).
    public let separator: UInt8
    /// 1-based line on which the record last returned by `nextRecord()` starts.
    public private(set) var line: Int = 0

    /// - Parameters:
    ///   - bytes: UTF-8 text; a leading BOM is skipped.
    ///   - file: name for error messages.
    public init(bytes: [UInt8], file: String, separator: UInt8 = UInt8(ascii: ",")) {
        self.bytes = bytes
        self.file = file
        self.separator = separator
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { pos = 3 }
    }

    /// Adds more input for streaming a file in parts. Call it after `nextRecord()` returned
    /// nil, with bytes that start at a record boundary (the input so far ended with a line
    /// break outside quotes); line numbers continue from the earlier parts.
    public mutating func append(_ more: [UInt8]) {
        bytes.removeSubrange(0..<pos)
        pos = 0
        bytes.append(contentsOf: more)
    }

    /// Line breaks (LF) from the current position to the end of the input.
    public var lineBreaksLeft: Int {
        bytes.withUnsafeBufferPointer { b in
            var n = 0
            for i in pos..<b.count where b[i] == 0x0A { n += 1 }
            return n
        }
    }

    /// The next record, or nil at the end of the input. An empty line yields `[""]`.
    /// - Throws: `ImportError` for a quote that is never closed (naming the line where the
    ///   field started) or text after a closing quote.
    public mutating func nextRecord() throws(ImportError) -> [String]? {
        let n = bytes.count
        if pos >= n { return nil }
        line = currentLine
        var fields: [String] = []
        var fieldNumber = 1
        while true {
            // One field.
            if pos < n && bytes[pos] == UInt8(ascii: "\"") {
                let startLine = currentLine
                pos += 1
                var buf: [UInt8] = []
                var closed = false
                while pos < n {
                    let c = bytes[pos]
                    if c == UInt8(ascii: "\"") {
                        if pos + 1 < n && bytes[pos + 1] == UInt8(ascii: "\"") {
                            buf.append(c)
                            pos += 2
                            continue
                        }
                        pos += 1
                        closed = true
                        break
                    }
                    if c == 0x0A { currentLine += 1 }
                    buf.append(c)
                    pos += 1
                }
                if !closed {
                    throw ImportError(file: file, line: startLine, column: fieldNumber,
                                      message: "quoted field is never closed (unclosed \")")
                }
                fields.append(String(decoding: buf, as: UTF8.self))
                if pos < n, bytes[pos] != separator, bytes[pos] != 0x0A, bytes[pos] != 0x0D {
                    throw ImportError(file: file, line: currentLine, column: fieldNumber,
                                      message: "unexpected text after a closing quote")
                }
            } else {
                let start = pos
                while pos < n {
                    let c = bytes[pos]
                    if c == separator || c == 0x0A || c == 0x0D { break }
                    pos += 1
                }
                fields.append(String(decoding: bytes[start..<pos], as: UTF8.self))
            }
            // After a field: separator, end of line or end of input.
            if pos >= n { return fields }
            let c = bytes[pos]
            if c == separator {
                pos += 1
                fieldNumber += 1
                if pos >= n { fields.append(""); return fields }
                continue
            }
            if c == 0x0D {
                pos += 1
                if pos < n && bytes[pos] == 0x0A { pos += 1 }
            } else {
                pos += 1
            }
            currentLine += 1
            return fields
        }
    }
}

/// A CSV file with a header row: fields looked up by column name, errors naming file, line and
/// column.
public struct CSVTable {
    public let file: String
    /// Column names from the header, as written (trimmed of surrounding spaces).
    public let header: [String]
    private let index: [String: Int]
    private var reader: CSVReader
    /// When true, a row with fewer fields than the header reads its missing trailing fields as
    /// "", and a row with more is read without its extra trailing fields if they are all empty
    /// (GTFS feeds, Google's sample among them, omit or add trailing commas). Off by default.
    public var mendsRaggedRows = false
    /// How many rows `mendsRaggedRows` mended so far, and the line of the first.
    public private(set) var mendedRows = 0
    public private(set) var firstMendedLine: Int? = nil

    /// - Throws: `ImportError` when the file is empty or the header cannot be read.
    public init(bytes: [UInt8], file: String) throws(ImportError) {
        var r = CSVReader(bytes: bytes, file: file)
        guard let h = try r.nextRecord() else {
            throw ImportError(file: file, line: 1, message: "empty file: no header row")
        }
        header = h.map { $0.trimmingCharacters(in: .whitespaces) }
        var idx: [String: Int] = [:]
        for (i, name) in header.enumerated() where idx[name] == nil { idx[name] = i }
        index = idx
        self.file = file
        reader = r
    }

    /// The column index of `name`, or nil.
    public func column(_ name: String) -> Int? { index[name] }

    /// Line breaks left in the input: an upper bound on the rows left when no field holds a
    /// line break (for reserving capacity).
    public var lineCountEstimate: Int { reader.lineBreaksLeft }

    /// Adds the next part of the file when streaming; see `CSVReader.append(_:)`.
    public mutating func append(_ more: [UInt8]) {
        reader.append(more)
    }

    /// The next row, or nil at the end. Blank lines are skipped.
    /// - Throws: `ImportError` for CSV syntax errors and for a row whose field count differs
    ///   from the header's (a ragged row) unless `mendsRaggedRows` mends it.
    public mutating func nextRow() throws(ImportError) -> CSVRow? {
        while var fields = try reader.nextRecord() {
            if fields.count == 1 && fields[0].isEmpty { continue }
            if fields.count != header.count {
                let mendable = fields.count < header.count || fields[header.count...].allSatisfy(\.isEmpty)
                guard mendsRaggedRows && mendable else {
                    throw ImportError(file: file, line: reader.line,
                                      message: "row has \(fields.count) fields, the header has \(header.count)")
                }
                if fields.count < header.count {
                    fields.append(contentsOf: repeatElement("", count: header.count - fields.count))
                } else {
                    fields.removeSubrange(header.count...)
                }
                mendedRows += 1
                if firstMendedLine == nil { firstMendedLine = reader.line }
            }
            return CSVRow(fields: fields, line: reader.line, table: self)
        }
        return nil
    }
}

/// One row of a `CSVTable`.
public struct CSVRow {
    public let fields: [String]
    /// 1-based line where the row starts.
    public let line: Int
    let file: String
    let header: [String]

    init(fields: [String], line: Int, table: CSVTable) {
        self.fields = fields
        self.line = line
        self.file = table.file
        self.header = table.header
    }

    /// The field in column `i`, or nil when `i` is nil.
    public subscript(_ i: Int?) -> String? {
        guard let i else { return nil }
        return fields[i]
    }

    /// An `ImportError` at this row and column `i`.
    public func error(column i: Int, _ message: String) -> ImportError {
        ImportError(file: file, line: line, column: i + 1, field: header[i], message: message)
    }

    /// The field in column `i` as a Double.
    /// - Throws: `ImportError` naming the column when it is not a finite number.
    public func double(_ i: Int) throws(ImportError) -> Double {
        let s = CSVInput.trimmed(fields[i])
        guard let v = Double(s), v.isFinite else {
            throw error(column: i, "'\(fields[i])' is not a number")
        }
        return v
    }
}

import Foundation
