import EkiKit
import Foundation

/// A CSV file with a header row, read with EkiKit's `CSVReader`: fields looked up by column
/// name, errors (`ImportError`) naming file, line and column.
public struct CSVTable {
    public let file: String
    /// Column names from the header, as written (trimmed of surrounding spaces).
    public let header: [String]
    private let index: [String: Int]
    private var reader: CSVReader
    /// The rest of the file, when it is read in parts (`CSVInput.table`).
    private var source: CSVPartSource? = nil
    /// When true, a row with fewer fields than the header reads its missing trailing fields as
    /// "", and a row with more is read without its extra trailing fields if they are all empty
    /// (GTFS feeds, Google's sample among them, omit or add trailing commas). Off by default.
    public var mendsRaggedRows = false
    /// How many rows `mendsRaggedRows` mended so far, and the line of the first.
    public private(set) var mendedRows = 0
    public private(set) var firstMendedLine: Int? = nil
    /// How many blank lines `nextRow()` skipped so far, and the first of them.
    public private(set) var blankLines = 0
    public private(set) var firstBlankLine: Int? = nil
    /// The fields array `nextRow()` reads into (see there).
    private var fieldBuffer: [String] = []

    /// - Parameter maxFieldBytes: the longest field accepted (`CSVReader.maxFieldBytes`).
    /// - Throws: `ImportError` when the file is empty, the header cannot be read, it names a
    ///   column twice, or a field is longer than `maxFieldBytes`.
    public init(bytes: [UInt8], file: String, maxFieldBytes: Int = CSVReader.defaultMaxFieldBytes) throws(ImportError) {
        var r = CSVReader(bytes: bytes, file: file)
        r.maxFieldBytes = maxFieldBytes
        guard let h = try ImportError.rethrowing({ () throws(CSVError) in try r.nextRecord() }) else {
            throw ImportError(file: file, line: 1, message: "empty file: no header row")
        }
        header = h.map { $0.trimmingCharacters(in: .whitespaces) }
        var idx: [String: Int] = [:]
        for (i, name) in header.enumerated() {
            if let first = idx[name] {
                // Which of two columns a name means is a guess; empty names (trailing commas) are
                // never looked up.
                guard name.isEmpty else {
                    throw ImportError(file: file, line: 1, field: name,
                                      message: "the header names this column twice (columns \(first + 1) and \(i + 1))")
                }
            } else {
                idx[name] = i
            }
        }
        index = idx
        self.file = file
        reader = r
    }

    /// A table read from `source` part by part: only the part being read is held. The
    /// source's `RecordSplitter` enforces the limits in the file's own bytes; the reader's
    /// field limit, on the decoded UTF-8 (up to 3 bytes for 1 of CP932), is a backstop.
    /// - Throws: as `init(bytes:file:maxFieldBytes:)`, and `ImportError`s of `source`.
    init(source: CSVPartSource, maxFieldBytes: Int) throws(ImportError) {
        let decodedLimit = maxFieldBytes > Int.max / 3 ? Int.max : maxFieldBytes * 3
        try self.init(bytes: try source.next() ?? [], file: source.file, maxFieldBytes: decodedLimit)
        source.header = header
        self.source = source
    }

    /// The column index of `name`, or nil.
    public func column(_ name: String) -> Int? { index[name] }

    /// Line breaks left in the input: an upper bound on the rows left when no field holds a
    /// line break (for reserving capacity).
    public var lineCountEstimate: Int { reader.lineBreaksLeft }

    /// An estimate of the rows left, for reserving capacity: the line breaks of the part in
    /// memory scaled by the file's size over that part's (when read in parts; a few per cent
    /// over when lines are of even length, so that an array reserved with it is not regrown).
    public var rowCountEstimate: Int {
        let lines = reader.lineBreaksLeft
        guard let source, let size = source.fileSize, reader.bytesLeft > 0, size > reader.bytesLeft else { return lines }
        let estimate = Double(lines) * Double(size) / Double(reader.bytesLeft)
        return Int(min(estimate * 1.02 + 16, Double(Int32.max)))
    }

    /// Adds the next part of the file when streaming; see `CSVReader.append(_:)`.
    public mutating func append(_ more: [UInt8]) {
        reader.append(more)
    }

    /// The next row, or nil at the end. Blank lines (empty, or only spaces and tabs) are
    /// skipped and counted.
    /// - Throws: `ImportError` for CSV syntax errors and for a row whose field count differs
    ///   from the header's (a ragged row) unless `mendsRaggedRows` mends it.
    public mutating func nextRow() throws(ImportError) -> CSVRow? {
        while true {
            // One array reused from row to row: the row returned shares it, and once the caller
            // drops that row, the next record is read into the same storage.
            var fields = fieldBuffer
            fieldBuffer = []
            let more = try ImportError.rethrowing { () throws(CSVError) in try reader.nextRecord(into: &fields) }
            guard more else {
                fieldBuffer = fields
                guard let more = try source?.next() else { return nil }
                reader.append(more)
                continue
            }
            defer { fieldBuffer = fields }
            // A blank line: empty, or only spaces and tabs (a file's last line often is).
            if fields.count == 1 && fields[0].utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                blankLines += 1
                if firstBlankLine == nil { firstBlankLine = reader.line }
                continue
            }
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
        guard let v = DecimalNumber.parse(s) else {
            throw error(column: i, "'\(fields[i])' is not a number")
        }
        return v
    }
}

extension ImportError {
    /// A CSV syntax error as an import error (same file, line, column and message).
    public init(_ e: CSVError) {
        self.init(file: e.file, line: e.line, column: e.column, message: e.message)
    }

    /// `body`'s result; a `CSVError` it throws is rethrown as an `ImportError`.
    static func rethrowing<T>(_ body: () throws(CSVError) -> T) throws(ImportError) -> T {
        do { return try body() } catch { throw ImportError(error) }
    }
}
