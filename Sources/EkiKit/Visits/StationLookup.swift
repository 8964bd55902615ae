import EkiSQLite
import Foundation

/// What a person types to name the station of a visit: a key, or a name narrowed by operator,
/// class and place.
public struct StationQuery: Sendable, Equatable {
    /// A station key (`jr-central/s/小田原`), or a station name compared folded (`TextFold.nameKey`).
    public var text: String
    /// Keep entries whose operator, folded (`TextFold.operatorKey`), equals this one folded.
    public var operatorName: String?
    public var serviceClass: ServiceClass?
    /// Keep entries within `radius` metres (geodesic) of this point.
    public var near: Coordinate?
    /// Metres; 5 km by default (a city's stations of one name, not the next city's).
    public var radius: Double

    public init(text: String, operatorName: String? = nil, serviceClass: ServiceClass? = nil,
                near: Coordinate? = nil, radius: Double = 5_000) {
        self.text = text
        self.operatorName = operatorName
        self.serviceClass = serviceClass
        self.near = near
        self.radius = radius
    }
}

extension StationQuery {
    /// The entries this query may mean in `store`, sorted by key (closed entries included: a visit may
    /// predate a closure). A visit needs exactly one.
    ///
    /// When `text` is a key that `EntryCatalog.resolve(key:)` finds, that entry alone (the narrowing
    /// options must still hold). Otherwise the entries whose name the text matches exactly as
    /// `search` folds names (小田原駅 = 小田原, 霞ケ関 = 霞ヶ関, romaji odawara),
    /// narrowed by operator, class and place.
    /// - Throws: `SQLiteError`.
    public func candidates(in store: StationStore) throws -> [Station] {
        let query = self
        let text = query.text.trimmingCharacters(in: .whitespaces)
        let candidates: [Station]
        if text.contains("/"), let s = try store.entries.resolve(key: text) {
            candidates = [s]
        } else {
            let options = SearchOptions(by: .name, match: .prefix, limit: nil, includeClosed: true)
            candidates = try store.search.stations(matching: text, options: options).filter(\.isExact).map(\.station)
                .filter { $0.retired == nil }.sorted { $0.key < $1.key }
        }
        // The operator as any source or the operator table spells it (JR東海 = 東海旅客鉄道 =
        // jr-central), else as published.
        let table = try store.info.operatorTable()
        let opID = query.operatorName.flatMap { table.operatorID(for: $0) }
        let op = query.operatorName.map(TextFold.operatorKey)
        return try candidates.filter { s in
            try (op == nil || (opID != nil ? s.operatorID == opID : s.operatorName.map(TextFold.operatorKey) == op))
                && (query.serviceClass == nil || s.serviceClass == query.serviceClass)
                && (query.near == nil || Geodesic.distance(query.near!, s.coordinate) <= query.radius)
        }
    }
}
