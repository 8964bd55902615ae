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

    func entry(_ fid: Int64, store: StationStore) throws -> Entry {
        if let e = entries[fid] { return e }
        let s = try store.entries.station(fid: fid)
        let e = Entry(key: s.key, head: StationFeatures.head(s))
        if entries.count > 200_000 { entries.removeAll(keepingCapacity: true) }
        entries[fid] = e
        return e
    }
}
