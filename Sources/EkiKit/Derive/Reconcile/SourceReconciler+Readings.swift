/// The reading rules of `SourceReconciler`: a reading with bracketed alternatives keeps them
/// all, and each row shows the one that is its own.
extension SourceReconciler {
    /// The parts of a text with bracketed alternatives, the text outside the brackets first:
    /// `さいいん(さい)` → [`さいいん`, `さい`], `近鉄四日市（あすなろう四日市）` → [`近鉄四日市`,
    /// `あすなろう四日市`]. Brackets `()`, `（）`, `〈〉`, `[]`; spaces (also U+3000) dropped from
    /// readings by the importers, kept here. A text without brackets is one part; empty parts
    /// are left out.
    public static func bracketParts(_ s: String) -> [String] {
        var main = "", inner: [String] = [], current = ""
        var depth = 0
        for ch in s {
            switch ch {
            case "(", "（", "〈", "[":
                if depth == 0 { current = "" } else { current.append(ch) }
                depth += 1
            case ")", "）", "〉", "]":
                depth = max(0, depth - 1)
                if depth == 0 { if !current.isEmpty { inner.append(current) } } else { current.append(ch) }
            default:
                if depth == 0 { main.append(ch) } else { current.append(ch) }
            }
        }
        return (main.isEmpty ? [] : [main]) + inner
    }

    /// Rule 0: a row whose reading carries bracketed alternatives (station_database's
    /// `さいいん(さい)`, `さんのみや(こうべさんのみや)`) keeps the reading outside the brackets;
    /// all of them are kept for `chooseReadings`, paired with the parts of the row's name when
    /// the name has as many (`三宮(神戸三宮)` ↔ `さんのみや(こうべさんのみや)`).
    func splitReadings(_ ctx: inout Context) {
        for i in ctx.rows.indices {
            guard let r = ctx.rows[i].reading else { continue }
            let parts = Self.bracketParts(r)
            guard parts.count > 1 || (parts.count == 1 && parts[0] != r) else { continue }
            ctx.rows[i].reading = parts.first
            let names = Self.bracketParts(ctx.rows[i].name)
            ctx.readingParts[i] = parts.enumerated().map { k, reading in
                (names.count == parts.count ? TextFold.nameKey(names[k]) : nil, reading)
            }
        }
    }

    /// Rule 8, after the names are settled: a row of an operator and name listed in `readings`
    /// shows that reading (京福 西院 さい, 阪急 西院 さいいん); a row whose reading had
    /// alternatives shows the one paired with the name it now shows (阪急 神戸三宮:
    /// こうべさんのみや; 神戸市交通局 三宮: さんのみや), else the one outside the brackets. The
    /// row's other readings become its aliases, so search finds the station by any of them —
    /// but where `readings` lists the row, only the readings it gives that name and those paired
    /// with a part of the name (京福 西院 keeps 阪急's さいいん, 西鉄福岡（天神） its てんじん; JR九州
    /// 人吉 drops station_database's ひとよしおんせん, a wrong reading).
    /// Counted (`readingShown`) where the reading shown is not the one outside the brackets.
    func chooseReadings(_ ctx: inout Context, _ report: inout Report) {
        // The name first: the table lists a few names, and most rows have none of them.
        var curatedReadings: [String: Set<String>] = [:]   // name key → every reading the table gives it
        for e in readings.entries { curatedReadings[TextFold.nameKey(e.station), default: []].insert(e.value) }
        for i in ctx.rows.indices {
            let parts = ctx.readingParts.isEmpty ? [] : ctx.readingParts[i] ?? []
            let name = ctx.nameKey(i)
            let curated = curatedReadings[name] != nil
            // Nothing to choose: no alternatives and no curated reading.
            if parts.isEmpty && !curated { continue }
            var all = parts.map(\.reading)
            if let r = ctx.rows[i].reading, !all.contains(r) { all.insert(r, at: 0) }
            var shown = ctx.rows[i].reading
            if curated, let op = operatorID(ctx.rows[i]),
               let curated = readings.reading(operatorID: op, nameKey: name) {
                shown = curated
                let paired = Set(parts.filter { $0.name != nil }.map(\.reading))
                all.removeAll { !curatedReadings[name]!.contains($0) && !paired.contains($0) }
            } else if let paired = parts.first(where: { $0.name == name }) {
                shown = paired.reading
            }
            guard !all.isEmpty || shown != ctx.rows[i].reading else { continue }
            if shown != ctx.rows[i].reading { report.counts[.readingShown, default: 0] += 1 }
            ctx.rows[i].reading = shown
            for r in all where r != shown && !ctx.rows[i].aliases.contains(r) { ctx.rows[i].aliases.append(r) }
        }
    }
}
