/// Terminal column width: East Asian wide and full-width characters take two columns.
enum DisplayWidth {
    static func of(_ s: String) -> Int {
        var w = 0
        for u in s.unicodeScalars {
            let v = u.value
            if v < 0x20 { continue }
            if (0x0300...0x036F).contains(v) || (0x3099...0x309A).contains(v) { continue }   // combining
            if (0x1100...0x115F).contains(v) || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v)
                || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v)
                || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
                || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v) {
                w += 2
            } else {
                w += 1
            }
        }
        return w
    }

    /// `s` padded with spaces to `width` columns.
    static func pad(_ s: String, _ width: Int) -> String {
        s + String(repeating: " ", count: max(0, width - of(s)))
    }

    /// Rows aligned in columns separated by two spaces; trailing spaces trimmed. With a
    /// `width`, the `elidable` columns (indexes, the first to cut first) are narrowed one after
    /// the other, each to no less than `minimumWidth` (or its header), until the table fits;
    /// their longer cells are cut with `…`. When cutting is not enough, the `droppable` columns
    /// (indexes, the first to go first) are left out one at a time, then cutting is tried again.
    /// A table that still does not fit is left wider. The `rightAligned` columns (numbers) are
    /// padded on the left.
    static func table(header: [String], rows: [[String]], width: Int? = nil, elidable: [Int] = [],
                      droppable: [Int] = [], rightAligned: Set<Int> = []) -> String {
        var widths = header.map(of)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], of(c)) } }
        if let width {
            let total = widths.reduce(0, +) + 2 * max(0, widths.count - 1)
            let slack = elidable.reduce(0) { $0 + max(0, widths[$1] - max(minimumWidth, of(header[$1]))) }
            if total - slack > width, let drop = droppable.first {
                // Leave out one column and try again, with the other indexes shifted past it.
                func shifted(_ a: [Int]) -> [Int] { a.filter { $0 != drop }.map { $0 > drop ? $0 - 1 : $0 } }
                var h = header; h.remove(at: drop)
                let r = rows.map { row -> [String] in var row = row; row.remove(at: drop); return row }
                return table(header: h, rows: r, width: width, elidable: shifted(elidable),
                             droppable: shifted(Array(droppable.dropFirst())), rightAligned: Set(shifted(Array(rightAligned))))
            }
            var excess = total - width
            for i in elidable where excess > 0 {
                let cut = min(excess, max(0, widths[i] - max(minimumWidth, of(header[i]))))
                widths[i] -= cut
                excess -= cut
            }
        }
        var out = ""
        for r in [header] + rows {
            var line = ""
            for (i, c) in r.enumerated() {
                let cell = of(c) > widths[i] ? elide(c, widths[i]) : c
                let aligned = rightAligned.contains(i) ? String(repeating: " ", count: max(0, widths[i] - of(cell))) + cell
                    : i == r.count - 1 ? cell : pad(cell, widths[i])
                line += i == r.count - 1 ? aligned : aligned + "  "
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    /// The narrowest a column is cut to.
    static let minimumWidth = 6

    /// `s` cut to at most `width` columns, ending with `…`.
    static func elide(_ s: String, _ width: Int) -> String {
        var out = ""
        var w = 0
        for ch in s {
            let cw = of(String(ch))
            if w + cw > width - 1 { break }
            out.append(ch)
            w += cw
        }
        return out + "…"
    }
}
