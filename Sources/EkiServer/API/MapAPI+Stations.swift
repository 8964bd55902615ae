import EkiKit

/// `/api/bbox`, `/api/nearest` and `/api/search`: FeatureCollections of entries, each feature
/// with the properties `eki … --format geojson` writes plus `visited` and `completed`.
extension MapAPI {
    /// `GET /api/bbox?bbox=minLon,minLat,maxLon,maxLat[&limit=N][&filter=…][&include_closed=0|1]`:
    /// the entries in the box, sorted by key; with `limit`, the N nearest the box centre
    /// (geodesic, ties by key), nearest first. `total` is the number in the box (after the filter).
    func bbox(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        let p = try APIParameters(r, allowed: ["bbox", "limit", "filter", "include_closed"])
        let box = try p.requiredBBox()
        let limit = try p.int("limit", default: nil, min: 1, max: 1_000_000)
        let filter = try p.filter()
        let includeClosed = try p.includeClosed()
        let body: [UInt8] = try readers.with { ctx in
            try ctx.snapshot(owner: caller.owner) { visits in
                var out: [UInt8] = []
                // The library's viewport: the filter before the pin cap, nearest the centre first.
                let view = try ctx.store.spatial.viewport(ViewportQuery(bbox: box, filter: visits.viewportFilter(filter),
                                                                        limit: limit, includeClosed: includeClosed))
                var entries = try ctx.features.entries(view.hits.map(\.fid), store: ctx.store)
                if limit == nil { entries.sort { $0.key < $1.key } }
                Self.collectionStart(total: view.total, capacity: entries.count * 420, into: &out)
                for (i, e) in entries.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    StationFeatures.append(head: e.head, distance: nil, completion: visits.completion(of: e.key), to: &out)
                }
                JSONBytes.append("]}", to: &out)
                return out
            }
        }
        return .json(body)
    }

    static func collectionStart(total: Int?, capacity: Int, into out: inout [UInt8]) {
        out.reserveCapacity(capacity + 64)
        JSONBytes.append("{\"type\":\"FeatureCollection\",", to: &out)
        if let total { JSONBytes.append("\"total\":\(total),", to: &out) }
        JSONBytes.append("\"features\":[", to: &out)
    }

    /// `GET /api/nearest?lat=&lon=[&k=10][&filter=…][&include_closed=0|1]`: the k entries
    /// nearest the point by geodesic distance, nearest first (ties by key), with `distance_m`.
    func nearest(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        let p = try APIParameters(r, allowed: ["lat", "lon", "k", "filter", "include_closed"])
        let point = Coordinate(lat: try p.double("lat", in: -90...90), lon: try p.double("lon", in: -180...180))
        let k = try p.int("k", default: 10, min: 1, max: 10_000)!
        let filter = try p.filter()
        let includeClosed = try p.includeClosed()
        let body: [UInt8] = try readers.with { ctx in
            try ctx.snapshot(owner: caller.owner) { visits in
                var out: [UInt8] = []
                Self.collectionStart(total: nil, capacity: k * 440, into: &out)
                let hits = try ctx.store.spatial.nearestHits(to: point, k: k, includeClosed: includeClosed,
                                                             filter: visits.viewportFilter(filter))
                let entries = try ctx.features.entries(hits.map(\.fid), store: ctx.store)
                for (i, (h, e)) in zip(hits, entries).enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    StationFeatures.append(head: e.head, distance: h.distance, completion: visits.completion(of: e.key), to: &out)
                }
                JSONBytes.append("]}", to: &out)
                return out
            }
        }
        return .json(body)
    }

    /// `GET /api/search?q=[&by=name|reading|line|operator|any][&match=prefix|partial][&bbox=]
    /// [&near=LAT,LON][&limit=20][&filter=…][&include_closed=0|1]`: as `eki search`, each
    /// feature with `matched_field` and `match` (exact, prefix or partial), and `distance_m`
    /// with `near`.
    func search(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        let p = try APIParameters(r, allowed: ["q", "by", "match", "bbox", "near", "limit", "filter", "include_closed"])
        let query = try p.required("q")
        var options = SearchOptions(includeClosed: try p.includeClosed())
        if let by = p["by"] {
            guard let s = SearchOptions.Scope(rawValue: by) else {
                throw APIError.bad(.oneOf("by", SearchOptions.Scope.allCases.map(\.rawValue), got: by))
            }
            options.by = s
        }
        if let m = p["match"] {
            guard let match = SearchOptions.Match(rawValue: m) else { throw APIError.bad(.oneOf("match", ["prefix", "partial"], got: m)) }
            options.match = match
        }
        options.bbox = try p.bbox()
        options.near = try p.point("near")
        let limit = try p.int("limit", default: 20, min: 1, max: 10_000)!
        options.limit = limit
        let filter = try p.filter()
        let body: [UInt8] = try readers.with { ctx in
            try ctx.snapshot(owner: caller.owner) { visits in
                var o = options
                if filter != .all { o.limit = nil }
                var hits: [SearchHit]
                do { hits = try ctx.store.search.stations(matching: query, options: o) } catch let e as SearchError { throw APIError(500, "search_index", .searchIndex(e.description)) }
                if filter != .all {
                    let kept = Set(visits.filter(hits.map(\.station), filter).map(\.key))
                    hits = Array(hits.filter { kept.contains($0.station.key) }.prefix(limit))
                }
                var out: [UInt8] = []
                Self.collectionStart(total: nil, capacity: hits.count * 460, into: &out)
                for (i, h) in hits.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    StationFeatures.append(head: StationFeatures.head(h.station), distance: h.distance,
                                           extra: [("matched_field", h.field.rawValue),
                                                   ("match", h.isExact ? "exact" : h.isPrefix ? "prefix" : "partial")],
                                           completion: visits.completion(of: h.station.key), to: &out)
                }
                JSONBytes.append("]}", to: &out)
                return out
            }
        }
        return .json(body)
    }
}
