import EkiImport
import EkiKit
import EkiPhotos
import Foundation

/// `eki visit import`: an exchange file (CSV / JSON) or, with `--from oritsubushi`, the database
/// of the 降りつぶし apps, checked against the station database before anything is written.
extension VisitCommand {
    static let importHelp = """
      import   merges a file written by export (format from the extension or content) in one
               transaction: the same station, date and kind is the same visit (a different
               note is a conflict; the log's note is kept); ids are kept when free. A zip
               from `export --with-photos` brings its photos too, byte for byte (each
               checked to be a photo as stored: JPEG, no metadata), in the same transaction.
               A file saved again by a spreadsheet reads too: UTF-8 (with or without
               BOM) or CP932, detected as `eki import` does (--encoding says which),
               CRLF, dates like 2019/8/13 and 2019年8月13日. Each station is checked
               against the station database (--db) first: a key, or a name matching
               exactly one entry (recorded under its key). Rows that resolve to no entry
               are listed and nothing is imported (exit 1) unless --keep-orphans, which
               keeps them as orphaned visits (`visit check` lists them).
        --from oritsubushi  FILE is the SQLite database of i降りつぶし / 降りつぶしroid: each
               completion is matched to an entry by name, class, operator and point, then
               by operator change, former name and place (docs/oritsubushi-import.md),
               and a report lists what matched, what is ambiguous (with the candidates)
               and what is unmatched (with the reason); dates and memos are carried over.
               Nothing is imported while any completion is ambiguous or unmatched, unless
               --keep-orphans (those are then kept as orphaned visits keyed
               oritsubushi/S_ID/NAME).
        --dry-run  prints the report (what would be imported, refused or kept) and
               writes nothing; exit 0 when the file reads.
    """

    func importFile() throws -> Int32 {
        let file = args.positionals[0]
        if let from = args["from"] {
            guard from == "oritsubushi" else { throw UsageError("--from must be oritsubushi, got '\(from)'") }
            return try importOritsubushi(file)
        }
        guard var data = FileManager.default.contents(atPath: file) else {
            throw VisitExchangeError(file: file, location: "", message: "cannot read the file")
        }
        var photos: [ArchivedVisitPhoto]? = nil
        if VisitArchive.isArchive(path: file, head: [UInt8](data.prefix(4))) {
            let archive = try VisitArchive.read(path: file)
            try checkArchivedPhotos(archive.photos, file: file)
            data = Data(archive.visitsJSON)
            photos = archive.photos
        }
        // UTF-8 (BOM dropped) or CP932, detected as `eki import` does: what a spreadsheet saves.
        var encoding: TextEncoding? = nil
        if let e = args["encoding"] {
            guard let enc = TextEncoding(name: e) else { throw UsageError("--encoding must be utf-8 or cp932, got '\(e)'") }
            encoding = enc
        }
        let bytes = [UInt8](data)
        try VisitExchange.checkFieldBytes(bytes, file: file)   // a 50 MB note stops before decoding
        let text = String(decoding: try TextDecoding.decode(bytes, file: file, encoding: encoding).bytes, as: UTF8.self)
        let format = photos != nil ? .json : try exchangeFormat() ?? VisitExchange.detectFormat(path: file, text: text)
        let rows = try VisitExchange.decodeRows(text, format: format, file: file)
        let keepOrphans = args.has("keep-orphans")
        var visits = rows.map(\.visit), stations: [String: Station] = [:], notes = ""
        if let store = try checkingStore(keepOrphans: keepOrphans) {
            // Read-only until the check passes: a refused import leaves no new file behind.
            let log = try location.openForReading(console: console, note: false)
            let check = try VisitStationCheck(rows, store: store, log: log)
            visits = check.visits
            stations = check.stations
            for (row, key) in check.byName { notes += "by name: \(row.location): '\(row.visit.stationKey)' is \(key)\n" }
            if !check.unresolved.isEmpty {
                let n = check.unresolved.count
                var out = "\(file): \(n) of \(rows.count) \(rows.count == 1 ? "visit names" : "visits name") no entry of \(dbPath):\n"
                for line in check.unresolvedLines { out += "  \(line)\n" }
                if args.has("dry-run") {
                    notes += out + (keepOrphans ? "would be kept as orphaned visits (--keep-orphans)\n"
                                    : "would be refused (--keep-orphans keeps such visits as orphans)\n")
                } else if !keepOrphans {
                    console.err("eki visit: " + out + "nothing imported (--keep-orphans keeps such visits as orphans)\n")
                    return 1
                } else {
                    notes += out + "kept as orphaned visits (--keep-orphans)\n"
                }
            }
        }
        if args.has("dry-run") {
            console.out(notes + "\(file): \(visits.count) visits\(photos.map { ", \($0.count) photos" } ?? ""); dry run: nothing written\n")
            return 0
        }
        if let photos {
            let r = try location.open().merge(visits, photos: photos, stations: stations)
            console.out(notes + summary(file, incoming: visits.count, r.visits)
                        + "\(file): \(photos.count) photos: \(r.photosAdded) added, \(r.photosPresent) already present, "
                        + "\(r.photosSkipped) skipped (their visit not imported)\n")
            return 0
        }
        let report = try location.open().merge(visits, stations: stations)
        console.out(notes + summary(file, incoming: visits.count, report))
        return 0
    }

    /// Every photo of an archive is a photo as stored (JPEG, the stated size, no metadata):
    /// its bytes are kept as they are, so they are checked before anything is written.
    func checkArchivedPhotos(_ photos: [ArchivedVisitPhoto], file: String) throws {
        let processor = PhotoProcessor()
        let limits = processor.limits
        for p in photos {
            try processor.checkStored(p.photo.jpeg, width: p.photo.width, height: p.photo.height, longSide: limits.longSide,
                                      source: "\(file)/photos/\(p.id).jpg")
            try processor.checkStored(p.photo.thumbnail, width: p.photo.thumbnailWidth, height: p.photo.thumbnailHeight,
                                      longSide: limits.thumbnailLongSide, source: "\(file)/photos/\(p.id)-thumb.jpg")
        }
    }

    /// The station database to check imported visits against; nil (unchecked) only with
    /// --keep-orphans when there is none.
    func checkingStore(keepOrphans: Bool) throws -> StationStore? {
        guard FileManager.default.fileExists(atPath: dbPath) else {
            if keepOrphans { return nil }
            throw NotFoundError(message: "no station database at \(dbPath) to check the visits' stations against "
                                + "(give --db, or --keep-orphans to import them unchecked)")
        }
        return try StationStore(path: dbPath, readOnly: true)
    }

    func summary(_ file: String, incoming: Int, _ report: VisitMergeReport) -> String {
        var out = "\(file): \(incoming) visits: \(report.added.count) added, \(report.alreadyPresent) already present, "
            + "\(report.conflicts.count) \(report.conflicts.count == 1 ? "conflict" : "conflicts"), \(report.renumbered.count) renumbered\n"
        for c in report.conflicts {
            let e = c.existing
            out += "conflict: visit \(e.id) (\(e.stationKey) \(e.date) \(e.kind?.rawValue ?? "-")) has note \(quoted(e.note)); "
                + "the file has \(quoted(c.incoming.note)); kept the log's\n"
        }
        for r in report.renumbered { out += "renumbered: id \(r.from) was taken; the visit is \(r.to)\n" }
        return out
    }

    // MARK: 降りつぶし

    func importOritsubushi(_ file: String) throws -> Int32 {
        let app = try OritsubushiFile(path: file)
        guard FileManager.default.fileExists(atPath: dbPath) else {
            throw NotFoundError(message: "no station database at \(dbPath) to match the stations against (give --db)")
        }
        let store = try StationStore(path: dbPath, readOnly: true)
        let match = try OritsubushiMatch(app, store: store)
        let keepOrphans = args.has("keep-orphans")
        let open = match.ambiguous.count + match.unmatched.count
        var out = OritsubushiReport.text(file: file, app: app, match: match)
        if args.has("dry-run") {
            console.out(out + "dry run: nothing written\n")
            return 0
        }
        if open > 0 && !keepOrphans {
            console.out(out)
            console.err("eki visit: \(file): \(open) \(open == 1 ? "completion does" : "completions do") not match one entry; "
                        + "nothing imported (--keep-orphans imports the matched ones and keeps the others as orphaned visits)\n")
            return 1
        }
        let log = try location.open()
        var stations: [String: Station] = [:]
        for m in match.matched { stations[m.station.key] = m.station }
        let visits = match.visits + (keepOrphans ? match.orphanVisits : [])
        let report = try log.merge(visits, stations: stations)
        out += summary(file, incoming: visits.count, report)
        console.out(out)
        return 0
    }
}
