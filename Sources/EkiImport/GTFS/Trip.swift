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
            var unknownRoutes: [String: (line: Int, count: Int)] = [:]
            var repeated = 0
            var firstRepeat: (line: Int, id: String)? = nil
            while let row = try reader.next() {
                let trip = try row.requiredText(tripColumn)
                let route = try row.requiredText(routeColumn)
                let r = routeIndex[route] ?? -1
                if r < 0 { unknownRoutes[route, default: (row.line, 0)].count += 1 }
                if result[trip] != nil {
                    repeated += 1
                    if firstRepeat == nil { firstRepeat = (row.line, trip) }
                    continue
                }
                result[trip] = r
            }
            reader.finish(into: &warnings)
            if repeated > 0, let first = firstRepeat {
                warnings.append(ImportWarning(file: reader.file, line: first.line, field: "trip_id",
                                              message: "\(repeated) repeated trip_id rows (first: '\(first.id)'); the first row is used"))
            }
            for (route, seen) in unknownRoutes.sorted(by: { $0.value.line < $1.value.line }) {
                warnings.append(ImportWarning(file: reader.file, line: seen.line, field: "route_id",
                                              message: "route_id '\(route)' is not in routes.txt (\(seen.count) trips ignored)"))
            }
            return result
        }
    }
}
