import EkiKit

/// `/api/lines`, `/api/line` and `/api/linework`: the 路線 panel (operator type → operator →
/// line with visited / total, as `eki lines` groups them) and the lines drawn through their
/// stations. Totals count open entries, staff-only stops and the entries the counting rules leave
/// out left out (as `eki lines`; the rules: `ReaderContext.rules(of:)`).
extension MapAPI {
    /// `GET /api/lines[?filter=all|visited|unvisited]`: `{"visited", "total", "types": [{"type",
    /// "operators": [{"id", "name", "lines": [{"id", "name", "class", "color", "visited",
    /// "total", "loop"}]}]}]}`. Types in `OperatorTypes.order`, operators and lines as `eki
    /// lines` orders them; open lines only. `visited` keeps the lines with a visited entry,
    /// `unvisited` those with one not yet visited. The top `visited` / `total` are the open
    /// entries' (as `/api/stats`).
    func lines(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        let p = try APIParameters(r, allowed: ["filter"])
        let filter = try p.filter()
        let body: [UInt8] = try readers.with { ctx in
            try ctx.snapshot(owner: caller.owner) { visits in
                // As `eki stats`: open entries, staff-only stops and suspended stations left out.
                let rules = try ctx.rules(of: caller.owner)
                let left = try ctx.staffOnly(rules)
                let visited = visits.completions.values.filter { $0.station.isOpen && !left.contains($0.station.key) }.count
                var out: [UInt8] = []
                JSONBytes.append("{\"visited\":\(visited),\"total\":\(try ctx.openTotal(rules)),\"types\":[", to: &out)
                var type: String?, op: String?
                for l in try ctx.lines(rules) {
                    let v = l.stationKeys.filter(visits.isVisited).count
                    if filter == .visited && v == 0 || filter == .unvisited && v == l.total { continue }
                    if l.operatorType != type {
                        if type != nil { JSONBytes.append("]}]},", to: &out) }
                        JSONBytes.append("{\"type\":", to: &out); JSONBytes.appendQuoted(l.operatorType, to: &out)
                        JSONBytes.append(",\"operators\":[", to: &out)
                        type = l.operatorType
                        op = nil
                    }
                    if l.operatorID != op {
                        if op != nil { JSONBytes.append("]},", to: &out) }
                        JSONBytes.append("{\"id\":", to: &out); JSONBytes.appendQuoted(l.operatorID, to: &out)
                        JSONBytes.append(",\"name\":", to: &out); JSONBytes.appendQuoted(l.operatorName, to: &out)
                        JSONBytes.append(",\"lines\":[", to: &out)
                        op = l.operatorID
                    } else {
                        out.append(UInt8(ascii: ","))
                    }
                    JSONBytes.append("{\"id\":", to: &out); JSONBytes.appendQuoted(l.id, to: &out)
                    JSONBytes.append(",\"name\":", to: &out); JSONBytes.appendQuoted(l.name, to: &out)
                    JSONBytes.append(",\"class\":\"\(l.serviceClass.rawValue)\",\"color\":", to: &out)
                    JSONBytes.appendOptional(l.color, to: &out)
                    JSONBytes.append(",\"visited\":\(v),\"total\":\(l.total),\"loop\":\(l.isLoop)}", to: &out)
                }
                JSONBytes.append(type == nil ? "]}" : "]}]}]}", to: &out)
                return out
            }
        }
        return .json(body)
    }

    /// `GET /api/line?id=LINE_ID`: `{"id", "name", "operator" (short), "operator_id", "class",
    /// "color", "loop", "visited", "total", "stations": [...], "geometry"}`; each station the
    /// feature's properties with `lat`, `lon` (after `name`), `operator_short`, `visited`,
    /// `completed`, `branch` and `order` (null for an entry no ordered source places), open
    /// entries in line order; `geometry` a MultiLineString, one part per branch (`LineStroke`).
    /// 404 `not_found` for an unknown id.
    func line(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        let p = try APIParameters(r, allowed: ["id"])
        let id = try p.required("id")
        let body: [UInt8]? = try readers.with { ctx in
            try ctx.snapshot(owner: caller.owner) { visits in
                guard let detail = try ctx.store.lines.line(id: id) else { return nil }
                let rules = try ctx.rules(of: caller.owner)
                let counted = try ctx.lines(rules).first { $0.id == id } ?? detail.line.without(try ctx.staffOnly(rules))
                let l = detail.line
                var out: [UInt8] = []
                JSONBytes.append("{\"id\":", to: &out); JSONBytes.appendQuoted(l.id, to: &out)
                JSONBytes.append(",\"name\":", to: &out); JSONBytes.appendQuoted(l.name, to: &out)
                JSONBytes.append(",\"operator\":", to: &out); JSONBytes.appendQuoted(l.operatorName, to: &out)
                JSONBytes.append(",\"operator_id\":", to: &out); JSONBytes.appendQuoted(l.operatorID, to: &out)
                JSONBytes.append(",\"class\":\"\(l.serviceClass.rawValue)\",\"color\":", to: &out)
                JSONBytes.appendOptional(l.color, to: &out)
                JSONBytes.append(",\"loop\":\(l.isLoop),\"visited\":\(counted.stationKeys.filter(visits.isVisited).count)", to: &out)
                JSONBytes.append(",\"total\":\(counted.total),\"stations\":[", to: &out)
                var first = true
                for stop in detail.stops where stop.station.isOpen {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    let s = stop.station, done = visits.completion(of: s.key)
                    StationFeatureJSON.appendObject(s, extra: [("operator_short", .optional(s.operatorLabel)),
                                                               ("visited", .bool(done != nil)), ("completed", .optional(done?.text))],
                                                    to: &out)
                    // The compact object ends with its brace: the two numbers go before it.
                    out.removeLast()
                    JSONBytes.append(",\"branch\":\(stop.branch),\"order\":\(stop.order.map(String.init) ?? "null")}", to: &out)
                }
                JSONBytes.append("],\"geometry\":", to: &out)
                Self.appendMultiLineString(detail.stroke, to: &out)
                out.append(UInt8(ascii: "}"))
                return out
            }
        }
        guard let body else { throw APIError(404, "not_found", .unknownLine(id)) }
        return .json(body)
    }

    /// `GET /api/linework[?bbox=minLon,minLat,maxLon,maxLat]`: a GeoJSON FeatureCollection, one
    /// Feature per open line (`LineStroke`: a MultiLineString through its stations in line
    /// order, one part per branch, a loop closed; coordinates rounded to 5 decimals), properties
    /// `{"id", "name", "operator" (short), "class", "color"}`; with `bbox` only the lines whose
    /// extent overlaps it. `ETag` from the answer's bytes (`If-None-Match` gives 304),
    /// `Cache-Control: no-cache`.
    func linework(_ r: HTTPRequest) throws -> HTTPResponse {
        let p = try APIParameters(r, allowed: ["bbox"])
        let box = try p.bbox()
        let (body, etag): ([UInt8], String) = try readers.with { ctx in
            try ctx.snapshot {
                if box == nil, let cached = ctx.linework { return cached }
                var out: [UInt8] = []
                JSONBytes.append("{\"type\":\"FeatureCollection\",\"features\":[", to: &out)
                var first = true
                for s in try ctx.store.lines.strokes() where !s.branches.isEmpty {
                    if let box, let e = s.extent, !(e.minLon <= box.maxLon && e.maxLon >= box.minLon
                                                     && e.minLat <= box.maxLat && e.maxLat >= box.minLat) { continue }
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    JSONBytes.append("{\"type\":\"Feature\",\"geometry\":", to: &out)
                    Self.appendMultiLineString(s, to: &out)
                    JSONBytes.append(",\"properties\":{\"id\":", to: &out); JSONBytes.appendQuoted(s.line.id, to: &out)
                    JSONBytes.append(",\"name\":", to: &out); JSONBytes.appendQuoted(s.line.name, to: &out)
                    JSONBytes.append(",\"operator\":", to: &out); JSONBytes.appendQuoted(s.line.operatorName, to: &out)
                    JSONBytes.append(",\"class\":\"\(s.line.serviceClass.rawValue)\",\"color\":", to: &out)
                    JSONBytes.appendOptional(s.line.color, to: &out)
                    JSONBytes.append("}}", to: &out)
                }
                JSONBytes.append("]}", to: &out)
                let answer = (out, Self.etag(out))
                if box == nil { ctx.linework = answer }
                return answer
            }
        }
        if let match = r.headers["if-none-match"], match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) {
            return HTTPResponse(status: 304, headers: [("ETag", etag), ("Cache-Control", "no-cache")])
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/geo+json"), ("Cache-Control", "no-cache"),
                                                   ("ETag", etag)], body: body)
    }

    /// `{"type":"MultiLineString","coordinates":[[[lon,lat],…],…]}`, degrees rounded to 5 decimals.
    static func appendMultiLineString(_ s: LineStroke, to out: inout [UInt8]) {
        JSONBytes.append("{\"type\":\"MultiLineString\",\"coordinates\":[", to: &out)
        for (i, b) in s.branches.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "["))
            for (j, c) in b.enumerated() {
                JSONBytes.append(j > 0 ? ",[" : "[", to: &out)
                JSONBytes.appendNumber(c.lon, decimals: 5, to: &out)
                out.append(UInt8(ascii: ","))
                JSONBytes.appendNumber(c.lat, decimals: 5, to: &out)
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "]"))
        }
        JSONBytes.append("]}", to: &out)
    }

    /// A strong entity tag of the bytes (64-bit FNV-1a, quoted).
    static func etag(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return "\"" + String(h, radix: 16) + "\""
    }
}
