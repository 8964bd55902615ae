import EkiKit

/// The station database as a gazetteer: the `stations` provider, offline.
///
/// `小田原駅` and `新横浜` resolve to the place of those stations. Entries of one name (folded,
/// `TextFold.nameKey`) lying within `groupRadius` of each other are one candidate: the five
/// 小田原 entries (JR東海 新幹線, JR東日本, 小田急, 箱根登山, 伊豆箱根) are the one candidate
/// `小田原駅`, at the mean of their points, with the extent of their points as bbox. Entries of
/// one name farther apart (府中 in Tokyo and in Hiroshima) are separate candidates.
///
/// Order: names equal to the query first, then names the query begins (prefix); within each,
/// shorter names first, then by name and position. Closed and retired entries are left out
/// unless `includeClosed`.
///
/// Not thread-safe (it reads through the store's one connection).
public final class StoreGazetteer: StationGazetteer {
    public let store: StationStore
    /// Also match closed entries (retired ones never).
    public let includeClosed: Bool
    /// Entries of one name at most this far apart (metres, geodesic) are one place.
    public static let groupRadius = 1_500.0

    public init(store: StationStore, includeClosed: Bool = false) {
        self.store = store
        self.includeClosed = includeClosed
    }

    /// One entry that a query matched; the unit the name matching hands to the grouping.
    public struct Match: Sendable {
        public var station: Station
        /// The whole name matched (else the query is a prefix of it).
        public var isExact: Bool
        public init(station: Station, isExact: Bool) {
            self.station = station
            self.isExact = isExact
        }
    }

    /// Every entry whose name `query` matches, best first: exact matches, then prefix matches;
    /// within each, shorter names first, then by folded name and key.
    ///
    /// The match is `store.search.stations(matching:)` by name, prefix mode: names, readings and romaji
    /// folded alike (小田原, おだわら, ｵﾀﾞﾜﾗ, odawara), a trailing 駅 ignored (`小田原駅` → 小田原)
    /// unless an entry's official name has it (`富山駅`, the 富山地方鉄道 stop, which comes first).
    /// Exact matches come before prefix ones.
    /// - Throws: `SQLiteError` from the store.
    public func matchingEntries(_ query: String) throws -> [Match] {
        guard !TextFold.nameKey(query).isEmpty else { return [] }
        // Exact and prefix hits on names (also readings and romaji: おだわら, odawara), exact
        // first; an official name with 駅 (富山駅) before the names without it.
        var hits = try store.search.stations(matching: query, options: SearchOptions(by: .name, match: .prefix, limit: nil,
                                                                  includeClosed: includeClosed))
        var seen = Set(hits.map(\.station.key))
        for h in try store.search.stations(matching: query, options: SearchOptions(by: .reading, match: .prefix, limit: nil,
                                                                includeClosed: includeClosed))
        where seen.insert(h.station.key).inserted {
            hits.append(h)
        }
        let typed = TextFold.nameKey(query)
        return hits.enumerated().filter { $0.element.station.retired == nil }
            .sorted { a, b in
                let ra = (a.element.isExact ? 0 : 1, TextFold.nameKey(a.element.station.name) == typed ? 0 : 1, a.offset)
                let rb = (b.element.isExact ? 0 : 1, TextFold.nameKey(b.element.station.name) == typed ? 0 : 1, b.offset)
                return ra < rb
            }
            .map { Match(station: $0.element.station, isExact: $0.element.isExact) }
    }

    /// Up to `limit` places for `query`, best first (see the type's description).
    /// - Throws: `SQLiteError` from the store.
    public func lookup(_ query: String, limit: Int) throws -> [GeocodeCandidate] {
        guard limit > 0 else { return [] }
        var entriesOfName: [[Station]] = []                  // in order of each name's best match
        var index: [String: Int] = [:]
        for m in try matchingEntries(query) {
            let name = TextFold.nameKey(m.station.name)
            if let i = index[name] {
                entriesOfName[i].append(m.station)
            } else {
                index[name] = entriesOfName.count
                entriesOfName.append([m.station])
            }
        }
        let places = entriesOfName.flatMap(Self.groups)
        return places.prefix(limit).map(Self.candidate)
    }

    /// `entries` (one name) split into places (`SingleLink`): two entries within `groupRadius`
    /// are in one place. Order of first appearance is kept.
    static func groups(_ entries: [Station]) -> [[Station]] {
        SingleLink.clusters(entries.map(\.coordinate), within: groupRadius).map { $0.map { entries[$0] } }
    }

    /// One place: titled with the first entry's name plus 駅 (unless it already ends in 駅), at
    /// the mean of the entries' points, with their extent as bbox when they are not all at one
    /// point; all rounded to 1e-7 degree (about 1 cm), which drops floating-point noise.
    static func candidate(_ group: [Station]) -> GeocodeCandidate {
        let name = group[0].name
        let n = Double(group.count)
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / n }
        func r(_ x: Double) -> Double { (x * 1e7).rounded() / 1e7 }
        let lats = group.map(\.coordinate.lat), lons = group.map(\.coordinate.lon)
        let lat = r(mean(lats)), lon = r(mean(lons))
        let box = BoundingBox(minLon: r(lons.min()!), minLat: r(lats.min()!), maxLon: r(lons.max()!), maxLat: r(lats.max()!))
        let flat = box.minLon == box.maxLon && box.minLat == box.maxLat
        return GeocodeCandidate(title: name.hasSuffix("駅") ? name : name + "駅",
                                coordinate: Coordinate(lat: lat, lon: lon), provider: .stations,
                                bbox: flat ? nil : box)
    }
}
