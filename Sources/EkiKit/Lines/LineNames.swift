/// How a source's line name becomes a line's display name and aliases.
///
/// A source line name is a head with optional brackets: `JR根室本線(花咲線)(釧路～根室)` is the
/// head `JR根室本線`, the other name `花咲線` and the section `釧路～根室` (a bracket holding
/// `～`, `〜` or `~`). The display name is the head without the operator's brand (`JR`,
/// `東京メトロ`: the longest common prefix, of 2 or more characters, of the heads of one
/// operator's lines in one source and class, when it has two or more; else of the 4 in 5 or
/// more that share their first two characters) and without a leading
/// route number (`3号線銀座線` → `銀座線`, N02's subway names), each dropped only when at least
/// 3 characters remain (`京成本線` stays, `本線` alone would name no line).
enum LineNames {
    /// The head of `name` and the texts of its brackets (ASCII or full-width), in order.
    static func parts(_ name: String) -> (head: String, brackets: [String]) {
        var head = "", inner = "", brackets: [String] = []
        var depth = 0
        for ch in name {
            if ch == "(" || ch == "（" {
                depth += 1
                if depth == 1 { inner = "" } else { inner.append(ch) }
            } else if ch == ")" || ch == "）", depth > 0 {
                depth -= 1
                if depth == 0 { brackets.append(inner) } else { inner.append(ch) }
            } else if depth > 0 {
                inner.append(ch)
            } else {
                head.append(ch)
            }
        }
        if depth > 0 { brackets.append(inner) }
        return (head.trimmingSpaces, brackets)
    }

    /// True when a bracket's text is a section (`東京～熱海`) rather than another name.
    static func isSection(_ bracket: String) -> Bool {
        bracket.contains("～") || bracket.contains("〜") || bracket.contains("~")
    }

    /// The brand shared by `heads` (see the type's note), or nil.
    static func brand(_ heads: Set<String>) -> String? {
        if let all = commonPrefix(heads) { return all }
        // A few other operators' lines placed at the operator's entries (a subway row the
        // reconciler gives a JR entry) must not hide the brand: the heads sharing the most
        // common first two characters, when they are 4 in 5 or more.
        guard heads.count >= 5 else { return nil }
        var starts: [String: Set<String>] = [:]
        for h in heads where h.count >= 2 { starts[String(h.prefix(2)), default: []].insert(h) }
        guard let most = starts.values.max(by: { ($0.count, $1.sorted().first ?? "") < ($1.count, $0.sorted().first ?? "") }),
              5 * most.count >= 4 * heads.count else { return nil }
        return commonPrefix(most)
    }

    /// The longest common prefix of `heads` when they are 2 or more and it has 2 or more
    /// characters.
    static func commonPrefix(_ heads: Set<String>) -> String? {
        guard heads.count >= 2, var prefix = heads.first.map(Array.init) else { return nil }
        for h in heads.dropFirst() {
            let a = Array(h)
            var n = 0
            while n < prefix.count, n < a.count, prefix[n] == a[n] { n += 1 }
            prefix.removeLast(prefix.count - n)
            if prefix.count < 2 { return nil }
        }
        return String(prefix)
    }

    /// The display name of a source line name, given its operator's brand in that source.
    static func display(_ name: String, brand: String?) -> String {
        var s = parts(name).head[...]
        if s.isEmpty { return name }
        if let brand, s.hasPrefix(brand), s.count - brand.count >= 3 { s = s.dropFirst(brand.count) }
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, s.dropFirst(digits.count).hasPrefix("号線"), s.count - digits.count - 2 >= 3 {
            s = s.dropFirst(digits.count + 2)
        }
        return String(s)
    }

    /// Every name a source line gives its line: the full name, the head, the display name and
    /// each bracket that is not a section, without repeats.
    static func aliases(_ name: String, brand: String?) -> [String] {
        let p = parts(name)
        var out: [String] = []
        for a in [name, p.head, display(name, brand: brand)] + p.brackets.filter({ !isSection($0) })
        where !a.isEmpty && !out.contains(a) { out.append(a) }
        return out
    }
}

extension String {
    /// Without leading and trailing spaces (ASCII and ideographic).
    var trimmingSpaces: String {
        let isSpace = { (c: Character) in c == " " || c == "\u{3000}" }
        guard let a = firstIndex(where: { !isSpace($0) }), let b = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[a...b])
    }
}
