import EkiGeocoding
import EkiKit
import Foundation

/// `/api/station`, `/api/visits`, `/api/stats` and `/api/geocode`.
extension MapAPI {
    /// `GET /api/station?key=KEY`: one entry whole (`StationDetail.json`); aliases resolve;
    /// 404 for an unknown key.
    func station(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        let p = try APIParameters(r, allowed: ["key"])
        let key = try p.required("key")
        let detail = try readers.with { ctx in
            try ctx.snapshot(owner: caller.owner) { visits in
                try StationDetail.load(key: key, store: ctx.store, log: try ctx.log(of: caller.owner), visited: visits,
                                       staffOnly: try ctx.staffOnly(try ctx.rules(of: caller.owner)))
            }
        }
        guard let detail else { throw APIError(404, "unknown_station", .unknownStation(key)) }
        return .json(detail.json)
    }

    /// `POST /api/visits` with `{"key": KEY, "date": "YYYY[-MM[-DD]]"|null, "kind": …|null,
    /// "note": …|null}` (JSON, `X-CSRF-Token`): records a visit of the caller under the entry's current key.
    /// 201 with the visit and the entry's `visited` / `completed`; 404 unknown key; 409 when the
    /// log already holds that key, date and kind; 400 `bad_json` for a body that is not JSON
    /// (`line`, `column`, `offset` say where the parser stopped), 400 `bad_request` with `field`
    /// for a field that is unknown, missing or wrong.
    func addVisit(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        guard (r.headers["content-type"] ?? "").lowercased().hasPrefix("application/json") else {
            throw APIError(415, "unsupported_media_type", .mediaType)
        }
        let object: Any
        do { object = try JSONParse.value(r.body) } catch { throw APIError.notJSON(error) }
        guard let fields = object as? [String: Any] else { throw APIError.bad(.bodyNotObject) }
        let allowed = ["key", "date", "kind", "note"]
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw APIError.bad(.unknownField(unknown, allowed: allowed), field: unknown)
        }
        func text(_ name: String) throws(APIError) -> String? {
            switch fields[name] {
            case nil, is NSNull: return nil
            case let s as String: return s
            default: throw APIError.bad(.notAString(name), field: name)
            }
        }
        guard let key = try text("key"), !key.isEmpty else { throw APIError.bad(.required("key"), field: "key") }
        let date: VisitDate
        let dateText = try text("date") ?? ""
        do { date = try VisitDate(parsing: dateText) } catch { throw APIError.bad(.date(error), field: "date") }
        var kind: VisitKind?
        if let k = try text("kind") {
            guard let parsed = VisitKind(rawValue: k) else {
                throw APIError.bad(.oneOf("kind", VisitKind.allCases.map(\.rawValue), orNull: true, got: k), field: "kind")
            }
            kind = parsed
        }
        let note = try text("note").flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        guard let station = try readers.with({ try $0.store.entries.resolve(key: key) }) else {
            throw APIError(404, "unknown_station", .unknownStation(key))
        }
        let visit: Visit
        do {
            visit = try writer.write(owner: caller.owner) { log in
                try log.add(Visit(stationKey: station.key, date: date, kind: kind, note: note), of: station)
            }
        } catch VisitLogError.duplicate(let v) {
            throw APIError(409, "duplicate_visit", .duplicateVisit(id: v.id, key: v.stationKey, date: v.date.description,
                                                                   kind: v.kind?.rawValue))
        }
        return .json(try visitAnswer(visit, caller), status: 201)
    }

    /// `DELETE /api/visits/{id}` (`X-CSRF-Token`): removes one of the caller's visits; 200 with
    /// it, 404 when the caller has none with that id (another person's visit is none of theirs).
    func removeVisit(_ r: HTTPRequest, _ caller: Caller, id text: String) throws -> HTTPResponse {
        guard let id = Int64(text), id > 0 else { throw APIError.bad(.badVisitID(text)) }
        let removed: Visit
        do {
            removed = try writer.write(owner: caller.owner) { try $0.remove(ids: [id]) }[0]
        } catch VisitLogError.noSuchVisit {
            throw APIError(404, "unknown_visit", .unknownVisit(id))
        }
        return .json(try visitAnswer(removed, caller))
    }

    /// `{"visit": {id, key, date, kind, note}, "visited": …, "completed": …}` as the readers see
    /// the caller's log now.
    func visitAnswer(_ v: Visit, _ caller: Caller) throws -> [UInt8] {
        let completion = try readers.with { ctx in try ctx.snapshot(owner: caller.owner) { $0.completion(of: v.stationKey) } }
        var out: [UInt8] = []
        JSONBytes.append("{\"visit\":", to: &out)
        StationDetail.appendVisit(v, to: &out)
        JSONBytes.append(completion != nil ? ",\"visited\":true,\"completed\":" : ",\"visited\":false,\"completed\":", to: &out)
        JSONBytes.appendOptional(completion?.text, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `GET /api/stats[?by=operator|line|prefecture|class]`: as `eki stats --format json`
    /// (`groups`, `total`, `closed_visited`, `orphaned_keys`; percent with two decimals), under
    /// the caller's counting rules (`ReaderContext.rules(of:)`).
    func stats(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        let p = try APIParameters(r, allowed: ["by"])
        var grouping: VisitGrouping?
        if let by = p["by"] {
            guard let g = VisitGrouping(rawValue: by) else {
                throw APIError.bad(.oneOf("by", VisitGrouping.allCases.map(\.rawValue), got: by))
            }
            grouping = g
        }
        // By line: the unified lines of the line table when the database has one (as `eki stats --by line`).
        let stats = try readers.with { ctx in
            try ctx.snapshot(owner: caller.owner) {
                let rules = try ctx.rules(of: caller.owner)
                return grouping == .line && ctx.store.lines.exists ? try $0.lineStatistics(store: ctx.store, rules: rules)
                    : try $0.statistics(store: ctx.store, by: grouping, rules: rules)
            }
        }
        return .json(stats.json(groupName: grouping?.rawValue ?? "group").text())
    }

    /// `GET /api/geocode?q=[&provider=P[,P]][&limit=10]`: candidate places as `eki geocode
    /// --format geojson` writes them, compact (`GeocodeCandidateJSON.featureCollection`: Points
    /// with `bbox`; properties rank, title, provider), from the same providers, cache and
    /// request spacing. 404 when nothing is found, 502 when a web service fails.
    func geocode(_ r: HTTPRequest) throws -> HTTPResponse {
        let p = try APIParameters(r, allowed: ["q", "provider", "limit"])
        let query = try p.required("q")
        let limit = try p.int("limit", default: 10, min: 1, max: 40)!
        var providers: [GeocodeProvider]?
        if let list = p["provider"] {
            do { providers = try GeocodeProvider.list(parsing: list) } catch { throw APIError.bad(.badProvider(error.description)) }
        }
        let found: [GeocodeCandidate]
        do {
            found = try readers.with { ctx in
                try ctx.geocoder.geocode(query, options: GeocodeOptions(limit: limit, providers: providers))
            }
        } catch let e as GeocodingError {
            switch e {
            case .notFound(let q): throw APIError(404, "not_found", .placeNotFound(q))
            case .badRequest: throw APIError.bad(.geocoderRefused(e.description))
            default: throw APIError(502, "geocoder_failed", .geocoderFailed(e.description))
            }
        }
        return .json(GeocodeCandidateJSON.featureCollection(found).text())
    }
}
