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
            var unknownTrips = 0
            var firstUnknownTrip: (line: Int, id: String)? = nil
            var unknownStops: [String: (line: Int, count: Int)] = [:]
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
                    unknownTrips += 1
                    if firstUnknownTrip == nil { firstUnknownTrip = (row.line, trip) }
                    continue
                }
                if route < 0 { continue }               // its route is unknown (warned in trips.txt)
                guard let s = stopIndex[stop] else {
                    unknownStops[stop, default: (row.line, 0)].count += 1
                    continue
                }
                if !routes[s].contains(route) { routes[s].append(route) }
            }
            reader.finish(into: &warnings)
            if let first = firstUnknownTrip {
                warnings.append(ImportWarning(file: reader.file, line: first.line, field: "trip_id",
                                              message: "\(unknownTrips) rows name a trip_id that is not in trips.txt (first: '\(first.id)'); ignored"))
            }
            for (stop, seen) in unknownStops.sorted(by: { $0.value.line < $1.value.line }) {
                warnings.append(ImportWarning(file: reader.file, line: seen.line, field: "stop_id",
                                              message: "stop_id '\(stop)' is not in stops.txt (\(seen.count) rows ignored)"))
            }
            return routes
        }
    }
}
