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
    var extra: [(String, JSON)] = []
}

enum StationOutput {
    static func properties(_ r: StationRow) -> [(String, JSON)] {
        let s = r.station
        var p: [(String, JSON)] = [
            ("key", .string(s.key)), ("name", .string(s.name)), ("reading", .optional(s.reading)),
            ("latin_name", .optional(s.latinName)), ("operator", .optional(s.operatorName)),
            ("operator_id", .string(s.operatorID)),
            ("class", .string(s.serviceClass.rawValue)), ("lines", .array(s.lines.map(JSON.string))),
            ("prefecture", .optional(s.prefecture)), ("open", .bool(s.isOpen)),
            ("sources", .array(s.sources.map { .string($0.description) })),
        ]
        if let d = r.distance { p.append(("distance_m", .number((d * 10).rounded() / 10))) }
        return p + r.extra
    }

    /// The whole output for `rows` in `format`. A table is fitted to `width` columns (nil: no
    /// limit) by cutting long cells with `…`: lines first, then readings, operators and names;
    /// json, geojson and csv always carry full values.
    static func render(_ rows: [StationRow], format: OutputFormat, width: Int? = nil) -> String {
        switch format {
        case .geojson:
            let features = rows.map { r -> JSON in
                .object([("type", .string("Feature")), ("id", .string(r.station.key)),
                         ("geometry", .object([("type", .string("Point")),
                                               ("coordinates", .array([.number(r.station.coordinate.lon),
                                                                       .number(r.station.coordinate.lat)]))])),
                         ("properties", .object(properties(r)))])
            }
            return JSON.object([("type", .string("FeatureCollection")), ("features", .array(features))])
                .text(pretty: true) + "\n"
        case .json:
            return JSON.array(rows.map { r in
                var p = properties(r)
                p.insert(contentsOf: [("lat", .number(r.station.coordinate.lat)), ("lon", .number(r.station.coordinate.lon))], at: 2)
                return .object(p)
            }).text(pretty: true) + "\n"
        case .csv:
            var header = ["key", "name", "reading", "latin_name", "operator", "operator_id", "class", "lines", "prefecture", "open", "lat", "lon", "sources"]
            if rows.contains(where: { $0.distance != nil }) { header.append("distance_m") }
            header += rows.first?.extra.map(\.0) ?? []
            var out = header.joined(separator: ",") + "\r\n"
            for r in rows {
                let s = r.station
                var f = [s.key, s.name, s.reading ?? "", s.latinName ?? "", s.operatorName ?? "", s.operatorID,
                         s.serviceClass.rawValue, s.lines.joined(separator: ";"), s.prefecture ?? "",
                         s.isOpen ? "1" : "0", String(s.coordinate.lat), String(s.coordinate.lon),
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
                var f = [s.name + (s.isOpen ? "" : s.retired != nil ? " (retired)" : " (closed)"), s.reading ?? "", s.operatorLabel ?? "-",
                         s.serviceClass == .shinkansen ? "新幹線" : "在来線", s.lines.joined(separator: ", "),
                         String(format: "%.6f", s.coordinate.lat), String(format: "%.6f", s.coordinate.lon)]
                if withDistance { f.insert(formatDistance(r.distance ?? 0), at: 0) }
                f += r.extra.map { plain($0.1) }
                f.append(s.key)
                return f
            }
            let elidable = ["lines", "reading", "operator", "name"].compactMap { header.firstIndex(of: $0) }
            // On a narrow terminal the coordinates go first (json, geojson, csv and --wide keep them).
            let droppable = ["lon", "lat", "class"].compactMap { header.firstIndex(of: $0) }
            return DisplayWidth.table(header: header, rows: body, width: width, elidable: elidable,
                                      droppable: droppable)
                + "(\(rows.count) \(rows.count == 1 ? "entry" : "entries"))\n"
        }
    }

    static func formatDistance(_ m: Double) -> String {
        m < 1000 ? String(format: "%.0f m", m) : String(format: "%.2f km", m / 1000)
    }

    static func plain(_ j: JSON) -> String {
        switch j {
        case .string(let s): return s
        case .null: return ""
        case .bool(let b): return b ? "yes" : "no"
        default: return j.text()
        }
    }
}
