import EkiKit

extension GTFS {
    /// One row of routes.txt: a line of one agency (GTFS reference, routes.txt).
    struct Route: Sendable {
        static let file = "routes.txt"
        /// Columns this importer reads and cannot do without (Required in the GTFS reference).
        static let required = ["route_id", "route_type"]

        /// `route_id`, trimmed.
        var id: String
        /// `agency_id`, trimmed; "" when absent.
        var agencyId: String
        var shortName: String
        var longName: String
        /// `route_type`: basic (0–12) or extended (100–1702) code; see `GTFSModes`.
        var type: Int
        /// 1-based line in routes.txt, for warnings.
        var line: Int

        /// The line name shown on entries: route_long_name, except that route_short_name is
        /// taken when only it is written in Japanese (Port Liner: `空港線` beside
        /// `Port Liner / Airport line`) or the long name is empty. Nil when both are empty.
        var lineName: String? {
            if longName.isEmpty { return shortName.isEmpty ? nil : shortName }
            if !TextFold.isJapanese(longName) && TextFold.isJapanese(shortName) { return shortName }
            return longName
        }

        /// High-speed rail: extended type 101, or a railway route (2, 100–117) whose name
        /// contains 新幹線.
        var isShinkansen: Bool {
            if type == 101 { return true }
            guard GTFSModes.mode(ofRouteType: type) == .railway else { return false }
            return shortName.contains("新幹線") || longName.contains("新幹線")
        }

        /// Every route in file order. A repeated route_id keeps the first row (warning).
        /// - Throws: `ImportError` for a missing file or column, bad encoding, an empty
        ///   route_id, or a route_type that is not an integer.
        static func readAll(from feed: FeedSource, warnings: inout WarningList) throws(ImportError) -> [Route] {
            var reader = try FeedTableReader(feed: feed, name: file, required: required)
            let idColumn = reader.column("route_id")!
            let typeColumn = reader.column("route_type")!
            let agencyColumn = reader.column("agency_id")
            let shortColumn = reader.column("route_short_name")
            let longColumn = reader.column("route_long_name")
            var routes: [Route] = []
            var ids = GTFS.FirstRows(field: "route_id")
            while let row = try reader.next() {
                let id = try row.requiredText(idColumn)
                let typeText = try row.requiredText(typeColumn)
                guard let type = Int(typeText) else {
                    throw row.error(column: typeColumn, "'\(typeText)' is not an integer route type")
                }
                guard ids.isFirst(id, line: row.line, file: reader.file, warnings: &warnings) else { continue }
                routes.append(Route(id: id, agencyId: row.text(agencyColumn), shortName: row.text(shortColumn),
                                    longName: row.text(longColumn), type: type, line: row.line))
            }
            reader.finish(into: &warnings)
            return routes
        }
    }
}
