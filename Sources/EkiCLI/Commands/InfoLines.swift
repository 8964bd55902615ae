import EkiKit

/// The line part of `eki info`: open lines, and per dataset how many of its lines no other
/// dataset's line joined ("unmatched": every source of the line is that dataset's).
struct InfoLines {
    struct Dataset { var name: String; var lines: Int; var unmatched: Int }
    /// Open lines of the line table.
    var open: [Line]
    /// Per dataset with lines, in the order `store.info.summary()` lists datasets.
    var datasets: [Dataset]
    /// The ids of the open lines with no full order (`LineTable.withoutFullOrder`).
    var unordered: [String]

    /// nil when the database has no line table.
    /// - Throws: `SQLiteError`.
    init?(store: StationStore, datasets names: [String]) throws {
        guard store.lines.exists else { return nil }
        let open = try store.lines.all()
        self.open = open
        unordered = try store.lines.withoutFullOrder()
        datasets = names.compactMap { name in
            let mine = open.filter { l in l.sources.contains { Self.dataset(of: $0) == name } }
            guard !mine.isEmpty else { return nil }
            return Dataset(name: name, lines: mine.count, unmatched: mine.filter { Self.isUnmatched($0, dataset: name) }.count)
        }
    }

    /// The dataset of a `dataset:line name` source: the text before the first `:` (dataset
    /// names hold none: `n02`, `station-database`, `gtfs/<feed>`).
    static func dataset(of source: String) -> String {
        source.firstIndex(of: ":").map { String(source[..<$0]) } ?? source
    }

    /// True when every source of `line` is `dataset`'s.
    static func isUnmatched(_ line: Line, dataset: String) -> Bool {
        line.sources.allSatisfy { Self.dataset(of: $0) == dataset }
    }

    /// `--unmatched-lines DATASET`: the open lines only DATASET has, by operator id and name.
    func unmatched(_ dataset: String) -> [Line] {
        open.filter { Self.isUnmatched($0, dataset: dataset) && $0.sources.contains { Self.dataset(of: $0) == dataset } }
    }

    /// The table section.
    var text: String {
        var out = "\nlines: \(open.count) open"
        if datasets.count > 1 {
            out += " (unmatched: only that dataset has the line; list them with --unmatched-lines DATASET)\n"
            out += DisplayWidth.table(header: ["dataset", "lines", "unmatched"],
                                      rows: datasets.map { [$0.name, String($0.lines), String($0.unmatched)] })
        } else {
            out += "\n"
        }
        if !unordered.isEmpty {
            out += "lines without a full order (some stations have no position): \(unordered.count): "
                + unordered.joined(separator: ", ") + "\n"
        }
        return out
    }

    /// The JSON member.
    var json: JSONValue {
        .object([("open", .int(open.count)), ("unordered", .array(unordered.map { .string($0) })),
                 ("datasets", .array(datasets.map { .object([("dataset", .string($0.name)), ("lines", .int($0.lines)),
                                                             ("unmatched", .int($0.unmatched))]) }))])
    }

    /// The listing of `--unmatched-lines`.
    static func render(_ lines: [Line], json: Bool) -> String {
        if json {
            return JSONValue.array(lines.map { l in
                .object([("id", .string(l.id)), ("name", .string(l.name)), ("operator_id", .string(l.operatorID)),
                         ("operator", .string(l.operatorName)), ("class", .string(l.serviceClass.rawValue)),
                         ("total", .int(l.total)), ("sources", .array(l.sources.map { .string($0) }))])
            }).text(pretty: true) + "\n"
        }
        return DisplayWidth.table(header: ["id", "operator", "line", "stations", "sources"],
                                  rows: lines.map { [$0.id, $0.operatorName, $0.name, String($0.total), $0.sources.joined(separator: " ")] })
    }
}
