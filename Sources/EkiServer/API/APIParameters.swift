import EkiKit

/// A request the API refuses: HTTP status, a short machine-readable code and a sentence.
struct APIError: Error {
    var status: Int
    var code: String
    var message: String

    init(_ status: Int, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func bad(_ message: String) -> APIError { APIError(400, "bad_request", message) }

    var response: HTTPResponse { .error(status, code, message) }
}

/// The query parameters of one API call, validated as the command line validates its options:
/// unknown names, malformed numbers and values out of range are 400 with one sentence.
struct APIParameters {
    let values: [String: String]

    init(_ request: HTTPRequest, allowed: Set<String>) throws(APIError) {
        if request.badQuery { throw .bad("a query parameter is not valid percent-encoded UTF-8") }
        if let unknown = request.query.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .bad("unknown parameter '\(unknown)' (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
        values = request.query
    }

    subscript(_ name: String) -> String? { values[name] }

    func required(_ name: String) throws(APIError) -> String {
        guard let v = values[name], !v.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .bad("parameter '\(name)' is required")
        }
        return v
    }

    func int(_ name: String, default d: Int?, min: Int, max: Int) throws(APIError) -> Int? {
        guard let v = values[name] else { return d }
        guard let n = Int(v), n >= min, n <= max else {
            throw .bad("'\(name)' needs a whole number \(min)…\(max), got '\(v)'")
        }
        return n
    }

    func double(_ name: String, in range: ClosedRange<Double>) throws(APIError) -> Double {
        let v = try required(name)
        guard let d = Double(v), d.isFinite, range.contains(d) else {
            throw .bad("'\(name)' needs a number in \(range.lowerBound)…\(range.upperBound), got '\(v)'")
        }
        return d
    }

    func bbox(_ name: String = "bbox") throws(APIError) -> BoundingBox? {
        guard let v = values[name] else { return nil }
        do { return try BoundingBox(parsing: v) } catch { throw .bad(error.description) }
    }

    /// `filter=all|visited|unvisited` (全駅 / 乗下車済駅のみ / 未乗下車駅のみ), default all.
    func filter() throws(APIError) -> VisitFilter {
        guard let v = values["filter"] else { return .all }
        guard let f = VisitFilter(rawValue: v) else { throw .bad("'filter' must be all, visited or unvisited, got '\(v)'") }
        return f
    }

    /// `include_closed=0|1`, default 0.
    func includeClosed() throws(APIError) -> Bool {
        switch values["include_closed"] {
        case nil, "0": return false
        case "1": return true
        case let v?: throw .bad("'include_closed' must be 0 or 1, got '\(v)'")
        }
    }

    /// `LAT,LON` in degrees (latitude first, as `eki search --near`).
    func point(_ name: String) throws(APIError) -> Coordinate? {
        guard let v = values[name] else { return nil }
        let parts = v.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw .bad("'\(name)' needs LAT,LON in degrees (latitude first), got '\(v)'")
        }
        return Coordinate(lat: lat, lon: lon)
    }
}
