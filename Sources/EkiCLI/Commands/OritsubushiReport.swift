import EkiImport
import EkiKit

/// The match report of `eki visit import --from oritsubushi`: a count line, then one line per
/// completion, matched first (by how), then ambiguous with the candidates, then unmatched with
/// the reason.
enum OritsubushiReport {
    static func text(file: String, app: OritsubushiFile, match: OritsubushiMatch) -> String {
        var out = "\(file): \(app.completions.count) completions: \(match.matched.count) matched, "
            + "\(match.ambiguous.count) ambiguous, \(match.unmatched.count) unmatched (\(app.notDone) listed as not done)\n"
        for m in match.matched {
            let how = m.how == .name ? "" : " (\(m.how.rawValue)\(detail(m)))"
            out += "matched: \(row(m.completion)) → \(m.station.key)\(how)\n"
        }
        for a in match.ambiguous {
            out += "ambiguous: \(row(a.completion)): \(a.candidates.count) entries: " + a.candidates.map(\.key).joined(separator: ", ") + "\n"
        }
        for u in match.unmatched { out += "unmatched: \(row(u.completion)): \(u.reason)\n" }
        return out
    }

    /// `金沢駅 (JR西日本, s_id 1140, 2015-03-14)`.
    static func row(_ c: OritsubushiFile.Completion) -> String {
        "\(c.name) (\(c.operatorName ?? "no operator"), s_id \(c.stationID), \(c.date))"
    }

    static func detail(_ m: OritsubushiMatch.Matched) -> String {
        switch m.how {
        case .name: return ""
        case .operatorChanged: return ": now \(m.station.operatorName ?? m.station.operatorID)"
        case .formerName, .samePlace:
            guard let p = m.completion.coordinate, let d = try? Geodesic.distance(p, m.station.coordinate) else { return ": now \(m.station.name)" }
            return ": now \(m.station.name), \(Int(d.rounded())) m"
        }
    }
}
