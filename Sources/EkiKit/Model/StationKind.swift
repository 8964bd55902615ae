/// What kind of stop an entry is, as a rider meets it: an ordinary station, one served only in
/// a season (臨時駅), or one where passengers may not get on or off (a staff-only stop of a
/// tourist line). Sources that say so are listed in `StationKinds`; every other entry is
/// `regular`. Staff-only stops are left out of totals unless asked for.
public enum StationKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case regular
    case seasonal
    case staffOnly = "staff-only"

    /// Order of precedence when an entry's rows disagree: the more restricted kind wins
    /// (`regular` < `seasonal` < `staff-only`).
    public static func < (a: StationKind, b: StationKind) -> Bool { a.rank < b.rank }

    var rank: Int {
        switch self {
        case .regular: 0
        case .seasonal: 1
        case .staffOnly: 2
        }
    }
}
