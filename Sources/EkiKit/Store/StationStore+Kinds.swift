/// Entries by kind of stop (`StationKind`): what totals leave out by default.
extension StationStore {
    /// Keys of the entries of `kind` (open, closed and retired alike).
    /// - Throws: `SQLiteError`.
    public func keys(of kind: StationKind) throws -> Set<String> {
        let s = try db.prepare("SELECT key FROM stations WHERE coalesce(kind, 'regular') = ?")  // NULL: regular
        s.bind(kind.rawValue, at: 1)
        var out = Set<String>()
        while try s.step() { out.insert(s.text(0)) }
        return out
    }
}

extension Line {
    /// The line without the entries of `keys` (staff-only stops, which totals leave out unless
    /// asked for): its `total` counts the rest.
    public func without(_ keys: Set<String>) -> Line {
        guard !keys.isEmpty else { return self }
        var l = self
        l.stationKeys.removeAll { keys.contains($0) }
        return l
    }
}
