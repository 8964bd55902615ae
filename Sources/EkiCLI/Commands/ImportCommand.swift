import EkiKit
import EkiImport
import Foundation

/// `eki import [--profile P] FILE...`: reads station data into the database, all inputs in one
/// transaction.
struct ImportCommand: Command {
    static let summary = "build or update the database from CSV, GTFS or OSM files"
    static let help = """
    usage: eki import [--db PATH] [--profile P] [--encoding E] [--columns MAP] [--modes M]
                      [--operator NAME] [--operators FILE] [--edition DATE] [--skip-invalid]
                      [--max-field-bytes N] [--max-line-bytes N] [--max-unzipped-bytes N]
                      [--max-zip-ratio N] [--max-warnings N] [--replace] [--verbose] FILE...

    Reads every FILE, then writes them all in one transaction: on any error nothing is written
    and the database is left exactly as it was. Re-importing a dataset replaces its entries;
    one that would retire more than 5 % of a dataset's entries stops first (see --replace).
      --profile P     \(ImporterRegistry().names.joined(separator: ", ")); when not given,
                      each input is identified by its contents (see Profiles), and one no
                      importer claims is refused with the formats tried; `-` reads OSM XML
                      from stdin
      --encoding E    utf-8 or cp932 (CSV; detected when not given)
      --columns MAP   generic CSV column map: field=COLUMN,... over id, name, lat, lon,
                      operator, line, reading, class
      --modes M       GTFS route modes to read, comma-separated: rail (default: tram, subway,
                      railway, cable-tram, funicular, monorail and their extended types), bus,
                      trolleybus, ferry, aerial-lift, other, or all
      --operator NAME OSM: the operator of stations that have no operator tag
      --max-field-bytes N  CSV and GTFS: the longest field, OSM: the longest tag value
                      accepted (default 1048576, 1 MiB); a longer one stops the import with
                      its place (file:line:column: field, or the OSM element)
      --max-line-bytes N  CSV and GTFS: the longest line (record) accepted (default
                      16777216, 16 MiB); reading stops where the limit is passed
      --max-unzipped-bytes N  GTFS zip: the largest file once unzipped (default
                      4294967296, 4 GiB), as the zip states it and as counted
      --max-zip-ratio N  GTFS zip: how many times its compressed size a file may unzip
                      to (default 100; zip bombs reach thousands)
      --max-warnings N  warnings kept per input to list with --verbose (default 1000);
                      the rest are counted
      --operators FILE  your operator aliases, a CSV `alias,operator` (operator: an id such as
                      jr-east or a name the built-in table knows); stored in the database and
                      used by every later import
      --edition DATE  the edition of the data (YYYY-MM-DD: N02-23's reference date, the
                      station_database commit date), stored with each dataset; where two
                      datasets disagree on a station's name, the newer edition's is a rename.
                      Default: read from the data where it can be (station_database: its
                      newest open or closed date)
      --skip-invalid  CSV (generic, n02, station-database, ekidata) and GTFS stops: skip
                      rows without a usable position or name (empty, not a number, out of
                      range, or the placeholder 0,0) and report how many, with the first
                      few file:line; without it such a row stops the import
      --replace       confirm an import that retires more than 5 % of a dataset's entries
                      (the input is the whole dataset anew); without it such an import
                      stops before writing and says what it would retire
      --verbose       list warnings (among them rows far from every other row of the
                      same input: no other within 1°)
    \(DatabaseOption.help)
    Profiles (each input is identified by its contents; the first sure match wins):
    \(ImporterRegistry().formats.map { "  \(DisplayWidth.pad($0.name, 17)) \(wrap($0.reads, width: 72, indent: 20))" }.joined(separator: "\n"))

    """

    let args: Arguments
    let console: Console
    let encoding: TextEncoding?

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: ["db", "profile", "encoding", "columns", "modes", "operator", "operators", "edition",
                                                        "max-field-bytes", "max-line-bytes", "max-unzipped-bytes", "max-zip-ratio",
                                                        "max-warnings"],
                             flags: ["verbose", "skip-invalid", "replace"])
        self.console = console
        guard !args.positionals.isEmpty else { throw UsageError("no input FILE given") }
        if let e = args["encoding"] {
            guard let enc = TextEncoding(name: e) else { throw UsageError("--encoding must be utf-8 or cp932, got '\(e)'") }
            encoding = enc
        } else {
            encoding = nil
        }
        let parsed = args
        func positive(_ flag: String, _ what: String) throws -> Int? {
            guard let m = parsed[flag] else { return nil }
            guard let n = Int(m), n > 0 else { throw UsageError("--\(flag) must be a positive \(what), got '\(m)'") }
            return n
        }
        var limits = ImportLimits()
        if let n = try positive("max-field-bytes", "number of bytes") { limits.csv.maxFieldBytes = n }
        if let n = try positive("max-line-bytes", "number of bytes") { limits.csv.maxLineBytes = n }
        if let n = try positive("max-unzipped-bytes", "number of bytes") { limits.maxUnzippedBytes = Int64(n) }
        if let n = try positive("max-zip-ratio", "number") { limits.maxZipRatio = n }
        if let n = try positive("max-warnings", "number") { limits.maxWarnings = n }
        self.limits = limits

        if let e = args["edition"], !ImportSession.isEdition(e) {
            throw UsageError("--edition must be a date YYYY-MM-DD, got '\(e)'")
        }
        if let p = args["profile"], registry.format(named: p) == nil {
            throw UsageError("--profile must be one of \(registry.names.joined(separator: ", ")), got '\(p)'")
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
    /// `--max-field-bytes`, `--max-line-bytes`, `--max-unzipped-bytes`, `--max-zip-ratio`,
    /// `--max-warnings`.
    let limits: ImportLimits
    let registry = ImporterRegistry()

    func run() throws -> Int32 {
        let started = Date()
        let options = ImportOptions(encoding: encoding, columns: args["columns"], modes: modes,
                                    operatorOverride: args["operator"], skipInvalid: args.has("skip-invalid"),
                                    limits: limits)
        // The library's import: the same checks, caps, editions and retire limit (`ImportSession`).
        var session = ImportSession(registry: registry, options: options, profile: args["profile"], edition: args["edition"],
                                    retireLimit: args.has("replace") ? nil : ImportSession.defaultRetireLimit)
        let planned: [PlannedImport]
        do {
            planned = try session.plan(args.positionals)
        } catch let e as ImportOptionError {
            throw UsageError(e.message)
        }
        var batches: [ImportBatch] = []
        for p in planned {
            let input = p.input.displayName
            if console.errIsTerminal { console.err("reading \(input) (\(p.format))…\n") }
            let batch = try session.read(p)
            batches.append(batch)
            if let skipped = batch.skipped.summary { console.err("\(input): \(skipped)\n") }
            if batch.records.isEmpty { console.err("\(input): nothing imported: \(batch.emptyReason ?? "no rows")\n") }
            if !batch.warnings.isEmpty {
                let total = batch.warnings.count + batch.warningsNotKept
                console.err("\(input): \(total) warning(s)\(args.has("verbose") ? "" : " (--verbose lists them)")\n")
                if args.has("verbose") {
                    for w in batch.warnings { console.err("  warning: \(w)\n") }
                    if batch.warningsNotKept > 0 {
                        console.err("  … and \(batch.warningsNotKept) more (the first \(limits.maxWarnings) are kept; --max-warnings N keeps more)\n")
                    }
                }
            }
        }
        if let file = args["operators"] { session.operatorAliases = try ImportSession.operatorAliases(file: file) }
        let path = DatabaseOption.path(args, console)
        let existed = FileManager.default.fileExists(atPath: path)
        var opened: StationStore? = nil
        let store: StationStore, result: (datasets: [ImportSummary], merge: MergeSummary)
        do {
            store = try StationStore(path: path)
            opened = store
            // Handed over (not kept here), so that the store's import holds the only copy of the rows.
            result = try session.write(consume batches, to: store)
        } catch where DiskFullError.isDiskFull(error) {
            // A full disk: said in words, and a new file is not left behind half-written.
            opened?.close()
            if !existed { DiskFullError.remove(path) }
            throw DiskFullError(path: path, free: DiskFullError.free(near: path), removed: !existed)
        }
        for s in result.datasets {
            console.out("\(s.dataset): \(s.records) rows → \(s.entries) entries\n")
        }
        for s in result.datasets where s.retired > 0 {
            console.out("\(s.dataset): \(s.retired) entries retired (no longer in the input; kept, marked retired)\n")
        }
        let m = result.merge
        console.out("entries: \(m.added) added, \(m.updated) updated, \(m.unchanged) unchanged, \(m.retired) retired, \(m.merged) merged\n")
        let elapsed = Date().timeIntervalSince(started)
        console.out("database \(store.path): \(try store.entries.count()) entries (\(try store.entries.count(includeClosed: false)) open), \(String(format: "%.2f", elapsed)) s\n")
        return 0
    }

    /// `text` broken at spaces into lines of at most `width` columns, the later ones indented.
    static func wrap(_ text: String, width: Int, indent: Int) -> String {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && DisplayWidth.of(line) + 1 + DisplayWidth.of(String(word)) > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}
