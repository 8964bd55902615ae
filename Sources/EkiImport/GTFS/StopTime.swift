extension GTFS {
    /// stop_times.txt, streamed once to find which routes call at which stops (GTFS reference,
    /// stop_times.txt). It is the largest file of a feed; no row is kept.
    enum StopTime {
        static let file = "stop_times.txt"
        /// Columns this importer reads and cannot do without. (stop_id is Conditionally
        /// Required: flexible-service rows without it are skipped.)
        static let required = ["trip_id", "stop_id"]

        /// For every stop (index into `stops`), the indices of the routes whose trips call at
        /// it, in first-seen order. Rows naming a stop that is not in stops.txt are skipped with
        /// one warning per stop_id; rows naming a trip that is not in trips.txt with one
        /// warning in all; rows of trips whose route is unknown silently (warned before).
        /// - Throws: `ImportError` for a missing file or column, bad encoding, CSV syntax
        ///   errors, ragged rows or an empty trip_id.
        static func routesByStop(from feed: FeedSource, stopIndex: [String: Int], stopCount: Int,
                                 routeIndexByTrip: [String: Int32],
                                 warnings: inout WarningList) throws(ImportError) -> [[Int32]] {
            var reader = try FeedTableReader(feed: feed, name: file, required: required)
            let tripColumn = reader.column("trip_id")!
            let stopColumn = reader.column("stop_id")!
            var routes = [[Int32]](repeating: [], count: stopCount)
            var unknownTrips = GTFS.RowCount(field: "trip_id") { n, first in
                "\(n) rows name a trip_id that is not in trips.txt (first: '\(first)'); ignored"
            }
            var unknownStops = GTFS.UnknownIDs(field: "stop_id") { stop, n in "stop_id '\(stop)' is not in stops.txt (\(n) rows ignored)" }
            // Rows of one trip are usually consecutive: look the trip up once per run.
            var lastTrip = ""
            var lastRoute: Int32? = nil
            while let row = try reader.next() {
                let trip = try row.requiredText(tripColumn)
                let stop = row.text(stopColumn)
                if stop.isEmpty { continue }
                if trip != lastTrip {
                    lastTrip = trip
                    lastRoute = routeIndexByTrip[trip]
                }
                guard let route = lastRoute else {
                    unknownTrips.add(trip, line: row.line)
                    continue
                }
                if route < 0 { continue }               // its route is unknown (warned in trips.txt)
                guard let s = stopIndex[stop] else {
                    unknownStops.add(stop, line: row.line)
                    continue
                }
                if !routes[s].contains(route) { routes[s].append(route) }
            }
            reader.finish(into: &warnings, unknownTrips, unknownStops)
            return routes
        }
    }
}
