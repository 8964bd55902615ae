/// The service class of an entry in the 降りつぶし entry rule: one operator's Shinkansen lines at a
/// place are one entry, its conventional (在来線) lines another.
public enum ServiceClass: String, Hashable, Sendable, Codable, CaseIterable {
    /// 新幹線 (in N02: N02_002 = 1 "JR新幹線"; in station_database: line codes 1001–1099).
    case shinkansen
    /// Every other railway, tram, monorail, AGT or funicular line.
    case conventional
}
