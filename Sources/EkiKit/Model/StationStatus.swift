/// Whether trains still call at a stop: `open`, `suspended` (休止: no trains, the line not
/// abolished), `abolished` (廃止) or `brt` (the rail abolished and replaced by a bus rapid
/// transit on the same route, as 日田彦山線 添田–夜明 since 2023-08-28). Sources give only
/// closed or not; the curated `StationStatuses` table says which.
public enum StationStatus: String, Sendable, Hashable, CaseIterable {
    case open
    case suspended
    case abolished
    case brt

    /// True for `abolished` and `brt`: no rail service and none to come, so the row is closed.
    public var isClosure: Bool { self == .abolished || self == .brt }
}
