import EkiKit
import EkiPhotos
import EkiRender

/// `eki visit share --png FILE`: the summary drawn by `SharePicture` (780 × N px: 390 logical
/// pixels at 2×) with a map of the entries visited in the period, in the summary's language.
enum VisitSharePNG {
    /// Writes the picture and prints `FILE: W x H px, N day rows`; with `photos`, up to 3
    /// thumbnails of each day's visits beside its rows (and how many were drawn).
    /// - Throws: `OutputPathError` when the file's folder is missing; `RenderError` when the
    ///   picture cannot be made or written; `SQLiteError`.
    static func write(_ summary: VisitShare.Summary, log: VisitLog, store: StationStore, range: VisitDateRange, to path: String,
                      photos: Bool = false, console: Console) throws -> Int32 {
        try OutputPath.checkFolder(of: path)
        var seen = Set<String>(), stations: [Station] = []
        for v in try log.visits(in: range) {
            guard let s = try log.resolve(v.stationKey, in: store), s.isOpen, seen.insert(s.key).inserted else { continue }
            stations.append(s)
        }
        let visits = try VisitedStations(log: log, store: store)
        let picture = try SharePicture(summary: summary, stations: stations, isVisited: visits.isVisited,
                                       thumbnails: photos ? try thumbnails(summary, log: log) : [:])
        try picture.write(to: path)
        let days = picture.rows.filter { $0.kind == .day || $0.kind == .emptyDays }.count
        let drawn = picture.thumbnailBoxes.count
        console.out("\(path): \(picture.pixelWidth)x\(picture.pixelHeight) px, \(days) day rows, "
                    + "\(stations.count) \(stations.count == 1 ? "station" : "stations") on the map"
                    + (photos ? ", \(drawn) \(drawn == 1 ? "photo" : "photos")" : "") + "\n")
        return 0
    }

    /// The thumbnails of each day line's visits (in visit order, then photo order), decoded.
    static func thumbnails(_ summary: VisitShare.Summary, log: VisitLog) throws -> [Int: [SharePicture.Thumbnail]] {
        let processor = PhotoProcessor()
        var out: [Int: [SharePicture.Thumbnail]] = [:]
        for (i, line) in summary.lines.enumerated() where line.kind == .day {
            var shots: [SharePicture.Thumbnail] = []
            for id in line.visitIDs {
                for p in try log.photos(of: id) where shots.count < 3 {
                    guard let jpeg = try log.photoBytes(id: p.id, thumbnail: true) else { continue }
                    let d = try processor.decodeRGB(jpeg, source: "photo \(p.id)")
                    shots.append(SharePicture.Thumbnail(width: d.width, height: d.height, rgb: d.rgb))
                }
            }
            if !shots.isEmpty { out[i] = shots }
        }
        return out
    }
}
