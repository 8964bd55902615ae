import EkiSQLite
import Foundation

/// The summary of `eki visit share`, for pasting into a message: a title with the period, the
/// visits grouped by day (a travel itinerary), each run of days without visits between two
/// visited days collapsed into one line, and the completion figures at the end. Japanese by
/// default, English when asked; every word comes from the language's `Phrases`.
///
/// ```
/// 乗下車記録 2019年8月13日〜17日
///
/// 2019年8月13日（火）
///   小田原（JR東日本）乗車 ★
///   小田原（JR東海 新幹線）降車 ★ 「こだま 660号」
/// 2019年8月14日〜16日　記録のない日が 3 日
/// 2019年8月17日（土）
///   熱海（JR東海）乗換 ★
///
/// ★ 初めて乗下車した駅：3 駅
/// 降りつぶし：3 / 9,566 駅（0.03 %）
/// ```
/// English (`--lang en`):
/// ```
/// Visits 2019-08-13 – 2019-08-17
///
/// 2019-08-13 Tue
///   小田原 (JR東日本) board ★
///   小田原 (JR東海 新幹線) alight ★ — こだま 660号
/// 2019-08-14 – 2019-08-16: no visits (3 days)
/// 2019-08-17 Sat
///   熱海 (JR東海) transfer ★
///
/// ★ new stations: 3
/// Completed: 3 of 9,566 open stations (0.03%)
/// ```
/// A station line is the name, then operator (and 新幹線 for the Shinkansen class), the kind,
/// ★ when this visit is the station's first counting visit (its completion), and the note.
/// Visits dated only by month or year come in their own group (`2019年8月（日付不明）`) before
/// the days of that month or year; undated visits (`日付不明`) come first and only when no
/// period is given. A key that resolves to no entry is shown as the key, never with ★.
public enum VisitShare {
    /// What a line of the summary is (the picture draws each kind in its own style).
    public enum LineKind: String, Sendable {
        /// The first line: the title word and the period.
        case title
        /// An empty line (after the title, before the figures).
        case blank
        /// A day heading, or the heading of visits of a month, a year or no date.
        case day
        /// One visit (indented by two spaces in the text).
        case visit
        /// A collapsed run of days without visits.
        case emptyDays
        /// The new-station count, the completion, or the line of an empty period.
        case figures
    }

    /// One line of the summary, without the visit indent.
    public struct Line: Sendable, Equatable {
        public var kind: LineKind
        public var text: String
        /// On a `.day` line: the ids of the visits listed under it (for their photos); else empty.
        public var visitIDs: [Int64] = []
    }

    /// The summary as lines, in order.
    public struct Summary: Sendable {
        public var lines: [Line]
        public var language: Language

        /// The plain text: one line each, visits indented by two spaces, ending with a newline.
        public var text: String {
            lines.map { ($0.kind == .visit ? "  " : "") + $0.text + "\n" }.joined()
        }
    }

    /// The summary of the visits of `log` in `range` (see `VisitDateRange`), names and totals
    /// from `store`, in `language`; the completion figure counts under `rules` (the log's
    /// setting when nil).
    /// - Throws: `SQLiteError`.
    public static func summary(log: VisitLog, store: StationStore, range: VisitDateRange = VisitDateRange(),
                               language: Language = .ja, rules: CountingRules? = nil) throws -> Summary {
        let words = language.phrases
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

        var lines: [Line] = []
        var title = words.shareTitle
        let first = range.since ?? shown.first(where: { !$0.date.isUnknown })?.date
        let last = range.until ?? shown.last?.date
        switch (first, last.flatMap { $0.isUnknown ? nil : $0 }) {
        case let (f?, l?): title += " " + words.range(f, l)
        case let (f?, nil): title += " " + words.range(since: f)
        case let (nil, l?): title += " " + words.range(until: l)
        case (nil, nil): break
        }
        lines.append(Line(kind: .title, text: title))
        lines.append(Line(kind: .blank, text: ""))
        if shown.isEmpty { lines.append(Line(kind: .figures, text: words.noVisits)) }

        var previousDay: Int? = nil
        var index = 0
        while index < shown.count {
            let date = shown[index].date
            if date.isDay, let p = previousDay, let n = date.firstDay, n - p > 1 {
                lines.append(Line(kind: .emptyDays, text: words.emptyDays(from: VisitDate.day(number: p + 1),
                                                                           to: VisitDate.day(number: n - 1), count: n - p - 1)))
            }
            let heading = lines.count
            lines.append(Line(kind: .day, text: words.heading(date)))
            while index < shown.count && shown[index].date == date {
                lines[heading].visitIDs.append(shown[index].id)
                let v = shown[index]
                let text = words.visitLine(try station(v.stationKey).map(words.station) ?? words.missingStation(v.stationKey),
                                           kind: v.kind, completes: completing.contains(v.id),
                                           note: v.note.map(DisplayText.escaped))
                lines.append(Line(kind: .visit, text: text))
                index += 1
            }
            previousDay = date.isDay ? date.firstDay : nil
        }

        let newStations = shown.filter { completing.contains($0.id) }.count
        let total = try VisitedStations(log: log, store: store)
            .statistics(store: store, by: nil, rules: rules ?? log.countingRules()).total
        lines.append(Line(kind: .blank, text: ""))
        lines.append(Line(kind: .figures, text: words.newStations(newStations)))
        lines.append(Line(kind: .figures, text: words.completion(total)))
        return Summary(lines: lines, language: language)
    }

    /// `summary(log:store:range:language:)` as plain text.
    /// - Throws: `SQLiteError`.
    public static func text(log: VisitLog, store: StationStore, range: VisitDateRange = VisitDateRange(),
                            language: Language = .ja) throws -> String {
        try summary(log: log, store: store, range: range, language: language).text
    }

    /// `小田原 (JR東海 新幹線)`, `小田原 (JR東日本)`, or the name alone when the operator is unknown:
    /// the label the command line's English listings use (`Phrases.station` in a language).
    public static func label(_ s: Station) -> String { Phrases.english.station(s) }
}

extension VisitTally {
    /// The percentage with two decimals and `%`, e.g. `0.03%`.
    public var percentText: String { String(format: "%.2f%%", percent) }
}
