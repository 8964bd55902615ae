import EkiKit

/// The API's features: `StationFeatureJSON`'s (the properties `eki … --format geojson` writes),
/// then `operator_short` (the short operator name the command line's tables show:
/// `Station.operatorLabel`, 東京メトロ for 東京地下鉄), `visited` and `completed`. Each entry's head (the text up to its extras) is kept by row
/// id (`FeatureCache`), so a viewport answer is mostly copying.
enum StationFeatures {
    /// `StationFeatureJSON.head` and `operator_short`: a feature up to its extras.
    static func head(_ s: Station) -> [UInt8] {
        var head = StationFeatureJSON.head(s)
        StationFeatureJSON.appendMember("operator_short", .optional(s.operatorLabel), to: &head)
        return head
    }

    /// Appends one whole feature: the head (`StationFeatureJSON.head`), `distance_m`, the
    /// extras, `visited` and `completed` (a `YYYY[-MM[-DD]]` date or null).
    static func append(head: [UInt8], distance: Double?, extra: [(String, String)] = [], completion: VisitDate?,
                       to out: inout [UInt8]) {
        out.append(contentsOf: head)
        if let distance { StationFeatureJSON.appendDistance(distance, to: &out) }
        for (k, v) in extra { StationFeatureJSON.appendMember(k, .string(v), to: &out) }
        StationFeatureJSON.appendMember("visited", .bool(completion != nil), to: &out)
        StationFeatureJSON.appendMember("completed", .optional(completion?.text), to: &out)
        StationFeatureJSON.appendEnd(to: &out)
    }
}

/// Feature heads and keys by row id, for one version of the station database (emptied when the
/// file changes). One per worker: not thread-safe.
final class FeatureCache {
    struct Entry {
        var key: String
        var head: [UInt8]
    }
    private var entries: [Int64: Entry] = [:]

    func removeAll() { entries.removeAll(keepingCapacity: true) }

    /// The entries of these row ids, in their order: those not kept yet read by one statement
    /// (`EntryCatalog.stationsByFid`), not one lookup each.
    /// - Throws: `StoreError.noEntry` for a row id of no entry, `SQLiteError`.
    func entries(_ fids: [Int64], store: StationStore) throws -> [Entry] {
        var missing = fids.filter { entries[$0] == nil }
        if !missing.isEmpty {
            if entries.count + missing.count > 200_000 { entries.removeAll(keepingCapacity: true); missing = fids }
            let read = try store.entries.stationsByFid(missing)
            for (fid, s) in read { entries[fid] = Entry(key: s.key, head: StationFeatures.head(s)) }
        }
        return try fids.map { fid in
            if let e = entries[fid] { return e }
            return try entry(fid, store: store)   // no such row: station(fid:) says so
        }
    }

    func entry(_ fid: Int64, store: StationStore) throws -> Entry {
        if let e = entries[fid] { return e }
        let s = try store.entries.station(fid: fid)
        let e = Entry(key: s.key, head: StationFeatures.head(s))
        if entries.count > 200_000 { entries.removeAll(keepingCapacity: true) }
        entries[fid] = e
        return e
    }
}
