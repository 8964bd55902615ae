import Foundation
import EkiKit

/// Reads the stations of a GTFS or GTFS-JP feed — a directory or a `.zip` (read with
/// libarchive, not extracted) — into source records for the entry rule.
///
/// What it reads (GTFS reference, gtfs.org/schedule/reference; GTFS-JP 標準的なバス情報フォーマット):
/// - agency.txt → operator: `operatorName` = agency_name, `operatorRef` = agency_id, trimmed
///   (GTFS-JP: 法人番号 + `_n`, e.g. `7140001011983_1`).
/// - routes.txt → lines; `route_type` selects the routes (`modes`, rail-like by default). A
///   route of extended type 101, or a railway route named …新幹線…, is `.shinkansen`; every
///   other selected route `.conventional`.
/// - trips.txt + stop_times.txt (streamed) → which routes call at which stops. Stops reached by
///   no trip of a selected route are not stations. A second pass reads the trips' patterns
///   (`stop_sequence`) into `lineOrder`, the station's position along its agency's lines
///   (`GTFS.TripPatterns`).
/// - stops.txt → places. A stop with a `parent_station` of location_type 1 counts as its
///   station (one record at the station's point); any other stop is a record of its own. Feeds
///   without stations usually have one pole per direction (`10_01`, `10_02`): these come out
///   as one record each, and `EntryRule` joins the poles of one operator with the same name
///   within 1.5 km into one entry, listing every stop_id among its sources.
/// - translations.txt (both layouts) → `reading` from `ja-Hrkt` (NFKC, katakana folded to
///   hiragana), `latinName` from `en`.
///
/// Output: one `SourceRecord` per place (station or lone stop) × agency × service class, with
/// every selected route calling there in `lines` (routes.txt order); source
/// `gtfs/<feed name>:<stop_id of the station or stop>`.
///
/// Strict about what it reads: a file that is not UTF-8 (UTF-16, invalid bytes), a NUL byte, a
/// missing agency/stops/routes/trips/stop_times file, a missing required column, a row with
/// more non-empty fields than its header, or a stop without a name or coordinates throws an
/// `ImportError` naming the file (inside a zip: `feed.zip/stops.txt`), line, column and field.
/// It is not a feed validator: columns and files it does not read (calendar, fares, shapes)
/// are not checked. Warnings (unknown files, unused stops, unknown references, repeated ids,
/// rows missing trailing fields as in Google's sample feed) are returned in the batch.
public struct GTFSImporter: StationImporter, Sendable {
    /// The feed: a directory or a zip file.
    public var path: String
    /// Which route types count (see `GTFSModes`).
    public var modes: GTFSModes
    /// Used in the dataset name `gtfs/<feedName>`.
    public var feedName: String
    /// The bounds the feed is read within (zip members, fields and lines, warnings kept).
    public var limits = ImportLimits()
    /// Skip stops (location_type 0–2) without a usable position or name, counted in
    /// `ImportBatch.skipped`, instead of refusing the feed (`--skip-invalid`).
    public var skipInvalid = false

    /// - Parameters:
    ///   - path: a feed directory or `.zip` file.
    ///   - modes: the route types to import; rail-like modes by default.
    ///   - feedName: the name in `gtfs/<feedName>`; by default the last path component without
    ///     `.zip` (e.g. `gtfs-PortLiner2025v1`).
    public init(path: String, modes: GTFSModes = .rail, feedName: String? = nil) {
        self.path = path
        self.modes = modes
        if let feedName {
            self.feedName = feedName
        } else {
            var name = URL(fileURLWithPath: path).lastPathComponent
            if name.lowercased().hasSuffix(".zip") { name.removeLast(4) }
            self.feedName = name
        }
    }

    /// True when `path` is a directory or a zip archive holding both stops.txt and routes.txt
    /// (at its root or in one folder). Never throws; unreadable paths are not GTFS.
    public static func looksLikeGTFS(path: String) -> Bool {
        guard let feed = try? FeedSource(path: path) else { return false }
        return feed.contains("stops.txt") && feed.contains("routes.txt")
    }

    /// Reads the feed.
    /// - Returns: `ImportBatch(dataset: "gtfs/<feedName>", records:, warnings:)`.
    /// - Throws: `ImportError` as described on the type; nothing is returned then.
    public func read() throws(ImportError) -> ImportBatch {
        let feed = try FeedSource(path: path, limits: limits)
        var warnings = WarningList(limit: limits.maxWarnings)
        var skipped = SkippedRows()
        for name in feed.files where !GTFSImporter.knownFiles.contains(name) {
            warnings.append(ImportWarning(file: feed.displayName(name), message: "unknown file, ignored"))
        }
        let agencies = try GTFS.Agency.readAll(from: feed, warnings: &warnings)
        let routes = try GTFS.Route.readAll(from: feed, warnings: &warnings)
        let stops = try GTFS.Stop.readAll(from: feed, skipInvalid: skipInvalid, skipped: &skipped, warnings: &warnings)
        let translations = try GTFS.Translations.read(from: feed, warnings: &warnings)

        var routeIndex: [String: Int32] = [:]
        for (i, r) in routes.enumerated() { routeIndex[r.id] = Int32(i) }
        var stopIndex: [String: Int] = [:]
        for (i, s) in stops.enumerated() { stopIndex[s.id] = i }

        let tripRoutes = try GTFS.Trip.routeIndexByTrip(from: feed, routeIndex: routeIndex, warnings: &warnings)
        let routesByStop = try GTFS.StopTime.routesByStop(from: feed, stopIndex: stopIndex, stopCount: stops.count,
                                                          routeIndexByTrip: tripRoutes, warnings: &warnings)
        let agencyOfRoute = resolveAgencies(routes: routes, agencies: agencies, feed: feed, warnings: &warnings)
        let patterns = try GTFS.TripPatterns.read(
            from: feed, stops: stops, stopIndex: stopIndex, routes: routes, routeIndexByTrip: tripRoutes,
            agencyOfRoute: agencyOfRoute, include: { modes.includes(routeType: $0.type) }, warnings: &warnings)

        let dataset = "gtfs/\(feedName)"
        let records = buildRecords(
            stops: stops, stopIndex: stopIndex, routes: routes, routesByStop: routesByStop,
            agencies: agencies, agencyOfRoute: agencyOfRoute, translations: translations,
            dataset: dataset, file: feed.displayName(GTFS.Stop.file), patterns: patterns, warnings: &warnings)
        var batch = ImportBatch(dataset: dataset, records: records, warnings: warnings, skipped: skipped)
        if records.isEmpty { batch.emptyReason = emptyReason(routes: routes) }
        return batch
    }

    /// Why a feed gave no stations: how many routes of which types `modes` left out and the
    /// option that takes them, or that no selected route serves a stop.
    func emptyReason(routes: [GTFS.Route]) -> String {
        var skipped: [(name: String, types: Set<Int>, count: Int)] = []
        for r in routes where !modes.includes(routeType: r.type) {
            let m = GTFSModes.mode(ofRouteType: r.type)
            let name = GTFSModes.names.first { $0.modes == m }?.name ?? "other"
            if let i = skipped.firstIndex(where: { $0.name == name }) {
                skipped[i].types.insert(r.type)
                skipped[i].count += 1
            } else {
                skipped.append((name, [r.type], 1))
            }
        }
        guard !skipped.isEmpty else {
            return routes.isEmpty ? "routes.txt has no routes" : "no stop is served by a trip of the \(routes.count) selected route\(routes.count == 1 ? "" : "s")"
        }
        let list = skipped.map { "\($0.count) \($0.name) (route_type \($0.types.sorted().map(String.init).joined(separator: ", ")))" }
        let excluded = skipped.reduce(0) { $0 + $1.count }
        let all = excluded == routes.count ? "all \(routes.count) routes" : "\(excluded) of \(routes.count) routes"
        return "\(all) are excluded by --modes: \(list.joined(separator: ", ")); --modes \(skipped.map(\.name).joined(separator: ",")) includes them"
    }

    /// The agency index of every route: its agency_id's agency, or the only agency when it has
    /// none; nil (unknown operator, with a warning) otherwise.
    func resolveAgencies(routes: [GTFS.Route], agencies: [GTFS.Agency], feed: FeedSource,
                         warnings: inout WarningList) -> [Int?] {
        var byId: [String: Int] = [:]
        for (i, a) in agencies.enumerated() where byId[a.id] == nil { byId[a.id] = i }
        let file = feed.displayName(GTFS.Route.file)
        return routes.map { route -> Int? in
            if route.agencyId.isEmpty {
                if agencies.count == 1 { return 0 }
                warnings.append(ImportWarning(file: file, line: route.line, field: "agency_id",
                                              message: "route '\(route.id)' names no agency and the feed has \(agencies.count); operator unknown"))
                return nil
            }
            if let i = byId[route.agencyId] { return i }
            warnings.append(ImportWarning(file: file, line: route.line, field: "agency_id",
                                          message: "agency_id '\(route.agencyId)' is not in agency.txt; operator unknown"))
            return nil
        }
    }

    /// One record per place × agency × class, in stops.txt order.
    func buildRecords(stops: [GTFS.Stop], stopIndex: [String: Int], routes: [GTFS.Route],
                      routesByStop: [[Int32]], agencies: [GTFS.Agency], agencyOfRoute: [Int?],
                      translations: GTFS.Translations, dataset: String, file: String,
                      patterns: GTFS.TripPatterns? = nil, warnings: inout WarningList) -> [SourceRecord] {
        struct Group: Hashable {
            var place: Int
            var agency: Int          // -1: unknown
            var shinkansen: Bool
        }
        var routesOfGroup: [Group: [Int32]] = [:]
        for s in stops.indices {
            let served = routesByStop[s]
            if served.isEmpty {
                if stops[s].locationType == 0 {
                    warnings.append(ImportWarning(file: file, line: stops[s].line, field: "stop_id",
                                                  message: "stop '\(stops[s].id)' (\(stops[s].name)) is served by no trip"))
                }
                continue
            }
            let selected = served.filter { modes.includes(routeType: routes[Int($0)].type) }
            if selected.isEmpty { continue }
            var place = s
            let parentId = stops[s].parentId
            if !parentId.isEmpty {
                if let p = stopIndex[parentId], stops[p].locationType == 1 {
                    place = p
                } else {
                    warnings.append(ImportWarning(file: file, line: stops[s].line, field: "parent_station",
                                                  message: "parent_station '\(parentId)' is not a station (location_type 1) in stops.txt; the stop stands alone"))
                }
            }
            for r in selected {
                let route = routes[Int(r)]
                let g = Group(place: place, agency: agencyOfRoute[Int(r)] ?? -1, shinkansen: route.isShinkansen)
                if !(routesOfGroup[g]?.contains(r) ?? false) { routesOfGroup[g, default: []].append(r) }
            }
        }
        let groups = routesOfGroup.keys.sorted {
            ($0.place, $0.agency, $0.shinkansen ? 1 : 0) < ($1.place, $1.agency, $1.shinkansen ? 1 : 0)
        }
        var records: [SourceRecord] = []
        records.reserveCapacity(groups.count)
        for g in groups {
            let stop = stops[g.place]
            guard let coordinate = stop.coordinate else {
                warnings.append(ImportWarning(file: file, line: stop.line, field: "stop_lat",
                                              message: "stop '\(stop.id)' is served but has no coordinates; skipped"))
                continue
            }
            var lines: [String] = []
            for r in routesOfGroup[g]!.sorted() {
                if let name = routes[Int(r)].lineName, !lines.contains(name) { lines.append(name) }
            }
            let agency = g.agency >= 0 ? agencies[g.agency] : nil
            let reading = translations.stopName(id: stop.id, name: stop.name, language: "ja-Hrkt")
                .map { TextFold.hiragana(TextFold.nfkc($0)) }
            let latin = translations.stopName(id: stop.id, name: stop.name, language: "en")
            records.append(SourceRecord(
                source: SourceRef(dataset: dataset, id: stop.id), name: stop.name,
                reading: reading, latinName: latin,
                operatorName: agency?.name, operatorRef: agency.flatMap { $0.id.isEmpty ? nil : $0.id },
                serviceClass: g.shinkansen ? .shinkansen : .conventional,
                lines: lines, coordinate: coordinate,
                lineOrder: patterns?.order[.init(agency: g.agency, shinkansen: g.shinkansen, name: stop.name)]))
        }
        return records
    }

    /// Files of GTFS (reference, 2024) and GTFS-JP (agency_jp, office_jp, routes_jp,
    /// pattern_jp); anything else is warned about as unknown.
    static let knownFiles: Set<String> = [
        "agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt",
        "calendar_dates.txt", "fare_attributes.txt", "fare_rules.txt", "timeframes.txt",
        "rider_categories.txt", "fare_media.txt", "fare_products.txt", "fare_leg_rules.txt",
        "fare_leg_join_rules.txt", "fare_transfer_rules.txt", "areas.txt", "stop_areas.txt",
        "networks.txt", "route_networks.txt", "shapes.txt", "frequencies.txt", "transfers.txt",
        "pathways.txt", "levels.txt", "location_groups.txt", "location_group_stops.txt",
        "locations.geojson", "booking_rules.txt", "translations.txt", "feed_info.txt",
        "attributions.txt",
        "agency_jp.txt", "office_jp.txt", "routes_jp.txt", "pattern_jp.txt",
    ]
}
