import EkiKit

extension GTFS {
    /// One row of stops.txt (GTFS reference, stops.txt): a stop or platform (location_type 0),
    /// a station (1), an entrance (2), a generic node (3) or a boarding area (4).
    struct Stop: Sendable {
        static let file = "stops.txt"
        /// Columns this importer reads and cannot do without. stop_name, stop_lat and stop_lon
        /// are Conditionally Required in the reference (required for location_type 0, 1, 2,
        /// i.e. for every feed with stops).
        static let required = ["stop_id", "stop_name", "stop_lat", "stop_lon"]

        /// `stop_id`, trimmed.
        var id: String
        /// `stop_name`, trimmed; may be empty for location_type 3 and 4.
        var name: String
        /// Degrees WGS84; nil only for location_type 3 and 4 without coordinates.
        var coordinate: Coordinate?
        /// 0 stop/platform, 1 station, 2 entrance/exit, 3 generic node, 4 boarding area.
        var locationType: Int
        /// `parent_station`, trimmed; "" when none.
        var parentId: String
        /// 1-based line in stops.txt, for warnings.
        var line: Int

        /// Every stop in file order. A repeated stop_id keeps the first row (warning).
        /// - Throws: `ImportError` naming the field for a missing file or column, bad
        ///   encoding, an empty stop_id, a location_type outside 0–4, or a stop, station or
        ///   entrance (location_type 0–2) without a name or without valid coordinates
        ///   (latitude -90…90, longitude -180…180, degrees; (0, 0) is "no position"). With
        ///   `skipInvalid`, such a stop is left out and counted in `skipped` instead, and the
        ///   error names `--skip-invalid` otherwise.
        static func readAll(from feed: FeedSource, skipInvalid: Bool = false, skipped: inout SkippedRows,
                            warnings: inout WarningList) throws(ImportError) -> [Stop] {
            var reader = try FeedTableReader(feed: feed, name: file, required: required)
            let idColumn = reader.column("stop_id")!
            let nameColumn = reader.column("stop_name")!
            let latColumn = reader.column("stop_lat")!
            let lonColumn = reader.column("stop_lon")!
            let typeColumn = reader.column("location_type")
            let parentColumn = reader.column("parent_station")
            var stops: [Stop] = []
            var ids = GTFS.FirstRows(field: "stop_id")
            while let row = try reader.next() {
                let id = try row.requiredText(idColumn)
                var locationType = 0
                if let typeColumn, !row.text(typeColumn).isEmpty {
                    guard let t = Int(row.text(typeColumn)), (0...4).contains(t) else {
                        throw row.error(column: typeColumn, "'\(row.text(typeColumn))' is not a location type (0–4)")
                    }
                    locationType = t
                }
                let needsPlace = locationType <= 2
                // The stop's place: name and position, or (with --skip-invalid) none.
                let name: String
                var coordinate: Coordinate? = nil
                do throws(ImportError) {
                    name = needsPlace ? try row.requiredText(nameColumn) : row.text(nameColumn)
                    let latText = row.text(latColumn), lonText = row.text(lonColumn)
                    if needsPlace || !latText.isEmpty || !lonText.isEmpty {
                        if latText.isEmpty { throw row.error(column: latColumn, "stop '\(id)' has no latitude") }
                        if lonText.isEmpty { throw row.error(column: lonColumn, "stop '\(id)' has no longitude") }
                        let lat = try row.double(latColumn), lon = try row.double(lonColumn)
                        guard (-90...90).contains(lat) else { throw row.error(column: latColumn, "latitude \(lat) is outside -90…90") }
                        guard (-180...180).contains(lon) else { throw row.error(column: lonColumn, "longitude \(lon) is outside -180…180") }
                        if PositionChecks.isPlaceholder(lat: lat, lon: lon) {
                            throw row.error(column: latColumn, "stop '\(id)': \(PositionChecks.placeholderMessage)")
                        }
                        coordinate = Coordinate(lat: lat, lon: lon)
                    }
                } catch {
                    if skipInvalid { skipped.add(error); continue }
                    var e = error
                    e.message += " (--skip-invalid skips stops without a usable position or name)"
                    throw e
                }
                guard ids.isFirst(id, line: row.line, file: reader.file, warnings: &warnings) else { continue }
                stops.append(Stop(id: id, name: name, coordinate: coordinate, locationType: locationType,
                                  parentId: row.text(parentColumn), line: row.line))
            }
            reader.finish(into: &warnings)
            return stops
        }
    }
}
