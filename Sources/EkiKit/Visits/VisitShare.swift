import EkiSQLite
import Foundation

/// The plain-text summary of `eki visit share`, for pasting into a message: a title with the
/// period, the visits grouped by day (a travel itinerary), each run of days without visits
/// between two visited days collapsed into one line, and the completion figures at the end.
///
/// ```
/// Visits 2019-08-13 – 2019-08-17
///
/// 2019-08-13 Tue
///   小田原 (JR東日本) board ★
///   小田原 (JR東海 新幹線) alight ★ — note
/// 2019-08-14 – 2019-08-16: no visits (3 days)
/// 2019-08-17 Sat
///   熱海 (JR東海) transfer ★
///
/// ★ new stations: 3
/// Completed: 3 of 9566 open stations (0.03%)
/// ```
/// A station line is the name, then operator (and 新幹線 for the Shinkansen class), the kind,
/// ★ when this visit is the station's first counting visit (its completion), and the note.
/// Visits dated only by month or year come in their own group (`2019-08, day unknown`) before
/// the days of that month or year; undated visits (`date unknown`) come first and only when no
/// period is given. A key that resolves to no entry is shown as the key, never with ★.
public enum VisitShare {
    /// The summary of the visits of `log` in `range` (see `VisitDateRange`), names and totals
    /// from `store`.
    /// - Throws: `SQLiteError`.
    public static func text(log: VisitLog, store: StationStore, range: VisitDateRange = VisitDateRange()) throws -> String {
        let all = try log.visits()
        let counting = try log.counting()
        var resolved: [String: Station?] = [:]
        func station(_ key: String) throws -> Station? {
            if let s = resolved[key] { return s }
            let s = try log.resolve(key, in: store)
            resolved[key] = s
            return s
        }
        // The completing visit of each entry: its first counting visit in log order.
        var completing = Set<Int64>(), completed = Set<String>()
        for v in all where counting.counts(v.kind) {
            if let current = try station(v.stationKey)?.key, completed.insert(current).inserted { completing.insert(v.id) }
        }
        let shown = all.filter { range.contains($0.date) }

        var out = "Visits"
        let first = range.since ?? shown.first(where: { !$0.date.isUnknown })?.date
        let last = range.until ?? shown.last?.date
        switch (first, last.flatMap { $0.isUnknown ? nil : $0 }) {
        case let (f?, l?): out += f == l ? " \(f)" : " \(f) – \(l)"
        case let (f?, nil): out += " from \(f)"
        case let (nil, l?): out += " until \(l)"
        case (nil, nil): break
        }
        out += "\n\n"
        if shown.isEmpty { out += "No visits.\n" }

        var previousDay: Int? = nil
        var index = 0
        while index < shown.count {
            let date = shown[index].date
            if date.isDay, let p = previousDay, let n = date.firstDay, n - p > 1 {
                let from = VisitDate.day(number: p + 1), to = VisitDate.day(number: n - 1)
                out += n - p == 2 ? "\(from): no visits\n" : "\(from) – \(to): no visits (\(n - p - 1) days)\n"
            }
            out += heading(date) + "\n"
            while index < shown.count && shown[index].date == date {
                let v = shown[index]
                out += "  " + (try station(v.stationKey).map(label) ?? v.stationKey + " (not in the station database)")
                if let k = v.kind { out += " " + k.rawValue }
                if completing.contains(v.id) { out += " ★" }
                if let note = v.note { out += " — " + DisplayText.escaped(note) }
                out += "\n"
                index += 1
            }
            previousDay = date.isDay ? date.firstDay : nil
        }

        let newStations = shown.filter { completing.contains($0.id) }.count
        let total = try VisitedStations(log: log, store: store).statistics(store: store, by: nil).total
        out += "\n★ new stations: \(newStations)\n"
        out += "Completed: \(total.visited) of \(total.total) open stations (\(total.percentText))\n"
        return out
    }

    /// `2019-08-13 Tue`, `2019-08, day unknown`, `2019, month unknown`, `date unknown`.
    static func heading(_ d: VisitDate) -> String {
        if let w = d.weekday { return "\(d) \(w)" }
        if d.isUnknown { return "date unknown" }
        return d.month == nil ? "\(d), month unknown" : "\(d), day unknown"
    }

    /// `小田原 (JR東海 新幹線)`, `小田原 (JR東日本)`, or the name alone when the operator is unknown.
    public static func label(_ s: Station) -> String {
        let cls = s.serviceClass == .shinkansen ? "新幹線" : nil
        let parts = [s.operatorLabel, cls].compactMap { $0 }
        return parts.isEmpty ? s.name : "\(s.name) (\(parts.joined(separator: " ")))"
    }
}

extension VisitTally {
    /// The percentage with two decimals and `%`, e.g. `0.03%`.
    public var percentText: String { String(format: "%.2f%%", percent) }
}
