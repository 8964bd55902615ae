import EkiKit

/// `eki info --check`: the three checks of `StoreCheck`, one line each (`ok` or `damaged`, with
/// the problems below), then what is damaged and how to rebuild the file.
enum InfoCheck {
    /// What each check looked at, in a person's words.
    static func label(_ part: StoreCheck.Part, rows: Int) -> String {
        switch part.name {
        case "integrity_check": return "integrity_check: every page, table and index (SQLite)"
        case "stations": return "stations: \(rows) rows, text valid UTF-8, each point in its R-tree box"
        default: return "\(part.name): the spatial index (SQLite)"
        }
    }

    /// The report; exit status 0 when nothing is damaged, 1 otherwise.
    static func render(_ check: StoreCheck) -> (text: String, status: Int32) {
        var out = ""
        for part in check.parts {
            out += "\(part.isDamaged ? "damaged" : "ok     ")  \(label(part, rows: check.stationRows))\n"
            for p in part.problems { out += "           \(p)\n" }
        }
        guard check.isDamaged else {
            return (out + "\(check.path): ok, no damage found\n", 0)
        }
        let p = check.path
        out += "\n\(p) is damaged: \(check.damagedContents.joined(separator: "; ")). Commands reading it may fail or answer wrongly.\n"
        out += "Rebuild it: import the source files it was made from"
        out += check.datasets.isEmpty ? "" : " (\(check.datasets.joined(separator: ", ")))"
        out += " into a new file, then put that in its place:\n"
        out += "  eki import --db \(p).new FILE…\n  mv \(p).new \(p)\n"
        out += "Your visits are kept in their own file (the visit log, --visits), which neither the damage nor the rebuild touches.\n"
        return (out, 1)
    }
}
