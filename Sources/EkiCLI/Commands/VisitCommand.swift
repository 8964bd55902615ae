import EkiKit
import EkiImport
import Foundation

/// `eki visit add|list|rm|check|export|import|share|config|sync|photo`: the visit log (乗下車記録).
struct VisitCommand: Command {
    static let summary = "record visits (乗下車記録): add, list, rm, check, export, import, share"
    static let help = """
    usage: eki visit add STATION [--date D] [--kind K] [--note T]
                         [--operator NAME] [--class C] [--near LAT,LON]
           eki visit list [--since D] [--until D] [--by year|month]
           eki visit rm ID...
           eki visit check
           eki visit export [--format csv|json] [--with-photos FILE.zip]
           eki visit import FILE [--format csv|json] [--encoding utf-8|cp932] [--keep-orphans] [--dry-run]
           eki visit import --from oritsubushi FILE [--keep-orphans] [--dry-run]
           eki visit share [--since D] [--until D] [--png FILE [--photos]] [--lang ja|en] [--rules oritsubushi|all]
           eki visit config [transfer-counts [yes|no] | counting-rules [oritsubushi|all]]
           eki visit sync URL --token-file F [--cacert PEM]
           eki visit photo add VISIT_ID FILE... | list VISIT_ID [--format table|json]
                           | rm PHOTO_ID | get PHOTO_ID [-o FILE] [--thumb]

    The visit log is its own SQLite file, apart from the station database, so rebuilding the
    station database never touches it. Visits refer to stations by key.
      add      STATION is a key (jr-central/s/小田原) or a name that must match exactly one entry
               (compared folded); otherwise the candidates are listed and nothing is recorded.
               --operator, --class shinkansen|conventional and --near LAT,LON (within 5 km)
               narrow a name. The key stored is the entry's current key.
        --date D   2019, 2019-08, 2019-08-15, unknown (the default) or today
        --kind K   board, alight, transfer or pass (pass never counts; transfer counts unless
                   `config transfer-counts no`; board, alight and no kind always count)
        --note T   free text
               One station, date and kind is one visit: recording it again is refused.
      list     visits by date (undated first, a year before its months, a month before its
               days), then id. --since/--until keep visits whose date can fall in the range
               (both ends included; undated visits only when neither is given).
               --by year|month: instead, how many entries were first completed in each
               period (乗下車日: 2019, 2019-08; a date without a month counts under its
               year as `2019-??`, an undated completion under `unknown`), oldest first.
      rm       removes visits by id (all or none); `add` never reuses an id (`import` keeps
               the ids of the file when they are free).
      check    resolves every recorded key (through the alias table of merged entries) and
               lists orphaned keys; orphans are kept, never dropped. Exit 1 when any.
      export   writes the log to stdout: CSV (id,station,date,kind,note; the default) or JSON.
               --with-photos FILE.zip writes the visits (JSON) and every photo, byte for
               byte, to one zip file instead; `import FILE.zip` reads it back.
    \(Self.importHelp)
      share    a plain-text summary to paste into a message: visits by day, runs of days
               without visits collapsed (記録のない日), completion figures at the end; in
               Japanese, or English with --lang en. --png FILE draws the same summary as a
               picture for phones (780 px wide) with a map of the period's stations, and
               prints the file and its size instead; --photos puts up to 3 thumbnails of
               each day's visits beside its rows.
      config   shows or sets the log's settings: transfer-counts (default yes) and
               counting-rules (oritsubushi, the default: suspended stations do not count in
               n/m; or all), the rules stats, lines, line and share use without --rules.
      sync     merges the log with your account on an `eki serve --accounts` server at URL
               (http(s)://HOST:PORT): sends what changed here since the last sync, merges
               what changed there (the same rules as the phone's page: the last edit wins,
               one visit per station, date and kind). --token-file F holds an API token
               from `eki user token NAME` (never given on the command line); --cacert PEM
               trusts a self-signed server's certificate.
    \(Self.photoHelp)\(VisitOptions.pathHelp)\(VisitLocation.help)\(DatabaseOption.help)
    """

    static let subcommands = ["add", "list", "rm", "check", "export", "import", "share", "config", "sync", "photo"]

    /// `eki visit photo … --help` is the photo subcommands' help; any other, the whole of `help`.
    static func help(for arguments: [String]) -> String {
        arguments.first == "photo" ? photoUsage : help
    }

    let sub: String
    let args: Arguments
    /// The visit log file, or an account's visits in the store (`--user`).
    let location: VisitLocation
    let console: Console

    init(arguments: [String], console: Console) throws {
        guard let sub = arguments.first else { throw UsageError("give a subcommand: \(Self.subcommands.joined(separator: ", "))") }
        guard Self.subcommands.contains(sub) else {
            let close = Suggestions.closest(to: sub, among: Self.subcommands.map { .init(label: "'\($0)'", names: [$0]) })
            throw UsageError("unknown subcommand '\(sub)'\(Suggestions.didYouMean(close)) (\(Self.subcommands.joined(separator: ", ")))")
        }
        self.sub = sub
        self.console = console
        let valued: Set<String> = switch sub {
        case "add": ["date", "kind", "note", "operator", "class", "near"]
        case "list": ["since", "until", "by"]
        case "share": ["since", "until", "png", "lang", "rules"]
        case "export": ["format", "with-photos"]
        case "import": ["format", "encoding", "from"]
        case "sync": ["token-file", "cacert"]
        case "photo": ["format", "o"]
        default: []
        }
        args = try Arguments(Array(arguments.dropFirst()), valued: valued.union(["db"]).union(VisitLocation.valued),
                             flags: sub == "import" ? ["keep-orphans", "dry-run"] : sub == "photo" ? ["thumb"]
                                 : sub == "share" ? ["photos"] : [])
        location = try VisitLocation(args, console)
        if sub == "photo" {
            try Self.checkPhotoArguments(args)
            return
        }
        let positionals: ClosedRange<Int> = switch sub {
        case "add", "import", "sync": 1...1
        case "rm": 1...Int.max
        case "config": 0...2
        default: 0...0
        }
        guard positionals.contains(args.positionals.count) else {
            throw UsageError(args.positionals.count < positionals.lowerBound ? "visit \(sub): missing argument"
                             : sub == "sync" ? "visit sync: one argument too many (not repeated here: it may be a token; give the token with --token-file F)"
                             : "visit \(sub): unexpected argument '\(args.positionals[positionals.upperBound])'")
        }
        if args.has("photos") && args["png"] == nil { throw UsageError("visit share: --photos draws into the picture: give --png FILE") }
        if sub == "sync", args["user"] != nil {
            throw UsageError("visit sync: syncs a visit log file with a server (--visits); an account's visits are on the server already")
        }
        _ = try range()
        _ = try exchangeFormat()
        _ = try LanguageOption.parse(args)
        if let by = args["by"], by != "year", by != "month" { throw UsageError("visit list: --by must be year or month, got '\(by)'") }
    }

    var dbPath: String { DatabaseOption.path(args, console) }

    func run() throws -> Int32 {
        switch sub {
        case "add": return try add()
        case "list": return try list()
        case "rm": return try remove()
        case "check": return try check()
        case "export": return try export()
        case "import": return try importFile()
        case "share": return try share()
        case "sync": return try sync()
        case "photo": return try photo()
        default: return try config()
        }
    }

    // MARK: add

    func add() throws -> Int32 {
        let date: VisitDate
        if args["date"] == "today" {
            let c = Calendar.current.dateComponents([.year, .month, .day], from: Date())
            date = VisitDate(year: c.year!, month: c.month!, day: c.day!)!
        } else {
            do { date = try VisitDate(parsing: args["date"] ?? "") } catch { throw UsageError(error.description) }
        }
        var kind: VisitKind? = nil
        if let k = args["kind"] {
            guard let parsed = VisitKind(rawValue: k) else {
                throw UsageError("--kind must be one of \(VisitKind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(k)'")
            }
            kind = parsed
        }
        let query = try stationQuery()
        let store = try StationStore(path: dbPath, readOnly: true)
        let candidates = try query.candidates(in: store)
        guard candidates.count == 1, let station = candidates.first else {
            if candidates.isEmpty {
                console.err("eki visit add: no entry matches '\(query.text)'\(narrowed ? " with the options given" : "")\n")
            } else {
                console.err("eki visit add: '\(query.text)' matches \(candidates.count) entries; give a key, or narrow with --operator, --class or --near:\n")
                console.err(StationOutput.render(candidates.map { StationRow(station: $0) }, format: .table,
                                                 width: TableWidth.columns(wide: false, console: console)))
            }
            return 1
        }
        let log = try location.open()
        let v = try log.add(Visit(stationKey: station.key, date: date, kind: kind, note: args["note"]), of: station)
        console.out("visit \(v.id): \(v.date) \(v.kind?.rawValue ?? "-") \(VisitShare.label(station)) \(station.key)\n")
        return 0
    }

    var narrowed: Bool { args["operator"] != nil || args["class"] != nil || args["near"] != nil }

    func stationQuery() throws(UsageError) -> StationQuery {
        guard !args.positionals[0].trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("QUERY is empty") }
        var q = StationQuery(text: args.positionals[0], operatorName: args["operator"])
        if let c = args["class"] {
            switch c.lowercased() {
            case "shinkansen", "s", "新幹線": q.serviceClass = .shinkansen
            case "conventional", "c", "在来線": q.serviceClass = .conventional
            default: throw UsageError("--class must be shinkansen or conventional, got '\(c)'")
            }
        }
        if let near = args["near"] {
            let p = near.split(separator: ",").map { DecimalNumber.parse($0.trimmingCharacters(in: .whitespaces)) }
            guard p.count == 2, let lat = p[0], let lon = p[1], Coordinate(lat: lat, lon: lon).isValid else {
                throw UsageError("--near needs LAT,LON in degrees, got '\(near)'")
            }
            q.near = Coordinate(lat: lat, lon: lon)
        }
        return q
    }

    // MARK: list, rm, check

    func list() throws -> Int32 {
        if let by = args["by"] { return try listByPeriod(monthly: by == "month") }
        let log = try location.openForReading(console: console)
        let store = FileManager.default.fileExists(atPath: dbPath) ? try StationStore(path: dbPath, readOnly: true) : nil
        var rows: [[String]] = []
        let visits = try log.visits(in: range())
        for v in visits {
            let station = try store.map { try log.resolve(v.stationKey, in: $0).map(VisitShare.label) ?? "(orphaned)" } ?? ""
            rows.append([String(v.id), v.date.description, v.kind?.rawValue ?? "", station, DisplayText.escaped(v.note ?? ""), v.stationKey])
        }
        console.out(DisplayWidth.table(header: ["id", "date", "kind", "station", "note", "key"], rows: rows)
                    + "(\(visits.count) \(visits.count == 1 ? "visit" : "visits"))\n")
        return 0
    }

    /// `list --by year|month`: entries first completed per period (see the help).
    func listByPeriod(monthly: Bool) throws -> Int32 {
        let log = try location.openForReading(console: console)
        let store = try StationStore(path: dbPath, readOnly: true)
        var counts: [String: Int] = [:]
        for (_, c) in try VisitedStations(log: log, store: store).completions {
            let period: String
            if let y = c.date.year {
                period = monthly ? String(format: "%04d-%@", y, c.date.month.map { String(format: "%02d", $0) } ?? "??") : String(format: "%04d", y)
            } else {
                period = "unknown"
            }
            counts[period, default: 0] += 1
        }
        let periods = counts.keys.sorted { ($0 == "unknown" ? 1 : 0, $0) < ($1 == "unknown" ? 1 : 0, $1) }
        let total = counts.values.reduce(0, +)
        console.out(DisplayWidth.table(header: [monthly ? "month" : "year", "completed"],
                                       rows: periods.map { [$0, String(counts[$0]!)] } + [["total", String(total)]]))
        return 0
    }

    func remove() throws -> Int32 {
        var ids: [Int64] = []
        for p in args.positionals {
            guard let id = Int64(p), id > 0 else { throw UsageError("visit rm: '\(p)' is not a visit id") }
            ids.append(id)
        }
        for v in try location.open(create: false).remove(ids: ids) {
            console.out("removed visit \(v.id): \(v.date) \(v.kind?.rawValue ?? "-") \(v.stationKey)\n")
        }
        return 0
    }

    func check() throws -> Int32 {
        let log = try location.openForReading(console: console)
        let store = try StationStore(path: dbPath, readOnly: true)
        let c = try log.check(against: store)
        let ids = { (a: [Int64]) in (a.count == 1 ? "visit " : "visits ") + a.map(String.init).joined(separator: ", ") }
        var out = "\(c.visits) visits at \(c.keys) station keys: \(c.keys - c.orphaned.count) resolve "
            + "(\(c.aliased.count) through an alias), \(c.orphaned.count) orphaned\n"
        if !c.aliased.isEmpty {
            out += "through an alias:\n"
            out += DisplayWidth.table(header: ["  recorded", "now", "visits"],
                                      rows: c.aliased.map { ["  " + $0.recorded, $0.current.key, ids($0.visitIDs)] })
        }
        if !c.closed.isEmpty {
            out += "closed or retired (visits kept, not in the totals):\n"
            out += c.closed.map { "  \($0.key)  \(ids($0.visitIDs))\n" }.joined()
        }
        if !c.orphaned.isEmpty {
            out += "orphaned (kept in the log; they count again once the key resolves):\n"
            out += c.orphaned.map { "  \($0.key)  \(ids($0.visitIDs))\n" }.joined()
        }
        console.out(out)
        return c.orphaned.isEmpty ? 0 : 1
    }

    // MARK: export, import, share, config

    func export() throws -> Int32 {
        let log = try location.openForReading(console: console)
        if let zip = args["with-photos"] {
            guard exchangeFormatIsJSONOrUnset else { throw UsageError("visit export --with-photos writes JSON; --format csv does not apply") }
            try OutputPath.checkFolder(of: zip)
            let visits = try log.visits(), photos = try log.archivedPhotos()
            try VisitArchive.write(visits: visits, photos: photos, to: zip)
            let size = (try? FileManager.default.attributesOfItem(atPath: zip)[.size] as? NSNumber)?.intValue ?? 0
            console.out("\(zip): \(visits.count) visits, \(photos.count) photos, \(size) bytes\n")
            return 0
        }
        console.out(VisitExchange.encode(try log.visits(), format: try exchangeFormat() ?? .csv))
        return 0
    }

    var exchangeFormatIsJSONOrUnset: Bool { args["format"] == nil || args["format"]?.lowercased() == "json" }

    func quoted(_ s: String?) -> String { s.map { "“\($0)”" } ?? "(none)" }

    func share() throws -> Int32 {
        let log = try location.openForReading(console: console)
        let store = try StationStore(path: dbPath, readOnly: true)
        let rules = args["rules"] == nil ? nil : try CountingOption.rules(args)
        let summary = try VisitShare.summary(log: log, store: store, range: range(), language: LanguageOption.parse(args), rules: rules)
        if let png = args["png"] {
            return try VisitSharePNG.write(summary, log: log, store: store, range: range(), to: png, photos: args.has("photos"),
                                           console: console)
        }
        console.out(summary.text)
        return 0
    }

    func config() throws -> Int32 {
        let p = args.positionals
        let settings = ["transfer-counts", "counting-rules"]
        if let name = p.first, !settings.contains(name) {
            throw UsageError("visit config: unknown setting '\(name)' (\(settings.joined(separator: ", ")))")
        }
        if p.count == 2, p[0] == "transfer-counts" {
            let value: Bool
            switch p[1].lowercased() {
            case "yes", "true", "on", "1": value = true
            case "no", "false", "off", "0": value = false
            default: throw UsageError("visit config transfer-counts: give yes or no, got '\(p[1])'")
            }
            try location.open().setCounting(VisitCounting(transferCounts: value))
        } else if p.count == 2 {
            guard let rules = CountingRules(rawValue: p[1].lowercased()) else {
                throw UsageError("visit config counting-rules: give oritsubushi or all, got '\(p[1])'")
            }
            try location.open().setCountingRules(rules)
        }
        let log = try location.openForReading(console: console, note: false)
        let shown = p.first.map { [$0] } ?? settings
        var out = ""
        if shown.contains("transfer-counts") { out += "transfer-counts \(try log.counting().transferCounts ? "yes" : "no")\n" }
        if shown.contains("counting-rules") { out += "counting-rules \(try log.countingRules().rawValue)\n" }
        console.out(out)
        return 0
    }

    // MARK: Options

    func range() throws(UsageError) -> VisitDateRange {
        func date(_ name: String) throws(UsageError) -> VisitDate? {
            guard let t = args[name] else { return nil }
            let d: VisitDate
            do { d = try VisitDate(parsing: t) } catch { throw UsageError("--\(name): \(error.description)") }
            guard !d.isUnknown else { throw UsageError("--\(name) needs a date (YYYY, YYYY-MM or YYYY-MM-DD)") }
            return d
        }
        let r = VisitDateRange(since: try date("since"), until: try date("until"))
        if let s = r.since?.firstDay, let u = r.until?.lastDay, s > u { throw UsageError("--since is after --until") }
        return r
    }

    func exchangeFormat() throws(UsageError) -> VisitExchangeFormat? {
        guard let f = args["format"] else { return nil }
        guard let format = VisitExchangeFormat(rawValue: f.lowercased()) else {
            throw UsageError("--format must be csv or json, got '\(f)'")
        }
        return format
    }
}
