/// The one CSV reader of EkiKit and its importers (RFC 4180) over UTF-8 bytes: quoted fields
/// with commas, line breaks and doubled quotes; CRLF, LF or CR line ends, a last line with or
/// without one; a leading BOM skipped. A `"` inside an unquoted field is kept as text (as
/// csv-spectrum's location_coordinates expects) unless `strictQuotes` is set. Spaces and tabs
/// around a quoted field (`1,  "Shinjuku" ,35.69`) are dropped and the field is unquoted,
/// where RFC 4180 would make them part of an unquoted field. Records are
/// returned as arrays of strings, with the line each starts on.
public struct CSVReader {
    private var bytes: [UInt8]
    private var pos: Int = 0
    private var currentLine: Int = 1
    /// The file name used in errors.
    public let file: String
    /// The field separator (a comma by default).
    public let separator: UInt8
    /// When true, a `"` inside an unquoted field is an error instead of text (for files EkiKit
    /// writes itself and expects back exactly: visit exchange files, operator alias files).
    public let strictQuotes: Bool
    /// 1-based line on which the record last returned by `nextRecord()` starts.
    public private(set) var line: Int = 0
    /// The longest field, in bytes, `nextRecord()` accepts; a longer one is an error (a bound
    /// on the memory one field may take). `defaultMaxFieldBytes` unless set.
    public var maxFieldBytes: Int = CSVReader.defaultMaxFieldBytes
    /// 1 MiB: far above any real station table's field (names, codes, addresses).
    public static let defaultMaxFieldBytes = 1 << 20

    /// - Parameters:
    ///   - bytes: UTF-8 text; a leading BOM is skipped.
    ///   - file: name for error messages.
    public init(bytes: [UInt8], file: String, separator: UInt8 = UInt8(ascii: ","), strictQuotes: Bool = false) {
        self.bytes = bytes
        self.file = file
        self.separator = separator
        self.strictQuotes = strictQuotes
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

    /// Bytes from the current position to the end of the input.
    public var bytesLeft: Int { bytes.count - pos }

    /// Line breaks (LF) from the current position to the end of the input.
    public var lineBreaksLeft: Int {
        bytes.withUnsafeBufferPointer { b in
            var n = 0
            for i in pos..<b.count where b[i] == 0x0A { n += 1 }
            return n
        }
    }

    /// The next record, or nil at the end of the input. An empty line yields `[""]`.
    /// - Throws: `CSVError` for a quote that is never closed (naming the line where the field
    ///   started), text after a closing quote, a field longer than `maxFieldBytes` (naming the
    ///   limit and `--max-field-bytes`), or with `strictQuotes` a quote inside an unquoted field.
    public mutating func nextRecord() throws(CSVError) -> [String]? {
        var fields: [String] = []
        return try nextRecord(into: &fields) ? fields : nil
    }

    /// The next record into `fields` (emptied first, its storage kept: a caller reading row
    /// after row reuses one array); false at the end of the input.
    /// - Throws: as `nextRecord()`.
    public mutating func nextRecord(into fields: inout [String]) throws(CSVError) -> Bool {
        fields.removeAll(keepingCapacity: true)
        let n = bytes.count
        if pos >= n { return false }
        line = currentLine
        var fieldNumber = 1
        while true {
            // One field. Blanks (spaces, tabs) before an opening quote are dropped and the
            // field is read as quoted: `1,   "Shinjuku"` gives `Shinjuku`, as people mean it.
            var q = pos
            while q < n && (bytes[q] == 0x20 || bytes[q] == 0x09) { q += 1 }
            if q > pos && q < n && bytes[q] == UInt8(ascii: "\"") && separator != 0x20 && separator != 0x09 { pos = q }
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
                    // A line break inside the field: LF, CRLF (counted at its LF) or a lone CR.
                    if c == 0x0A || (c == 0x0D && !(pos + 1 < n && bytes[pos + 1] == 0x0A)) { currentLine += 1 }
                    buf.append(c)
                    pos += 1
                    if buf.count > maxFieldBytes { throw fieldTooLong(line: startLine, column: fieldNumber) }
                }
                if !closed {
                    throw CSVError(file: file, line: startLine, column: fieldNumber,
                                   message: "quoted field is never closed (unclosed \")")
                }
                fields.append(String(decoding: buf, as: UTF8.self))
                // Blanks after the closing quote are dropped too.
                while pos < n && (bytes[pos] == 0x20 || bytes[pos] == 0x09) && bytes[pos] != separator { pos += 1 }
                if pos < n, bytes[pos] != separator, bytes[pos] != 0x0A, bytes[pos] != 0x0D {
                    throw CSVError(file: file, line: currentLine, column: fieldNumber,
                                   message: "unexpected text after a closing quote")
                }
            } else {
                let start = pos
                while pos < n {
                    let c = bytes[pos]
                    if c == separator || c == 0x0A || c == 0x0D { break }
                    if c == UInt8(ascii: "\""), strictQuotes {
                        throw CSVError(file: file, line: currentLine, column: fieldNumber,
                                       message: "stray quote inside an unquoted field (quote the whole field and double the quote)")
                    }
                    pos += 1
                    if pos - start > maxFieldBytes { throw fieldTooLong(line: currentLine, column: fieldNumber) }
                }
                fields.append(String(decoding: bytes[start..<pos], as: UTF8.self))
            }
            // After a field: separator, end of line or end of input.
            if pos >= n { return true }
            let c = bytes[pos]
            if c == separator {
                pos += 1
                fieldNumber += 1
                if pos >= n { fields.append(""); return true }
                continue
            }
            if c == 0x0D {
                pos += 1
                if pos < n && bytes[pos] == 0x0A { pos += 1 }
            } else {
                pos += 1
            }
            currentLine += 1
            return true
        }
    }

    /// The error for a field longer than `maxFieldBytes`.
    private func fieldTooLong(line: Int, column: Int) -> CSVError {
        CSVError(file: file, line: line, column: column,
                 message: "field is longer than the limit of \(maxFieldBytes) bytes (--max-field-bytes N raises it)")
    }
}

/// A CSV syntax error: the file, the 1-based line (where the field started, for an unclosed
/// quote) and field number, and what is wrong. Printed as `file:line:column: message`.
public struct CSVError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(message)" }
}
