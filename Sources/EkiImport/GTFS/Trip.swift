extension GTFS {
    /// trips.txt, reduced to what links stops to routes: trip_id → route (GTFS reference,
    /// trips.txt).
    enum Trip {
        static let file = "trips.txt"
        /// Columns this importer reads and cannot do without (Required in the GTFS reference).
        static let required = ["route_id", "trip_id"]

        /// The route index (into `routes`) of every trip; -1 for a trip naming a route that is
        /// not in routes.txt (one warning per such route_id). A repeated trip_id keeps its first
        /// row (one warning in all).
        /// - Throws: `ImportError` for a missing file or column, bad encoding or an empty id.
        static func routeIndexByTrip(from feed: FeedSource, routeIndex: [String: Int32],
                                     warnings: inout WarningList) throws(ImportError) -> [String: Int32] {
            var reader = try FeedTableReader(feed: feed, name: file, required: required)
            let routeColumn = reader.column("route_id")!
            let tripColumn = reader.column("trip_id")!
            var result: [String: Int32] = [:]
            var repeats = GTFS.RowCount(field: "trip_id") { n, first in "\(n) repeated trip_id rows (first: '\(first)'); the first row is used" }
            var unknownRoutes = GTFS.UnknownIDs(field: "route_id") { route, n in "route_id '\(route)' is not in routes.txt (\(n) trips ignored)" }
            while let row = try reader.next() {
                let trip = try row.requiredText(tripColumn)
                let route = try row.requiredText(routeColumn)
                let r = routeIndex[route] ?? -1
                if r < 0 { unknownRoutes.add(route, line: row.line) }
                if result[trip] != nil {
                    repeats.add(trip, line: row.line)
                    continue
                }
                result[trip] = r
            }
            reader.finish(into: &warnings, repeats, unknownRoutes)
            return result
        }
    }
}
