import EkiKit
import EkiImport
import Foundation

/// `eki import [--profile P] FILE...`: reads station data into the database, all inputs in one
/// transaction.
struct ImportCommand: Command {
    static let summary = "build or update the database from CSV, GTFS or OSM files"
    static let help = """
    usage: eki import [--db PATH] [--profile P] [--encoding E] [--columns MAP] [--modes M]
                      [--operator NAME] [--operators FILE] [--verbose] FILE...

    Reads every FILE, then writes them all in one transaction: on any error nothing is written
    and the database is left exactly as it was. Re-importing a dataset replaces its entries.
      --profile P     n02, station-database, ekidata, generic (CSV), gtfs, osm; detected when
                      not given (a folder or .zip with stops.txt and routes.txt is GTFS, an
                      <osm> document — plain, .gz or .bz2 — is OSM; `-` reads OSM XML from stdin)
      --encoding E    utf-8 or cp932 (CSV; detected when not given)
      --columns MAP   generic CSV column map: field=COLUMN,... over id, name, lat, lon,
                      operator, line, reading, class
      --modes M       GTFS route modes to read, comma-separated: rail (default: tram, subway,
                      railway, cable-tram, funicular, monorail and their extended types), bus,
                      trolleybus, ferry, aerial-lift, other, or all
      --operator NAME OSM: the operator of stations that have no operator tag
      --operators FILE  your operator aliases, a CSV `alias,operator` (operator: an id such as
                      jr-east or a name the built-in table knows); stored in the database and
                      used by every later import
      --verbose       list warnings
    \(DatabaseOption.help)
    Profiles:
      n02               国土数値情報 N02 stations: the official GeoJSON (UTF-8 or Shift_JIS) or
                        a CSV with N02_001…N02_005g, lon, lat
      station-database  station_database main/ or extra/ folder (station.csv, line.csv,
                        register.csv; company.csv beside them or in ../src/)
      ekidata           駅データ.jp station file (line and company files beside it)
      generic           any CSV with a header; --columns maps its columns
      gtfs              GTFS / GTFS-JP feed, a folder or a .zip
      osm               OpenStreetMap XML 0.6 (API, Overpass, JOSM, osmium), plain, .gz, .bz2

    """

    let args: Arguments
    let console: Console
    let encoding: TextEncoding?

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: ["db", "profile", "encoding", "columns", "modes", "operator", "operators"], flags: ["verbose"])
        self.console = console
        guard !args.positionals.isEmpty else { throw UsageError("no input FILE given") }
        if let e = args["encoding"] {
            guard let enc = TextEncoding(name: e) else { throw UsageError("--encoding must be utf-8 or cp932, got '\(e)'") }
            encoding = enc
        } else {
            encoding = nil
        }
        if let p = args["profile"], !Self.profiles.contains(p) {
            throw UsageError("--profile must be one of \(Self.profiles.joined(separator: ", ")), got '\(p)'")
        }
        if let columns = args["columns"] {
            if let p = args["profile"], p != "generic" { throw UsageError("--columns goes with the generic profile") }
            for pair in columns.split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                guard kv.count == 2, !kv[1].trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw UsageError("--columns: '\(pair)' is not FIELD=COLUMN")
                }
                let field = kv[0].trimmingCharacters(in: .whitespaces)
                guard GenericCSVImporter.fields.contains(field) else {
                    throw UsageError("--columns: unknown field '\(field)' (fields: \(GenericCSVImporter.fields.joined(separator: ", ")))")
                }
            }
        }
        if let m = args["modes"] {
            guard let parsed = GTFSModes(parsing: m) else {
                throw UsageError("--modes: '\(m)' is not a list of \(GTFSModes.names.map(\.name).joined(separator: ", ")) or all")
            }
            modes = parsed
        } else {
            modes = .rail
        }
    }

    let modes: GTFSModes
    static let profiles = CSVProfile.allCases.map(\.rawValue) + ["gtfs", "osm"]

    func run() throws -> Int32 {
        let started = Date()
        var importers: [(input: String, importer: any StationImporter)] = []
        var seen = Set<String>()
        for input in args.positionals {
            guard let importer = try importer(for: input) else { continue }
            let id = Self.identity(of: importer) ?? input
            if seen.insert(id).inserted { importers.append((input, importer)) }
        }
        var batches: [ImportBatch] = []
        for (input, importer) in importers {
            if console.errIsTerminal { console.err("reading \(input)…\n") }
            let batch = try importer.read()
            batches.append(batch)
            if !batch.warnings.isEmpty {
                console.err("\(input): \(batch.warnings.count) warning(s)\(args.has("verbose") ? "" : " (--verbose lists them)")\n")
                if args.has("verbose") { for w in batch.warnings { console.err("  warning: \(w)\n") } }
            }
        }
        // Inputs of one dataset (several OSM extracts, say) are imported together as one.
        var merged: [(dataset: String, records: [SourceRecord])] = []
        for b in batches {
            if let i = merged.firstIndex(where: { $0.dataset == b.dataset }) {
                merged[i].records += b.records
            } else {
                merged.append((b.dataset, b.records))
            }
        }
        let store = try StationStore(path: DatabaseOption.path(args, console))
        var aliases: (csv: String, file: String)? = nil
        if let file = args["operators"] {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw ImportError(file: file, message: "cannot read the operator alias file")
            }
            aliases = (String(decoding: data, as: UTF8.self), file)
        }
        let result = try store.importBatches(merged, operatorAliases: aliases)
        for s in result.datasets {
            console.out("\(s.dataset): \(s.records) rows → \(s.entries) entries\n")
        }
        let m = result.merge
        console.out("entries: \(m.added) added, \(m.updated) updated, \(m.unchanged) unchanged, \(m.retired) retired, \(m.merged) merged\n")
        let elapsed = Date().timeIntervalSince(started)
        console.out("database \(store.path): \(try store.count()) entries (\(try store.count(includeClosed: false)) open), \(String(format: "%.2f", elapsed)) s\n")
        return 0
    }

    /// The importer for one input, or nil for a companion file another input's importer reads.
    func importer(for input: String) throws -> (any StationImporter)? {
        var isDir: ObjCBool = false
        guard input == "-" || FileManager.default.fileExists(atPath: input, isDirectory: &isDir) else {
            throw ImportError(file: input, message: "no such file or directory")
        }
        let name = (input as NSString).lastPathComponent
        var profile = args["profile"]
        if profile == nil, input == "-" || OSMImporter.looksLikeOSM(path: input) { profile = "osm" }
        if profile == nil, GTFSImporter.looksLikeGTFS(path: input) { profile = "gtfs" }
        if profile == "osm" { return OSMImporter(path: input, operatorOverride: args["operator"]) }
        if profile == "gtfs" { return GTFSImporter(path: input, modes: modes, feedName: Self.feedName(input)) }
        if profile == nil {
            if isDir.boolValue {
                let has = { (f: String) in FileManager.default.fileExists(atPath: (input as NSString).appendingPathComponent(f)) }
                if has("station.csv") && has("register.csv") { profile = "station-database" }
                else { profile = "ekidata" }
            } else if ["line.csv", "register.csv", "company.csv"].contains(name),
                      args.positionals.contains(where: { ($0 as NSString).lastPathComponent == "station.csv" }) {
                return nil
            } else if N02GeoJSONImporter.looksLikeN02GeoJSON(path: input) {
                profile = "n02"
            } else {
                profile = try CSVProfile.detect(path: input, encoding: encoding)?.rawValue ?? "generic"
                if args["columns"] != nil && profile != "generic" {
                    throw UsageError("--columns goes with the generic profile, but \(input) is \(profile!) (its columns are known)")
                }
            }
        }
        switch CSVProfile(rawValue: profile!)! {
        case .n02:
            if N02GeoJSONImporter.looksLikeN02GeoJSON(path: input) || name.lowercased().hasSuffix(".geojson") {
                return N02GeoJSONImporter(path: input, encoding: encoding)
            }
            return N02CSVImporter(path: input, encoding: encoding)
        case .stationDatabase: return try StationDatabaseImporter(path: input, encoding: encoding)
        case .ekidata: return try EkidataImporter(path: input, encoding: encoding)
        case .generic: return try GenericCSVImporter(path: input, encoding: encoding, columns: args["columns"])
        }
    }

    /// A feed's name for its dataset (`gtfs/<name>`): the file or folder name without `.zip`;
    /// for a folder with a generic name (gtfs, feed, data) the parent folder's name.
    static func feedName(_ input: String) -> String {
        let url = URL(fileURLWithPath: input).standardizedFileURL
        var name = url.lastPathComponent
        if name.lowercased().hasSuffix(".zip") { name = String(name.dropLast(4)) }
        if ["gtfs", "feed", "data", "."].contains(name.lowercased()) {
            name = url.deletingLastPathComponent().lastPathComponent + "-" + name
        }
        return name
    }

    /// Inputs that name the same dataset files are read once.
    static func identity(of importer: any StationImporter) -> String? {
        switch importer {
        case let i as StationDatabaseImporter: return "station-database:" + i.stationPath
        case let i as EkidataImporter: return "ekidata:" + i.stationPath
        default: return nil
        }
    }
}
