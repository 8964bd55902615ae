import EkiKit
import EkiRender

/// `eki visit share --png FILE`: the summary drawn by `SharePicture` (780 × N px: 390 logical
/// pixels at 2×) with a map of the entries visited in the period, in the summary's language.
enum VisitSharePNG {
    /// Writes the picture and prints `FILE: W x H px, N day rows`.
    /// - Throws: `OutputPathError` when the file's folder is missing; `RenderError` when the
    ///   picture cannot be made or written; `SQLiteError`.
    static func write(_ summary: VisitShare.Summary, log: VisitLog, store: StationStore, range: VisitDateRange, to path: String,
                      console: Console) throws -> Int32 {
        try OutputPath.checkFolder(of: path)
        var seen = Set<String>(), stations: [Station] = []
        for v in try log.visits(in: range) {
            guard let s = try log.resolve(v.stationKey, in: store), s.isOpen, seen.insert(s.key).inserted else { continue }
            stations.append(s)
        }
        let visits = try VisitedStations(log: log, store: store)
        let picture = try SharePicture(summary: summary, stations: stations, isVisited: visits.isVisited)
        try picture.write(to: path)
        let days = picture.rows.filter { $0.kind == .day || $0.kind == .emptyDays }.count
        console.out("\(path): \(picture.pixelWidth)x\(picture.pixelHeight) px, \(days) day rows, "
                    + "\(stations.count) \(stations.count == 1 ? "station" : "stations") on the map\n")
        return 0
    }
}
