import Foundation

/// The date of a visit as a person remembers it: a day (`2019-08-15`), a month (`2019-08`), a
/// year (`2019`), or unknown ("visited, date unknown"). Calendar dates are proleptic Gregorian,
/// with no time zone (the traveller's local date).
///
/// Order: unknown first, then by the first day each date can mean, a less precise date before
/// the more precise dates it contains: `unknown < 2019 < 2019-08 < 2019-08-01 < 2019-08-15 <
/// 2019-09`. This is also the order of the text form, so SQLite's `ORDER BY date` (with NULL for
/// unknown) gives it too. An undated visit is taken as the earliest: people leave undated the
/// visits they made before keeping a log.
public struct VisitDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Year (1000...9999), nil when the date is unknown.
    public let year: Int?
    /// Month (1...12), nil for a year-only or unknown date.
    public let month: Int?
    /// Day of the month (1...28/29/30/31), nil unless the date is a full day.
    public let day: Int?

    /// "Visited, date unknown".
    public static let unknown = VisitDate(uncheckedYear: nil, month: nil, day: nil)

    private init(uncheckedYear year: Int?, month: Int?, day: Int?) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// A year, month or day; nil when a field is out of range (day beyond the month's length,
    /// 29 February outside leap years), or when a day is given without a month.
    public init?(year: Int, month: Int? = nil, day: Int? = nil) {
        guard (1000...9999).contains(year) else { return nil }
        if let month { guard (1...12).contains(month) else { return nil } }
        if let day {
            guard let month, (1...VisitDate.daysIn(year: year, month: month)).contains(day) else { return nil }
        }
        self.init(uncheckedYear: year, month: month, day: day)
    }

    /// Parses `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (4-digit year, 2-digit month and day), and the
    /// forms a spreadsheet saves dates in: `YYYY/M/D`, `YYYY/MM/DD`, `YYYY/M` (month and day of
    /// one or two digits) and `YYYY年M月D日`, `YYYY年M月`, `YYYY年` (full-width digits too: the
    /// text is NFKC-folded first); the empty string, `unknown` and `?` mean unknown.
    /// - Throws: `VisitDate.ParseError` for any other text, or a day or month out of range.
    public init(parsing text: String) throws(ParseError) {
        let t = TextFold.nfkc(text).trimmingCharacters(in: .whitespaces)
        if t.isEmpty || t == "?" || t.lowercased() == "unknown" {
            self = .unknown
            return
        }
        let digits = { (s: Substring) in s.allSatisfy { $0.isASCII && $0.isNumber } }
        let parts: [Substring]
        if t.contains("年") {
            // YYYY年, YYYY年M月, YYYY年M月D日: each number ends with its unit.
            var rest = Substring(t), found: [Substring] = []
            for unit in ["年", "月", "日"] where !rest.isEmpty {
                guard let i = rest.firstIndex(of: Character(unit)) else { found = []; break }
                found.append(rest[..<i])
                rest = rest[rest.index(after: i)...]
            }
            guard !found.isEmpty, rest.isEmpty, found[0].count == 4, found.dropFirst().allSatisfy({ (1...2).contains($0.count) }),
                  found.allSatisfy(digits) else {
                throw ParseError(text: text, reason: "expected YYYY年, YYYY年M月 or YYYY年M月D日")
            }
            parts = found
        } else if t.contains("/") {
            parts = t.split(separator: "/", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), parts[0].count == 4,
                  parts.dropFirst().allSatisfy({ (1...2).contains($0.count) }), parts.allSatisfy(digits) else {
                throw ParseError(text: text, reason: "expected YYYY/M/D or YYYY/M")
            }
        } else {
            parts = t.split(separator: "-", omittingEmptySubsequences: false)
            let widths = [4, 2, 2]
            guard parts.count <= 3, zip(parts, widths).allSatisfy({ $0.count == $1 && digits($0) }) else {
                throw ParseError(text: text, reason: "expected YYYY, YYYY-MM or YYYY-MM-DD")
            }
        }
        let n = parts.map { Int($0)! }
        guard let d = VisitDate(year: n[0], month: n.count > 1 ? n[1] : nil, day: n.count > 2 ? n[2] : nil) else {
            throw ParseError(text: text, reason: ParseError.noSuchDate)
        }
        self = d
    }

    /// A date that could not be read.
    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public var text: String
        public var reason: String
        public var description: String { "invalid date '\(text)': \(reason)" }
        /// The reason of a well-formed date that does not exist (2019-02-30).
        static let noSuchDate = "no such date"
        /// True when the text had a date's form but names no day of the calendar (2019-02-30).
        public var isNoSuchDate: Bool { reason == Self.noSuchDate }
    }

    public var isUnknown: Bool { year == nil }
    /// True for a full day (`YYYY-MM-DD`).
    public var isDay: Bool { day != nil }

    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`; nil when unknown. This is the stored and exported form.
    public var text: String? {
        guard let year else { return nil }
        var s = String(year)
        if let month { s += "-" + Self.twoDigits(month) }
        if let day { s += "-" + Self.twoDigits(day) }
        return s
    }

    /// The text form, or `unknown`.
    public var description: String { text ?? "unknown" }

    public static func < (a: VisitDate, b: VisitDate) -> Bool {
        (a.text ?? "") < (b.text ?? "")
    }

    // MARK: Days

    /// Days since 1970-01-01 of the first day this date can mean; nil when unknown.
    public var firstDay: Int? {
        guard let year else { return nil }
        return Self.dayNumber(year: year, month: month ?? 1, day: day ?? 1)
    }

    /// Days since 1970-01-01 of the last day this date can mean; nil when unknown.
    public var lastDay: Int? {
        guard let year else { return nil }
        let m = month ?? 12
        return Self.dayNumber(year: year, month: m, day: day ?? Self.daysIn(year: year, month: m))
    }

    /// The full day `n` days after 1970-01-01 (Hinnant's civil_from_days).
    public static func day(number n: Int) -> VisitDate {
        let z = n + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return VisitDate(uncheckedYear: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// Days since 1970-01-01 (Hinnant's days_from_civil, proleptic Gregorian).
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// English three-letter weekday of a full day (`Mon` … `Sun`); nil for a partial date.
    public var weekday: String? {
        guard isDay, let n = firstDay else { return nil }
        // 1970-01-01 was a Thursday.
        return ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((n % 7) + 7) % 7]
    }

    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
}

/// A range of dates for `eki visit list` and `share`, inclusive: `since 2019-08` begins on
/// 2019-08-01, `until 2019` ends on 2019-12-31. A visit is in the range when the days its date
/// can mean overlap it (a visit dated `2019-08` is in `--since 2019-08-20`); an undated visit is
/// in a range only when neither end is given.
public struct VisitDateRange: Sendable, Equatable {
    public var since: VisitDate?
    public var until: VisitDate?

    public init(since: VisitDate? = nil, until: VisitDate? = nil) {
        self.since = since?.isUnknown == true ? nil : since
        self.until = until?.isUnknown == true ? nil : until
    }

    /// True when neither end is given.
    public var isUnbounded: Bool { since == nil && until == nil }

    public func contains(_ date: VisitDate) -> Bool {
        if isUnbounded { return true }
        guard let first = date.firstDay, let last = date.lastDay else { return false }
        if let s = since?.firstDay, last < s { return false }
        if let u = until?.lastDay, first > u { return false }
        return true
    }
}
