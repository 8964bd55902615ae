/// The spelling rules of `SourceReconciler`: a name shown as the newer source writes it where
/// the sources differ only in how they write one name, and as the operator writes it where the
/// curated table (`StationNames`) says so.
extension SourceReconciler {
    /// True when `newer` writes the same name as `shown` and differs only in its forms: the
    /// small or large ケ (`保土ヶ谷` / `保土ケ谷`, also ヵ / カ), the half-width middle dot
    /// (`ベイサイド･ステーション` / `ベイサイド・ステーション`), variant kanji (`KanjiVariants`:
    /// `下祗園` / `下祇園`, `遥堪` / `遙堪`), or kana for the kanji of the same reading (`難波`
    /// read なんば / `なんば`). A name with brackets (`市ケ谷(市ヶ谷)`: two spellings, one per
    /// operator) is never one; width (`北１２条` / `北12条`) is not a spelling (the shown form stays).
    /// - Parameter reading: the reading of `shown`, hiragana (`readingKey`), for the kana case.
    public static func spellingOnly(_ newer: String, of shown: String, reading: String?) -> Bool {
        guard newer != shown, bracketParts(newer) == [newer] else { return false }
        if TextFold.isKana(newer), shown.unicodeScalars.contains(where: { (0x4E00...0x9FFF).contains($0.value) }), let reading {
            return TextFold.hiragana(TextFold.nameKey(newer)) == reading
        }
        let a = Array(newer.unicodeScalars), b = Array(shown.unicodeScalars)
        guard a.count == b.count else { return false }
        var differs = false
        for (x, y) in zip(a, b) where x != y {
            guard spellingForm(x) == spellingForm(y) else { return false }
            differs = true
        }
        return differs
    }

    /// One form of the characters `spellingOnly` treats as one: ヶ → ケ, ヵ → カ, ･ → ・, a
    /// variant kanji → its standard form.
    private static func spellingForm(_ u: Unicode.Scalar) -> Unicode.Scalar {
        switch u {
        case "ヶ": "ケ"
        case "ヵ": "カ"
        case "･": "・"
        default: KanjiVariants.standard(u)
        }
    }

    /// Rule 6b, after `unifyNames`: a row of an operator and station listed in `names` shows the
    /// operator's spelling (the same `TextFold.nameKey`, so no key changes).
    func applySpellings(_ ctx: inout Context, _ report: inout Report) {
        guard !names.entries.isEmpty else { return }
        let listed = Set(names.entries.map { TextFold.nameKey($0.station) })
        for i in ctx.rows.indices {
            let key = ctx.nameKey(i)
            guard listed.contains(key), let op = operatorID(ctx.rows[i]),
                  let name = names.name(operatorID: op, nameKey: key), name != ctx.rows[i].name else { continue }
            let old = ctx.rows[i].name
            ctx.rows[i].name = name
            report.add(Decision(kind: .spelling, row: ctx.rows[i].source, name: old,
                                line: ctx.rows[i].lines.first ?? "", before: old, after: name))
        }
    }
}
