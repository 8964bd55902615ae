import EkiKit
import Foundation

/// Output formats shared by every command that lists stations.
enum OutputFormat: String, CaseIterable {
    /// Aligned columns for people (default).
    case table
    /// A JSON array of station objects.
    case json
    /// An RFC 7946 FeatureCollection of Point features ([lon, lat]).
    case geojson
    /// RFC 4180 CSV with a header row; lists joined with `;`.
    case csv

    init(option: String?) throws(UsageError) {
        guard let option else { self = .table; return }
        guard let f = OutputFormat(rawValue: option.lowercased()) else {
            throw UsageError("--format must be one of \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")), got '\(option)'")
        }
        self = f
    }
}

/// A station as printed, with the extra columns some commands add.
struct StationRow {
    var station: Station
    /// Geodesic distance from the query point, metres (nearest).
    var distance: Double? = nil
    /// Extra properties appended after the standard ones (visited, completion date, …).
    var extra: [(String, StationFeatureJSON.Value)] = []
}

enum StationOutput {
    /// The whole output for `rows` in `format`. A table is fitted to `width` columns (nil: no
    /// limit) by cutting long cells with `…`: lines first, then readings, operators and names;
    /// when that is not enough, the coordinates, class, completion date and reading columns are
    /// left out in that order (`DisplayWidth.table`);
    /// a seasonal or staff-only stop has its kind after its name (`黒部峡谷 猫又 (staff-only)`);
    /// json, geojson and csv always carry full values. Features and json objects are written by
    /// `StationFeatureJSON` (the members are listed there), one member per line.
    static func render(_ rows: [StationRow], format: OutputFormat, width: Int? = nil) -> String {
        switch format {
        case .geojson:
            var out = Array("{\n  \"type\": \"FeatureCollection\",\n  \"features\": [".utf8)
            for (i, r) in rows.enumerated() {
                JSONBytes.append(i == 0 ? "\n    " : ",\n    ", to: &out)
                StationFeatureJSON.appendFeature(r.station, distance: r.distance, extra: r.extra,
                                                 layout: .indented("    "), to: &out)
            }
            JSONBytes.append(rows.isEmpty ? "]\n}\n" : "\n  ]\n}\n", to: &out)
            return String(decoding: out, as: UTF8.self)
        case .json:
            if rows.isEmpty { return "[]\n" }
            var out = Array("[".utf8)
            for (i, r) in rows.enumerated() {
                JSONBytes.append(i == 0 ? "\n  " : ",\n  ", to: &out)
                StationFeatureJSON.appendObject(r.station, distance: r.distance, extra: r.extra,
                                                layout: .indented("  "), to: &out)
            }
            JSONBytes.append("\n]\n", to: &out)
            return String(decoding: out, as: UTF8.self)
        case .csv:
            var header = ["key", "name", "reading", "latin_name", "operator", "operator_id", "class", "lines", "prefecture", "open", "kind", "lat", "lon", "sources"]
            if rows.contains(where: { $0.distance != nil }) { header.append("distance_m") }
            header += rows.first?.extra.map(\.0) ?? []
            var out = header.joined(separator: ",") + "\r\n"
            for r in rows {
                let s = r.station
                var f = [s.key, s.name, s.reading ?? "", s.latinName ?? "", s.operatorName ?? "", s.operatorID,
                         s.serviceClass.rawValue, s.lines.joined(separator: ";"), s.prefecture ?? "",
                         s.isOpen ? "1" : "0", s.kind.rawValue, String(s.coordinate.lat), String(s.coordinate.lon),
                         s.sources.map(\.description).joined(separator: ";")]
                if header.contains("distance_m") { f.append(r.distance.map { String(format: "%.1f", $0) } ?? "") }
                f += r.extra.map { plain($0.1) }
                out += CSVWriter.record(f)
            }
            return out
        case .table:
            var header = ["name", "reading", "operator", "class", "lines", "lat", "lon"]
            let withDistance = rows.contains { $0.distance != nil }
            if withDistance { header.insert("distance", at: 0) }
            header += rows.first?.extra.map(\.0) ?? []
            header.append("key")
            let body = rows.map { r -> [String] in
                let s = r.station
                var f = [s.name + (s.kind == .regular ? "" : " (\(s.kind.rawValue))")
                         + (s.isOpen ? "" : s.retired != nil ? " (retired)" : " (closed)"), s.reading ?? "", s.operatorLabel ?? "-",
                         s.serviceClass == .shinkansen ? "新幹線" : "在来線", s.lines.joined(separator: ", "),
                         String(format: "%.6f", s.coordinate.lat), String(format: "%.6f", s.coordinate.lon)]
                if withDistance { f.insert(formatDistance(r.distance ?? 0), at: 0) }
                // A completion with no date known says so (json and csv keep null / empty).
                let visited = r.extra.contains { if case .bool(true) = $0.1 { return $0.0 == "visited" }; return false }
                f += r.extra.map { name, value in
                    if case .null = value, name == "completed", visited { return "date unknown" }
                    return plain(value)
                }
                f.append(s.key)
                return f
            }
            let elidable = ["lines", "reading", "operator", "name"].compactMap { header.firstIndex(of: $0) }
            // On a narrow terminal the coordinates go first, then the class, the completion date
            // (the visit columns count like any other) and the reading; json, geojson, csv and
            // --wide keep them all.
            let droppable = ["lon", "lat", "class", "completed", "reading"].compactMap { header.firstIndex(of: $0) }
            return DisplayWidth.table(header: header, rows: body, width: width, elidable: elidable,
                                      droppable: droppable)
                + "(\(rows.count) \(rows.count == 1 ? "entry" : "entries"))\n"
        }
    }

    static func formatDistance(_ m: Double) -> String {
        m < 1000 ? String(format: "%.0f m", m) : String(format: "%.2f km", m / 1000)
    }

    static func plain(_ v: StationFeatureJSON.Value) -> String {
        switch v {
        case .string(let s): return s
        case .null: return ""
        case .bool(let b): return b ? "yes" : "no"
        }
    }
}
