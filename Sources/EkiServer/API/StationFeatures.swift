import EkiKit

/// Stations as GeoJSON Features, with exactly the properties `eki … --format geojson` writes:
/// `key`, `name`, `reading`, `latin_name`, `operator`, `operator_id`, `class`, `lines`,
/// `prefecture`, `open`, `sources`, then `distance_m` (metres, one decimal) when a distance is
/// known, then the extra members (`matched_field`, `match`; `visited`, `completed`).
///
/// Each entry's text up to its extras is kept by row id (`FeatureCache`), so a viewport answer is
/// mostly copying.
enum StationFeatures {
    /// `{"type":"Feature","id":…,"geometry":{…},"properties":{…standard members` — no closing braces.
    static func head(_ s: Station) -> [UInt8] {
        var o: [UInt8] = []
        o.reserveCapacity(400)
        JSONBytes.append("{\"type\":\"Feature\",\"id\":", to: &o)
        JSONBytes.appendQuoted(s.key, to: &o)
        JSONBytes.append(",\"geometry\":{\"type\":\"Point\",\"coordinates\":[", to: &o)
        JSONBytes.appendNumber(s.coordinate.lon, to: &o)
        o.append(UInt8(ascii: ","))
        JSONBytes.appendNumber(s.coordinate.lat, to: &o)
        JSONBytes.append("]},\"properties\":{\"key\":", to: &o)
        JSONBytes.appendQuoted(s.key, to: &o)
        JSONBytes.append(",\"name\":", to: &o); JSONBytes.appendQuoted(s.name, to: &o)
        JSONBytes.append(",\"reading\":", to: &o); JSONBytes.appendOptional(s.reading, to: &o)
        JSONBytes.append(",\"latin_name\":", to: &o); JSONBytes.appendOptional(s.latinName, to: &o)
        JSONBytes.append(",\"operator\":", to: &o); JSONBytes.appendOptional(s.operatorName, to: &o)
        JSONBytes.append(",\"operator_id\":", to: &o); JSONBytes.appendQuoted(s.operatorID, to: &o)
        JSONBytes.append(",\"class\":", to: &o); JSONBytes.appendQuoted(s.serviceClass.rawValue, to: &o)
        JSONBytes.append(",\"lines\":", to: &o); JSONBytes.appendStrings(s.lines, to: &o)
        JSONBytes.append(",\"prefecture\":", to: &o); JSONBytes.appendOptional(s.prefecture, to: &o)
        JSONBytes.append(s.isOpen ? ",\"open\":true" : ",\"open\":false", to: &o)
        JSONBytes.append(",\"sources\":", to: &o); JSONBytes.appendStrings(s.sources.map(\.description), to: &o)
        return o
    }

    /// Appends one whole feature: the cached head, `distance_m`, the extras, `visited` and
    /// `completed` (a `YYYY[-MM[-DD]]` date or null).
    static func append(head: [UInt8], distance: Double?, extra: [(String, String)] = [], completion: VisitDate?,
                       to out: inout [UInt8]) {
        out.append(contentsOf: head)
        if let d = distance {
            JSONBytes.append(",\"distance_m\":", to: &out)
            JSONBytes.appendNumber((d * 10).rounded() / 10, to: &out)
        }
        for (k, v) in extra {
            out.append(UInt8(ascii: ",")); JSONBytes.appendQuoted(k, to: &out)
            out.append(UInt8(ascii: ":")); JSONBytes.appendQuoted(v, to: &out)
        }
        JSONBytes.append(completion != nil ? ",\"visited\":true,\"completed\":" : ",\"visited\":false,\"completed\":", to: &out)
        JSONBytes.appendOptional(completion?.text, to: &out)
        JSONBytes.append("}}", to: &out)
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
        let s = try store.station(fid: fid)
        let e = Entry(key: s.key, head: StationFeatures.head(s))
        if entries.count > 200_000 { entries.removeAll(keepingCapacity: true) }
        entries[fid] = e
        return e
    }
}
