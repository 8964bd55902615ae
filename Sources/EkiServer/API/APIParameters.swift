import EkiKit

/// A request the API refuses: HTTP status, a short machine-readable code and a sentence of
/// the catalog (`APIMessage`), written in the request's language when answered.
struct APIError: Error {
    var status: Int
    var code: String
    var message: APIMessage
    /// More members of the error object (`index`, `field` of a refused sync change).
    var extra: [(String, JSONValue)] = []
    /// The methods the route takes, for a 405's `Allow` header.
    var allow: [String] = []

    init(_ status: Int, _ code: String, _ message: APIMessage, extra: [(String, JSONValue)] = [], allow: [String] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra
        self.allow = allow
    }

    static func bad(_ message: APIMessage) -> APIError { APIError(400, "bad_request", message) }

    /// 400 for a field of a JSON body (`field` names it).
    static func bad(_ message: APIMessage, field: String) -> APIError {
        APIError(400, "bad_request", message, extra: [("field", .string(field))])
    }

    /// 400 `bad_json` for a body that is not JSON, with where the parser stopped: `line`,
    /// `column` (1-based, in characters) and `offset` (0-based, in bytes).
    static func notJSON(_ e: JSONSyntaxError) -> APIError {
        APIError(400, "bad_json", .notJSON(e), extra: [("line", .int(e.line)), ("column", .int(e.column)), ("offset", .int(e.offset))])
    }

    func response(_ language: Language) -> HTTPResponse {
        var r: HTTPResponse
        if extra.isEmpty {
            r = .error(status, code, message.text(language))
        } else {
            r = .json(JSONValue.object([("error", .string(code)), ("message", .string(message.text(language)))] + extra).text(), status: status)
        }
        if !allow.isEmpty { r.headers.append(("Allow", allow.joined(separator: ", "))) }
        return r
    }
}

/// The query parameters of one API call, validated as the command line validates its options:
/// unknown names, malformed numbers and values out of range are 400 with one sentence.
struct APIParameters {
    let values: [String: String]

    init(_ request: HTTPRequest, allowed: Set<String>) throws(APIError) {
        if request.badQuery { throw .bad(.badPercentEncoding) }
        if let unknown = request.query.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .bad(.unknownParameter(unknown, allowed: allowed.sorted()))
        }
        values = request.query
    }

    subscript(_ name: String) -> String? { values[name] }

    func required(_ name: String) throws(APIError) -> String {
        guard let v = values[name], !v.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .bad(.required(name))
        }
        return v
    }

    func int(_ name: String, default d: Int?, min: Int, max: Int) throws(APIError) -> Int? {
        guard let v = values[name] else { return d }
        guard let n = Int(v), n >= min, n <= max else {
            throw .bad(.wholeNumber(name, min: min, max: max, got: v))
        }
        return n
    }

    func double(_ name: String, in range: ClosedRange<Double>) throws(APIError) -> Double {
        let v = try required(name)
        guard let d = Double(v), d.isFinite, range.contains(d) else {
            throw .bad(.number(name, min: range.lowerBound, max: range.upperBound, got: v))
        }
        return d
    }

    /// `bbox`, which must be there.
    func requiredBBox() throws(APIError) -> BoundingBox {
        guard let box = try bbox() else { throw .bad(.bboxRequired) }
        return box
    }

    func bbox(_ name: String = "bbox") throws(APIError) -> BoundingBox? {
        guard let v = values[name] else { return nil }
        do { return try BoundingBox(parsing: v, acrossAntimeridian: false) } catch { throw .bad(.bbox(error)) }
    }

    /// `filter=all|visited|unvisited` (全駅 / 乗下車済駅のみ / 未乗下車駅のみ), default all.
    func filter() throws(APIError) -> VisitFilter {
        guard let v = values["filter"] else { return .all }
        guard let f = VisitFilter(rawValue: v) else { throw .bad(.oneOf("filter", VisitFilter.allCases.map(\.rawValue), got: v)) }
        return f
    }

    /// `include_closed=0|1`, default 0.
    func includeClosed() throws(APIError) -> Bool {
        switch values["include_closed"] {
        case nil, "0": return false
        case "1": return true
        case let v?: throw .bad(.oneOf("include_closed", ["0", "1"], got: v))
        }
    }

    /// `LAT,LON` in degrees (latitude first, as `eki search --near`).
    func point(_ name: String) throws(APIError) -> Coordinate? {
        guard let v = values[name] else { return nil }
        let parts = v.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw .bad(.point(name, got: v))
        }
        return Coordinate(lat: lat, lon: lon)
    }
}
