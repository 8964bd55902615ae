/// The match form of a line name, for telling whether two sources' rows lie on the same line
/// (`LineKey.fold`): NFKC (via `TextFold.nfkc`), a bracketed section or alias dropped
/// (`JR北陸本線(金沢～敦賀)` → `JR北陸本線`), a leading `JR` dropped, then a trailing `本線`,
/// `線` or `支線` dropped, spaces removed. So N02-23's `北陸線` and `高山線` meet
/// station_database's `JR北陸本線(金沢～敦賀)` and `JR高山本線` as `北陸` and `高山`, while
/// `北陸新幹線` stays `北陸新幹`.
public enum LineKey {
    /// The folded line name; empty for an empty name.
    public static func fold(_ line: String) -> String {
        var t = TextFold.nfkc(line)
        if let open = t.firstIndex(where: { $0 == "(" || $0 == "〈" }), open != t.startIndex {
            t = String(t[..<open])
        }
        t = t.filter { $0 != " " && $0 != "\u{3000}" }
        if t.hasPrefix("JR") && t.count > 2 { t.removeFirst(2) }
        for suffix in ["支線", "本線", "線"] where t.hasSuffix(suffix) && t.count > suffix.count {
            t.removeLast(suffix.count)
            break
        }
        return t
    }

    /// The keys a line name is known by: `fold(line)`, and the folded bracketed name when the
    /// bracket holds another name of the line rather than a section (N02-23's `1号線(御堂筋線)`
    /// is `1号` and `御堂筋`; `JR北陸本線(金沢～敦賀)` only `北陸`), and the name without a leading
    /// route number (`10号線新宿線` is `10号線新宿` and `新宿`).
    public static func keys(_ line: String) -> [String] {
        let main = fold(line)
        var out = [main]
        // N02-23's subway names lead with the route number: `10号線新宿線` is also `新宿`.
        let digits = main.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, main.dropFirst(digits.count).hasPrefix("号線") {
            let rest = fold(String(main.dropFirst(digits.count + 2)))
            if !rest.isEmpty, rest != main { out.append(rest) }
        }
        let t = TextFold.nfkc(line)
        guard let open = t.firstIndex(where: { $0 == "(" || $0 == "〈" }), open != t.startIndex,
              let close = t.lastIndex(where: { $0 == ")" || $0 == "〉" }), close > open else { return out }
        let inner = String(t[t.index(after: open)..<close])
        if inner.isEmpty || inner.contains(where: { "～~-ー〜".contains($0) }) { return out }
        let alt = fold(inner)
        if !alt.isEmpty, !out.contains(alt) { out.append(alt) }
        return out
    }

    /// True when two folded line names name the same line as far as names tell: equal; or the
    /// longer is the shorter with an operator's name before it (station_database prefixes the
    /// company: `北陸鉄道石川` is 北陸鉄道 + N02's `石川`, `OsakaMetro御堂筋` is Osaka Metro +
    /// `御堂筋`); or the shorter followed by a direction of one of its parts (station_database's
    /// `神戸高速東西` and `神戸高速南北` are N02's `神戸高速`). Containment alone is not enough:
    /// `横浜市営地下鉄グリーンライン` begins with `横浜` (JR横浜線), `山陽電鉄` with `山陽` (JR山陽線)
    /// and `鹿島臨海鉄道大洗鹿島` ends with `鹿島` (JR鹿島線), yet none is that line. Empty keys
    /// match nothing.
    public static func matches(_ a: String, _ b: String) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        if a == b { return true }
        let (long, short) = a.count >= b.count ? (a, b) : (b, a)
        if long.hasSuffix(short), operatorPrefixes.contains(String(long.dropLast(short.count))) { return true }
        return long.hasPrefix(short) && ["東西", "南北"].contains(String(long.dropFirst(short.count)))
    }

    /// Every operator spelling of the built-in table (formal name, short name, aliases, English
    /// names) folded as line names are (NFKC, spaces removed), for `matches`.
    static let operatorPrefixes: Set<String> = {
        var out = Set<String>()
        for op in OperatorTable.builtIn.operators {
            for s in [op.name, op.shortName] + op.aliases + op.english {
                let t = TextFold.nfkc(s).filter { $0 != " " && $0 != "\u{3000}" }
                if !t.isEmpty { out.insert(t) }
            }
        }
        return out
    }()
}
