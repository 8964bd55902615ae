/// Which open entries count in n/m (`eki stats`, `eki lines`, `eki line`): the rules. Which visits
/// count (a `pass` never does) is `VisitCounting`.
///
/// - `oritsubushi` (the default): 降りつぶし.net's rules. Its page on the stations it lists
///   (oritsubushi.net/article.php/database_about) admits only stations
///   "休止の届出がなされておらず、概ね1年に1日以上定期的に団体専用でない旅客列車が発着し旅客扱いを行なっている",
///   so a suspended station (`StationStatus.suspended`: 肥薩線 八代–吉松, 米坂線 今泉–坂町,
///   津軽線 蟹田–三厩) does not count; 臨時駅 count.
/// - `all`: every open entry counts, suspended or not.
///
/// Staff-only stops are left out under both unless asked for (`--include-staff-only`).
public enum CountingRules: String, Sendable, Hashable, CaseIterable {
    case oritsubushi
    case all

    /// The rules used when none is given.
    public static let `default` = CountingRules.oritsubushi

    /// Whether `station` counts under these rules: open, and not suspended under `oritsubushi`.
    public func counts(_ station: Station) -> Bool {
        guard station.isOpen else { return false }
        switch self {
        case .oritsubushi: return station.status != .suspended
        case .all: return true
        }
    }

    /// Keys of the open entries of `store` these rules leave out (the suspended ones under
    /// `oritsubushi`; none under `all`).
    /// - Throws: `SQLiteError`.
    public func excludedKeys(store: StationStore) throws -> Set<String> {
        guard self == .oritsubushi else { return [] }
        let table = StationStatuses.builtIn
        let operators = table.entries.filter { $0.status == .suspended }.map(\.operatorID)
        // Only the open entries of operators with a suspended row can be suspended.
        return Set(try store.entries.openKeysAndNames(operatorIDs: operators).filter {
            table.entry(operatorID: $0.operatorID, nameKey: TextFold.nameKey($0.name))?.status == .suspended
        }.map(\.key))
    }
}
