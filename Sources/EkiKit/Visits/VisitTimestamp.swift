import Foundation

/// When a visit record was last changed (not when the visit happened: that is `VisitDate`), in
/// milliseconds since 1970-01-01T00:00:00Z. Sync compares these to pick the last edit; the text
/// form is RFC 3339 in UTC with milliseconds, `2026-12-02T18:30:00.123Z`.
public struct VisitTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch, UTC.
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// Not set: `VisitLog` stamps the time of writing.
    public static let unset = VisitTimestamp(milliseconds: 0)

    /// This machine's clock now.
    public static func now() -> VisitTimestamp {
        VisitTimestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    public static func < (a: VisitTimestamp, b: VisitTimestamp) -> Bool { a.milliseconds < b.milliseconds }

    /// `2026-12-02T18:30:00.123Z`.
    public var text: String {
        let seconds = milliseconds.quotientAndRemainder(dividingBy: 1000)
        var (s, ms) = (seconds.quotient, seconds.remainder)
        if ms < 0 { s -= 1; ms += 1000 }
        let days = s.quotientAndRemainder(dividingBy: 86_400)
        var (day, sec) = (days.quotient, days.remainder)
        if sec < 0 { day -= 1; sec += 86_400 }
        let date = VisitDate.day(number: Int(day))
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", date.year ?? 0, date.month ?? 0, date.day ?? 0,
                      Int(sec / 3600), Int(sec % 3600 / 60), Int(sec % 60), Int(ms))
    }

    public var description: String { text }

    /// Parses RFC 3339 date-time text: `YYYY-MM-DDTHH:MM:SS`, optional fraction (digits past
    /// milliseconds are dropped), then `Z` or `±HH:MM`; `t`, `z` and a space for `T` are taken too.
    /// Nil for anything else, or a field out of range (month 13, 30 February, hour 24).
    public init?(rfc3339 text: String) {
        let b = Array(text.utf8)
        func number(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= b.count else { return nil }
            var v = 0
            for c in b[at..<at + n] {
                guard (48...57).contains(c) else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard b.count >= 20, let y = number(0, 4), b[4] == 45, let mo = number(5, 2), b[7] == 45, let d = number(8, 2),
              [84, 116, 32].contains(b[10]), let h = number(11, 2), b[13] == 58, let mi = number(14, 2), b[16] == 58,
              let s = number(17, 2) else { return nil }
        guard (1...12).contains(mo), d >= 1, d <= VisitDate.daysIn(year: y, month: mo), h < 24, mi < 60, s < 60 else { return nil }
        var i = 19, ms = 0
        if i < b.count, b[i] == 46 {
            i += 1
            var digits = 0
            while i < b.count, (48...57).contains(b[i]) {
                if digits < 3 { ms = ms * 10 + Int(b[i] - 48) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { ms *= 10 }
        }
        var offset = 0
        guard i < b.count else { return nil }
        if b[i] == 90 || b[i] == 122 {
            i += 1
        } else if b[i] == 43 || b[i] == 45, let oh = number(i + 1, 2), i + 3 < b.count, b[i + 3] == 58, let om = number(i + 4, 2),
                  oh < 24, om < 60 {
            offset = (oh * 60 + om) * 60 * (b[i] == 43 ? 1 : -1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let seconds = Int64(VisitDate.dayNumber(year: y, month: mo, day: d)) * 86_400 + Int64(h * 3600 + mi * 60 + s) - Int64(offset)
        milliseconds = seconds * 1000 + Int64(ms)
    }
}
