import Foundation

/// The file formats of `eki visit export` / `import`.
public enum VisitExchangeFormat: String, CaseIterable, Sendable {
    /// RFC 4180 CSV, UTF-8, CRLF: header `id,station,date,kind,note`, one visit per row; an
    /// unknown date, a missing kind and a missing note are empty fields.
    case csv
    /// A UTF-8 JSON array with one object per line:
    /// `{"id": 1, "station": "jr-central/s/小田原", "date": "2019-08-15", "kind": "board", "note": null}`;
    /// an unknown date, a missing kind and a missing note are `null`.
    case json
}

/// Writing and reading the visit log's exchange files. `encode` then `decode` gives back the
/// same visits (ids, keys, dates, kinds, notes), and `encode` of those gives the same bytes.
public enum VisitExchange {
    /// The visits in `format`, in the order given.
    public static func encode(_ visits: [Visit], format: VisitExchangeFormat) -> String {
        switch format {
        case .csv:
            var out = "id,station,date,kind,note\r\n"
            for v in visits {
                out += CSVWriter.record([String(v.id), v.stationKey, v.date.text ?? "", v.kind?.rawValue ?? "", v.note ?? ""])
            }
            return out
        case .json:
            guard !visits.isEmpty else { return "[]\n" }
            let lines = visits.map { v in
                "  {\"id\": \(v.id), \"station\": \(quote(v.stationKey)), \"date\": \(v.date.text.map(quote) ?? "null"), "
                    + "\"kind\": \(v.kind.map { quote($0.rawValue) } ?? "null"), \"note\": \(v.note.map(quote) ?? "null")}"
            }
            return "[\n" + lines.joined(separator: ",\n") + "\n]\n"
        }
    }

    /// The format of a file: `.csv` / `.json` by its extension, else JSON when its first
    /// non-blank character is `[`, else CSV.
    public static func detectFormat(path: String, text: String) -> VisitExchangeFormat {
        switch (path as NSString).pathExtension.lowercased() {
        case "csv": return .csv
        case "json": return .json
        default:
            return text.first(where: { !$0.isWhitespace && $0 != "\u{FEFF}" }) == "[" ? .json : .csv
        }
    }

    /// Reads visits from `text` (the contents of `file`, named in errors). CSV needs a header
    /// with a `station` column; `id`, `date`, `kind` and `note` are optional and other columns
    /// are ignored. An id of 0 or none means "give it a new id".
    /// - Throws: `VisitExchangeError` at the first bad row or value (line for CSV, visit
    ///   number for JSON).
    public static func decode(_ text: String, format: VisitExchangeFormat, file: String) throws(VisitExchangeError) -> [Visit] {
        try decodeRows(text, format: format, file: file).map(\.visit)
    }

    /// `decode`, each visit with where it stands in the file (`line 3`, `visit 2`).
    /// - Throws: `VisitExchangeError`, as `decode`.
    public static func decodeRows(_ text: String, format: VisitExchangeFormat, file: String) throws(VisitExchangeError) -> [VisitExchangeRow] {
        switch format {
        case .csv: return try decodeCSV(text, file: file)
        case .json: return try decodeJSON(text, file: file)
        }
    }

    // MARK: CSV

    static func decodeCSV(_ text: String, file: String) throws(VisitExchangeError) -> [VisitExchangeRow] {
        let rows = try csvRows(text, file: file)
        guard let header = rows.first else { return [] }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let station = names.firstIndex(of: "station") else {
            throw VisitExchangeError(file: file, location: "line 1", message: "the header has no 'station' column")
        }
        let column = { (name: String) in names.firstIndex(of: name) }
        let (idCol, dateCol, kindCol, noteCol) = (column("id"), column("date"), column("kind"), column("note"))
        var out: [VisitExchangeRow] = []
        for row in rows.dropFirst() {
            if row.fields == [""] { continue }   // blank line
            let at = "line \(row.line)"
            guard row.fields.count == names.count else {
                throw VisitExchangeError(file: file, location: at, message: "row has \(row.fields.count) fields, the header has \(names.count)")
            }
            let get = { (c: Int?) in c.map { row.fields[$0] } ?? "" }
            out.append(VisitExchangeRow(visit: try visit(id: get(idCol), station: row.fields[station], date: get(dateCol),
                                                         kind: get(kindCol), note: get(noteCol), file: file, at: at),
                                        location: at))
        }
        return out
    }

    /// The longest field of a visit file, in bytes of UTF-8 (64 KiB): a note (or any other
    /// field) past it is refused naming the line (CSV) or visit (JSON), before the rest is read.
    public static let maxFieldBytes = 65_536

    /// The records of `text` with the line each starts on (`CSVReader`, strict about quotes,
    /// fields up to `maxFieldBytes`).
    static func csvRows(_ text: String, file: String) throws(VisitExchangeError) -> [(line: Int, fields: [String])] {
        var reader = CSVReader(bytes: Array(text.utf8), file: file, strictQuotes: true)
        reader.maxFieldBytes = maxFieldBytes
        var rows: [(line: Int, fields: [String])] = []
        do {
            while let fields = try reader.nextRecord() { rows.append((reader.line, fields)) }
        } catch {
            let header = rows.first?.fields
            if error.message.hasPrefix("field is longer than the limit") {
                let name = header.flatMap { error.column <= $0.count ? $0[error.column - 1] : nil }.map { "\($0) (field \(error.column))" } ?? "field \(error.column)"
                throw VisitExchangeError(file: file, location: "line \(error.line)",
                                         message: "\(name) is longer than the limit of \(maxFieldBytes) bytes of a visit file's field")
            }
            throw VisitExchangeError(file: file, location: "line \(error.line)", message: error.message)
        }
        return rows
    }

    // MARK: JSON

    static func decodeJSON(_ text: String, file: String) throws(VisitExchangeError) -> [VisitExchangeRow] {
        // Foundation's parser drops a U+FEFF written as itself inside a string: write each one
        // (after a byte order mark at the start) as the escape `\ufeff`, which it keeps. JSON
        // allows U+FEFF nowhere outside strings, so this changes no valid file's meaning.
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        let json = body.replacingOccurrences(of: "\u{FEFF}", with: "\\ufeff")
        let bytes = Array(json.utf8)
        try checkStringLengths(bytes, file: file)
        let parsed: Any
        do { parsed = try JSONParse.value(bytes) } catch {
            throw VisitExchangeError(file: file, location: "line \(error.line), column \(error.column)", message: "not JSON: \(error.reason)")
        }
        guard let array = parsed as? [Any] else {
            throw VisitExchangeError(file: file, location: "", message: "expected a JSON array of visits")
        }
        var out: [VisitExchangeRow] = []
        for (n, item) in array.enumerated() {
            let at = "visit \(n + 1)"
            guard let o = item as? [String: Any] else { throw VisitExchangeError(file: file, location: at, message: "not an object") }
            func string(_ name: String) throws(VisitExchangeError) -> String {
                switch o[name] {
                case nil, is NSNull: return ""
                case let s as String: return s
                default: throw VisitExchangeError(file: file, location: at, message: "\(name) must be a string or null")
                }
            }
            var id = ""
            if let v = o["id"], !(v is NSNull) {
                guard let n = v as? NSNumber, let i = Int64(exactly: n.doubleValue) else {
                    throw VisitExchangeError(file: file, location: at, message: "id must be a whole number")
                }
                id = String(i)
            }
            out.append(VisitExchangeRow(visit: try visit(id: id, station: try string("station"), date: try string("date"),
                                                         kind: try string("kind"), note: try string("note"), file: file, at: at),
                                        location: at))
        }
        return out
    }

    /// Refuses a field longer than `maxFieldBytes` in a visit file's bytes as read, before they
    /// are decoded (UTF-8 or CP932 alike: no CP932 trail byte is a quote, comma or line break):
    /// JSON (its first byte after blanks and a BOM `[` or `{`) by `checkStringLengths`, CSV by
    /// its quoted and unquoted fields. Costs one pass and no copy; a file with a 50 MB note
    /// stops here instead of being decoded whole.
    /// - Throws: `VisitExchangeError` naming the line (CSV: and the field) or visit.
    public static func checkFieldBytes(_ b: [UInt8], file: String) throws(VisitExchangeError) {
        var i = b.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < b.count && (b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D) { i += 1 }
        if i < b.count && (b[i] == UInt8(ascii: "[") || b[i] == UInt8(ascii: "{")) {
            return try checkStringLengths(b, file: file)
        }
        var line = 1, fieldLine = 1, field = 1, length = 0, quoted = false
        var header: [String] = [], name: [UInt8] = []
        var k = i
        while k < b.count {
            let c = b[k]
            k += 1
            if quoted {
                if c == UInt8(ascii: "\"") {
                    if k < b.count && b[k] == UInt8(ascii: "\"") { k += 1; length += 1 } else { quoted = false }
                    continue
                }
                if c == 0x0A { line += 1 }
            } else if c == UInt8(ascii: "\"") && length == 0 {
                quoted = true
                continue
            } else if c == UInt8(ascii: ",") || c == 0x0A || c == 0x0D {
                if line == 1 { header.append(String(decoding: name, as: UTF8.self).trimmingCharacters(in: .whitespaces)) }
                name = []
                length = 0
                if c == UInt8(ascii: ",") { field += 1 } else {
                    if c == 0x0A || !(k < b.count && b[k] == 0x0A) { line += 1 }
                    field = 1
                }
                fieldLine = line
                continue
            }
            length += 1
            if line == 1 && name.count < 64 { name.append(c) }
            if length > maxFieldBytes {
                let what = field <= header.count && fieldLine > 1 ? "\(header[field - 1]) (field \(field))" : "field \(field)"
                throw VisitExchangeError(file: file, location: "line \(fieldLine)",
                                         message: "\(what) is longer than the limit of \(maxFieldBytes) bytes of a visit file's field")
            }
        }
    }

    /// Refuses a string longer than `maxFieldBytes` before the JSON is parsed, naming the
    /// visit (its 1-based index in the array), the field and the line.
    static func checkStringLengths(_ b: [UInt8], file: String) throws(VisitExchangeError) {
        var depth = 0, visit = 0, line = 1, i = 0
        var key: [UInt8] = []
        while i < b.count {
            let c = b[i]
            if c == 0x0A { line += 1 }
            if c == UInt8(ascii: "\"") {
                let start = i, startLine = line
                i += 1
                while i < b.count && b[i] != UInt8(ascii: "\"") {
                    if b[i] == 0x5C { i += 1 } else if b[i] == 0x0A { line += 1 }
                    i += 1
                }
                let length = i - start - 1
                if length > maxFieldBytes {
                    let field = depth == 2 && !key.isEmpty ? String(decoding: key, as: UTF8.self) + " " : ""
                    throw VisitExchangeError(file: file, location: depth >= 2 ? "visit \(visit), line \(startLine)" : "line \(startLine)",
                                             message: "\(field)is longer than the limit of \(maxFieldBytes) bytes of a visit file's field")
                }
                // A string followed by `:` is a key.
                var j = i + 1
                while j < b.count && (b[j] == 0x20 || b[j] == 0x09 || b[j] == 0x0A || b[j] == 0x0D) { j += 1 }
                if j < b.count && b[j] == UInt8(ascii: ":") && length <= 64 { key = Array(b[(start + 1)..<i]) }
            } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                depth += 1
                if depth == 2 { visit += 1; key = [] }
            } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                depth -= 1
            }
            i += 1
        }
    }

    static func quote(_ s: String) -> String { JSONBytes.quoted(s) }

    // MARK: Fields

    static func visit(id: String, station: String, date: String, kind: String, note: String,
                      file: String, at: String) throws(VisitExchangeError) -> Visit {
        let fail = { (m: String) in VisitExchangeError(file: file, location: at, message: m) }
        var visitID: Int64 = 0
        if !id.isEmpty {
            guard let n = Int64(id), n >= 0 else { throw fail("id '\(id)' is not a whole number ≥ 0") }
            visitID = n
        }
        guard !station.isEmpty else { throw fail("station is empty") }
        let d: VisitDate
        do { d = try VisitDate(parsing: date) } catch { throw fail("date: " + error.description) }
        var k: VisitKind? = nil
        if !kind.isEmpty {
            guard let parsed = VisitKind(rawValue: kind) else {
                throw fail("kind '\(kind)' is not one of \(VisitKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            k = parsed
        }
        return Visit(id: visitID, stationKey: station, date: d, kind: k, note: note)
    }
}

/// One visit of an exchange file and where it stands: `line N` (CSV) or `visit N` (JSON).
public struct VisitExchangeRow: Sendable, Equatable {
    public var visit: Visit
    public var location: String
}

/// A visit file that cannot be read: the file, where (`line N` for CSV, `visit N` for JSON)
/// and what is wrong.
public struct VisitExchangeError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var location: String
    public var message: String

    public init(file: String, location: String, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    public var description: String { location.isEmpty ? "\(file): \(message)" : "\(file): \(location): \(message)" }
}
