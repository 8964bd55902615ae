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

    /// The records of `text` with the line each starts on (`CSVReader`, strict about quotes).
    static func csvRows(_ text: String, file: String) throws(VisitExchangeError) -> [(line: Int, fields: [String])] {
        var reader = CSVReader(bytes: Array(text.utf8), file: file, strictQuotes: true)
        var rows: [(line: Int, fields: [String])] = []
        do {
            while let fields = try reader.nextRecord() { rows.append((reader.line, fields)) }
        } catch {
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
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) }
        catch { throw VisitExchangeError(file: file, location: "", message: "not JSON: \(error.localizedDescription)") }
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
