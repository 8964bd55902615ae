/// The part of an entry a search matched.
public enum SearchField: String, Hashable, Sendable, Codable, CaseIterable {
    /// The station name (駅名) as published.
    case name
    /// The reading (読み) in kana.
    case reading
    /// The name in Latin script: the source's romanized name, or Hepburn derived from the
    /// reading when no source gives one.
    case romaji
    /// One of the entry's line names (路線), or that name without the operator's brand
    /// (東京メトロ丸ノ内線 → 丸ノ内線), its route number (4号線丸ノ内線 → 丸ノ内線) or with a
    /// bracketed alternative name alone (JR東海道本線(京都線) → 京都線).
    case line
    /// The operator name as published.
    case `operator`
}

/// What a search looks at, how it matches, where, and how many results it returns.
public struct SearchOptions: Hashable, Sendable {
    /// Which fields a query is compared with.
    public enum Scope: String, Hashable, Sendable, CaseIterable {
        /// Station name, and the name in Latin script.
        case name
        /// Reading in kana, and the name in Latin script (romaji spells the reading out).
        case reading
        /// Line names.
        case line
        /// Operator names.
        case `operator`
        /// All of the above.
        case any

        /// The fields searched, in the order a match is attributed to them.
        public var fields: [SearchField] {
            switch self {
            case .name: return [.name, .romaji]
            case .reading: return [.reading, .romaji]
            case .line: return [.line]
            case .operator: return [.operator]
            case .any: return SearchField.allCases
            }
        }
    }

    /// How the folded query is compared with a folded field.
    public enum Match: String, Hashable, Sendable, CaseIterable {
        /// The field starts with the query.
        case prefix
        /// The field contains the query anywhere (prefix matches included, and ranked first).
        case partial
    }

    /// Fields to search (default `.any`).
    public var by: Scope
    /// Prefix (default) or partial.
    public var match: Match
    /// Keep only entries inside this box (edges included), degrees WGS84, RFC 7946 order.
    public var bbox: BoundingBox?
    /// Order results by geodesic distance from this point (WGS84, metres) instead of by reading,
    /// and report the distance.
    public var near: Coordinate?
    /// At most this many results (≥ 1); nil for all of them.
    public var limit: Int?
    /// Also return closed entries.
    public var includeClosed: Bool

    public init(by: Scope = .any, match: Match = .prefix, bbox: BoundingBox? = nil, near: Coordinate? = nil,
                limit: Int? = 20, includeClosed: Bool = false) {
        self.by = by
        self.match = match
        self.bbox = bbox
        self.near = near
        self.limit = limit
        self.includeClosed = includeClosed
    }
}

/// One search result.
public struct SearchHit: Hashable, Sendable {
    /// The entry found.
    public var station: Station
    /// The field that matched (the first in `SearchOptions.Scope.fields` order at the best match).
    public var field: SearchField
    /// True when the field equals the query (after folding; a trailing 駅 in the query ignored).
    public var isExact: Bool
    /// True when the field starts with the query (exact matches included); false for a match
    /// inside the field (partial search only).
    public var isPrefix: Bool
    /// Geodesic distance from `SearchOptions.near` on the WGS84 ellipsoid, metres; nil without it.
    public var distance: Double?

    public init(station: Station, field: SearchField, isExact: Bool, isPrefix: Bool, distance: Double?) {
        self.station = station
        self.field = field
        self.isExact = isExact
        self.isPrefix = isPrefix
        self.distance = distance
    }
}

/// Errors of `SearchIndex.stations(matching:options:)`.
public enum SearchError: Error, CustomStringConvertible, Sendable {
    /// The database was written before search existed and is open read-only, so its search
    /// index cannot be built.
    case indexMissing(String)
    /// `limit` is below 1.
    case invalidLimit(Int)

    public var description: String {
        switch self {
        case .indexMissing(let p):
            return "\(p) has no search index yet: open it writable once (any `eki import` or `eki search` builds it)"
        case .invalidLimit(let n): return "search limit must be at least 1, got \(n)"
        }
    }
}
