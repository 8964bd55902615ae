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
