import EkiKit

/// `eki search QUERY [--by F] [--match M] [--bbox B] [--near LAT,LON] [--limit N]`: entries by
/// name, reading, romaji, line or operator.
struct SearchCommand: Command {
    static let summary = "find entries by name, reading, romaji, line or operator"
    static let help = """
    usage: eki search [--db PATH] QUERY [--by F] [--match M] [--bbox minLon,minLat,maxLon,maxLat]
                      [--near LAT,LON] [--limit N] [--prefecture P] [--include-closed] [--visited|--unvisited]
                      [--format F]

    Finds entries whose name, reading (読み), romaji, line or operator matches QUERY. Query and
    data are folded alike: hiragana = katakana = half-width kana (おだわら, オダワラ, ｵﾀﾞﾜﾗ),
    romaji with or without macrons (odawara, Tōkyō), ヶ = ケ = が, ッ = ツ, spaces and ・
    ignored; a trailing 駅 is ignored (小田原駅), yet names ending in 駅 (富山駅) still match.
    Results: exact matches first, then prefix, then (partial) matches inside a field; the
    station's own name before its lines and operator; then nearest first with --near, else by
    reading.
      --by F             name, reading, line, operator or any (default any); name and reading
                         include romaji; with line, a QUERY that names a line (`eki lines`:
                         any of its names, or a common name such as 山形新幹線) lists that
                         line's entries in order along it
      --match M          prefix (default) or partial (anywhere in the field, 1 character or more)
      --bbox B           only entries in this box (degrees WGS84, RFC 7946 order)
      --near LAT,LON     order by geodesic distance from this point (metres in the output)
      --limit N          at most N entries (default 20)
      --prefecture P     only entries in prefecture P (神奈川県)
      --include-closed   also list closed stations
      --format F         table (default), json, geojson or csv; json, geojson and csv add
                         matched_field and match (exact, prefix or partial)
    \(TableWidth.help)\(VisitOptions.help)\(DatabaseOption.help)
    Examples:
      eki search ｵﾀﾞﾜﾗ
      eki search 霞ケ関
      eki search 田原 --match partial
      eki search 東海道 --by line --bbox 138.9,35.0,139.9,35.7
      eki search shin --near 35.681,139.767 --limit 5
    """

    let args: Arguments
    let console: Console
    let visitOptions: VisitOptions
    let query: String
    let options: SearchOptions
    let format: OutputFormat

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: Set(["db", "by", "match", "bbox", "near", "limit", "format", "prefecture"]).union(VisitOptions.valued),
                             flags: Set(["include-closed", "wide"]).union(VisitOptions.flags))
        self.console = console
        visitOptions = try VisitOptions(args, console)
        query = try args.query()
        var o = SearchOptions(includeClosed: args.has("include-closed"))
        if let by = args["by"] {
            guard let s = SearchOptions.Scope(rawValue: by) else {
                throw UsageError("--by must be one of \(SearchOptions.Scope.allCases.map(\.rawValue).joined(separator: ", ")), got '\(by)'")
            }
            o.by = s
        }
        if let m = args["match"] {
            guard let match = SearchOptions.Match(rawValue: m) else {
                throw UsageError("--match must be prefix or partial, got '\(m)'")
            }
            o.match = match
        }
        if let b = args["bbox"] {
            do { o.bbox = try BoundingBox(parsing: b) } catch { throw UsageError(error.description) }
        }
        if let n = args["near"] { o.near = try Self.point(n) }
        o.limit = try args.int("limit", default: 20, min: 1)
        options = o
        format = try OutputFormat(option: args["format"])
    }

    /// `LAT,LON` in degrees.
    static func point(_ text: String) throws(UsageError) -> Coordinate {
        let parts = text.split(separator: ",").map { DecimalNumber.parse($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1],
              (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw UsageError("--near needs LAT,LON in degrees (latitude first), got '\(text)'")
        }
        return Coordinate(lat: lat, lon: lon)
    }

    func run() throws -> Int32 {
        let path = DatabaseOption.path(args, console)
        let store: StationStore
        do {
            store = try StationStore(path: path, readOnly: true)
        } catch StoreError.schemaVersion(_, found: 2, expected: _) {
            // Written before search existed: opening it writable adds the search index.
            console.err("adding the search index to \(path)…\n")
            store = try StationStore(path: path)
        }
        // With --visited/--unvisited the filter comes before the limit (as on bbox and nearest).
        let visits = try visitOptions.load(store: store)
        var searchOptions = options
        if visits != nil && visitOptions.filter != .all { searchOptions.limit = nil }
        // --by line: a query naming a line (any of its names, a common name: 山形新幹線) gives
        // that line's entries in order along it; other queries match line names as text.
        // --prefecture filters before the limit.
        let prefecture = args["prefecture"]
        let lineHits = options.by == .line ? try store.lines.stationHits(named: query, options: options) : nil
        if lineHits != nil || prefecture != nil { searchOptions.limit = nil }
        var hits = try lineHits ?? store.search.stations(matching: query, options: searchOptions)
        if let prefecture { hits = hits.filter { $0.station.prefecture == prefecture } }
        var total = hits.count
        if lineHits != nil || prefecture != nil, visits == nil || visitOptions.filter == .all {
            hits = Array(hits.prefix(options.limit ?? Int.max))
        }
        if let visits, visitOptions.filter != .all {
            let kept = Set(visits.filter(hits.map(\.station), visitOptions.filter).map(\.key))
            hits = hits.filter { kept.contains($0.station.key) }
            total = hits.count
            hits = Array(hits.prefix(options.limit ?? Int.max))
        } else if lineHits == nil, prefecture == nil, let limit = options.limit, hits.count == limit {
            var all = options
            all.limit = nil
            total = try store.search.stations(matching: query, options: all).count
        }
        if total > hits.count { LimitNotice.report(shown: hits.count, of: total, console: console) }
        let visitRows = VisitOptions.rows(hits.map(\.station), visits: visits)
        let rows = zip(hits, visitRows).map { h, v in
            StationRow(station: h.station, distance: h.distance,
                       extra: (format == .table ? [] : [("matched_field", .string(h.field.rawValue)),
                                                        ("match", .string(h.isExact ? "exact" : h.isPrefix ? "prefix" : "partial"))])
                           + v.extra)
        }
        console.out(StationOutput.render(rows, format: format, width: TableWidth.columns(wide: args.has("wide"), console: console)))
        return 0
    }
}
