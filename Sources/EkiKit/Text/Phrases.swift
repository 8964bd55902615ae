import Foundation

/// Every word `eki visit share` (text and picture) and `eki render` (legend, credits) show, in
/// one language: one catalog per language (`Phrases+Japanese.swift`, `Phrases+English.swift`),
/// chosen with `Language.phrases`. A catalog is a value of this type, so the compiler checks
/// that each language has every phrase.
///
/// Numbers of stations and days are written with thousands separators (`9,579`) in both
/// languages; percentages with two decimals.
public struct Phrases: Sendable {
    public let language: Language

    // MARK: Dates

    /// Weekday names, Monday first (`月` … `日`, `Mon` … `Sun`).
    public let weekdays: [String]
    /// A date as people read it: `2019年8月13日`, `2019年8月`, `2019年` / `2019-08-13`, `2019-08`,
    /// `2019`. Never called with an unknown date.
    let knownDate: @Sendable (_ year: Int, _ month: Int?, _ day: Int?) -> String
    /// Two dates of the same precision joined as a range, the second shortened where the
    /// language does (`2019年8月17日〜19日` / `2019-08-17 – 2019-08-19`).
    let joinRange: @Sendable (_ from: VisitDate, _ to: VisitDate) -> String
    /// A range open at one end: `2019年8月14日〜` / `from 2019-08-14`.
    let openSince: @Sendable (String) -> String
    /// `〜2019年8月31日` / `until 2019-08-31`.
    let openUntil: @Sendable (String) -> String
    /// A full day with its weekday: `2019年8月13日（火）` / `2019-08-13 Tue`.
    let dayWithWeekday: @Sendable (_ date: String, _ weekday: String) -> String
    /// A month whose day is not known: `2019年8月（日付不明）` / `2019-08, day unknown`.
    let dayUnknown: @Sendable (String) -> String
    /// A year whose month is not known: `2019年（月日不明）` / `2019, month unknown`.
    let monthUnknown: @Sendable (String) -> String
    /// An undated visit's heading: `日付不明` / `date unknown`.
    public let dateUnknown: String

    // MARK: Visit share

    /// The summary's title word, before the period: `乗下車記録` / `Visits`.
    public let shareTitle: String
    /// The line of an empty period: `この期間の記録はありません。` / `No visits.`.
    public let noVisits: String
    /// A visit's kind: 乗車 / 降車 / 乗換 / 通過, board / alight / transfer / pass.
    let kinds: [VisitKind: String]
    /// A station with its operator and class: `小田原（JR東海 新幹線）` / `小田原 (JR東海 新幹線)`.
    let stationWithOperator: @Sendable (_ name: String, _ operatorAndClass: String) -> String
    /// A word added after a line's text (the kind, ★, the note): `小田原（JR東日本）乗車`,
    /// `風祭 ★` / `小田原 (JR東日本) board`.
    let append: @Sendable (_ text: String, _ word: String) -> String
    /// A recorded key the database no longer has.
    let notInDatabase: @Sendable (_ key: String) -> String
    /// A visit's note, added after the rest of its line: `「こだま 660号」` / `— こだま 660号`.
    let note: @Sendable (String) -> String
    /// One day without visits between two visited days: `2019年8月15日　記録のない日`.
    let emptyDay: @Sendable (_ day: String) -> String
    /// A run of days without visits: `2019年8月17日〜19日　記録のない日が 3 日`.
    let emptyRun: @Sendable (_ range: String, _ count: String) -> String
    /// The count of entries first completed in the period: `★ 初めて乗下車した駅：3 駅`.
    let newStationsLine: @Sendable (_ count: String) -> String
    /// The completion figures: `降りつぶし：14 / 9,579 駅（0.15 %）`.
    let completionLine: @Sendable (_ visited: String, _ total: String, _ percent: String) -> String
    /// `0.15 %` / `0.15%`.
    let percent: @Sendable (String) -> String

    // MARK: Maps

    /// The legend's rows: visited, unvisited, and the figures of the view.
    let legendVisited: @Sendable (String) -> String
    let legendUnvisited: @Sendable (String) -> String
    let legendInView: @Sendable (_ visited: String, _ total: String) -> String
    /// The credit of N02 station data and N03 prefecture outlines, in the wording 国土数値情報
    /// asks for (Japanese in every language: it is the required text).
    public let creditN02AndN03: String
    public let creditN02: String
    public let creditN03: String
    /// station_database's credit (CC BY-SA 4.0 asks for the source and licence).
    public let creditStationDatabase: String
    public let creditEkidata: String
    public let creditGTFS: String

    // MARK: Using the catalog

    /// `date` as people read it, or the heading of an undated visit.
    public func date(_ date: VisitDate) -> String {
        guard let y = date.year else { return dateUnknown }
        return knownDate(y, date.month, date.day)
    }

    /// A range of two dates (the same date gives the date alone).
    public func range(_ from: VisitDate, _ to: VisitDate) -> String { from == to ? date(from) : joinRange(from, to) }

    /// `since` / `until` forms of an open range.
    public func range(since: VisitDate) -> String { openSince(date(since)) }
    public func range(until: VisitDate) -> String { openUntil(date(until)) }

    /// A day heading of the share: the day with its weekday, or what is not known of the date.
    public func heading(_ d: VisitDate) -> String {
        if let w = d.weekdayIndex { return dayWithWeekday(date(d), weekdays[w]) }
        if d.isUnknown { return dateUnknown }
        return d.month == nil ? monthUnknown(date(d)) : dayUnknown(date(d))
    }

    public func kind(_ k: VisitKind) -> String { kinds[k]! }

    /// A visit's line: the station's text, then its kind, ★ when it completes the station, and
    /// the note.
    public func visitLine(_ station: String, kind k: VisitKind?, completes: Bool, note: String?) -> String {
        var line = station
        if let k { line = append(line, kind(k)) }
        if completes { line = append(line, "★") }
        if let note { line = append(line, self.note(note)) }
        return line
    }

    /// `小田原（JR東海 新幹線）`, or the name alone when the operator is unknown.
    public func station(_ s: Station) -> String {
        let parts = [s.operatorLabel, s.serviceClass == .shinkansen ? "新幹線" : nil].compactMap { $0 }
        return parts.isEmpty ? s.name : stationWithOperator(s.name, parts.joined(separator: " "))
    }

    public func missingStation(_ key: String) -> String { notInDatabase(key) }

    /// The collapsed line for the days `from`…`to` (full days), `count` days.
    public func emptyDays(from: VisitDate, to: VisitDate, count: Int) -> String {
        count == 1 ? emptyDay(date(from)) : emptyRun(range(from, to), Self.number(count))
    }

    public func newStations(_ count: Int) -> String { newStationsLine(Self.number(count)) }

    public func completion(_ t: VisitTally) -> String {
        completionLine(Self.number(t.visited), Self.number(t.total), percent(String(format: "%.2f", t.percent)))
    }

    public func legend(visited: Int, total: Int) -> [String] {
        [legendVisited(Self.number(visited)), legendUnvisited(Self.number(total - visited)),
         legendInView(Self.number(visited), Self.number(total))]
    }

    /// `9579` → `9,579`.
    public static func number(_ n: Int) -> String {
        let digits = String(abs(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

}

extension Language {
    /// The catalog of this language.
    public var phrases: Phrases {
        switch self {
        case .ja: return .japanese
        case .en: return .english
        }
    }
}

extension VisitDate {
    /// The weekday of a full day, 0 = Monday … 6 = Sunday; nil for a partial date.
    public var weekdayIndex: Int? {
        guard isDay, let n = firstDay else { return nil }
        // 1970-01-01 (day 0) was a Thursday.
        return ((n % 7) + 7 + 3) % 7
    }
}
