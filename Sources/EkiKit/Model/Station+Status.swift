extension Station {
    /// Whether trains call here (`StationStatus`): the status `StationStatuses.builtIn` lists for
    /// the entry's operator and name, else `open` for an open entry and `abolished` for a closed
    /// one. 肥薩線 八代–吉松's stations are open entries with status `suspended`.
    public var status: StationStatus {
        if let e = StationStatuses.builtIn.entry(of: self) {
            return isOpen && e.status.isClosure ? .open : (!isOpen && e.status == .suspended ? .abolished : e.status)
        }
        return isOpen ? .open : .abolished
    }

    /// The first day in `status` (`YYYY-MM-DD`, `YYYY-MM` or `YYYY`) when `StationStatuses.builtIn`
    /// gives it; nil otherwise (an open entry, a closure the table does not list).
    public var statusSince: String? {
        guard let e = StationStatuses.builtIn.entry(of: self),
              e.status == status else { return nil }
        return e.since
    }
}
