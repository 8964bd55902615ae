/// A station as JSON text, written straight into a byte buffer: the one encoder behind
/// `eki … --format geojson|json` and the map server's API.
///
/// A feature is an RFC 7946 GeoJSON Feature: `"type": "Feature"`, `"id"` (the entry key), a
/// Point geometry with `coordinates` `[lon, lat]` (degrees WGS84), and `properties`, in this order:
/// - `key` (string), `name` (string), `reading` (katakana or null), `latin_name` (or null),
///   `operator` (name or null), `operator_id` (string), `class` (`shinkansen`|`conventional`),
///   `lines` (array of strings), `prefecture` (or null), `open` (bool), `kind` (`regular`|
///   `seasonal`|`staff-only`, `StationKind`), `status` (`open`|`suspended`|`abolished`|`brt`,
///   `StationStatus`), `status_since` (`YYYY-MM-DD`, `YYYY-MM`, `YYYY` or null), `sources` (array of
///   `dataset:id` strings);
/// - then `distance_m` (geodesic distance in metres, one decimal) when a distance is known;
/// - then the caller's extra members (`matched_field`, `match`, `visited`, `completed`, …).
///
/// The flat object of `--format json` has the same members with `lat` and `lon` after `name`.
/// `Layout.compact` writes no white space (the API); `Layout.indented` writes one member per
/// line, two spaces a level, arrays of strings on one line (the command line's pretty JSON).
package enum StationFeatureJSON {
    /// The value of an extra member.
    public enum Value: Sendable {
        case string(String)
        case bool(Bool)
        case null

        public static func optional(_ s: String?) -> Value { s.map(Value.string) ?? .null }
    }

    /// How the text is laid out.
    public struct Layout: Sendable {
        /// The indentation of the object's own opening line; nil for compact text.
        public let indent: String?

        /// No white space at all.
        public static let compact = Layout(indent: nil)

        /// One member per line; `indent` is the indentation of the line the object starts on.
        public static func indented(_ indent: String) -> Layout { Layout(indent: indent) }

        /// The indentation of a feature's property members.
        var properties: String? { indent.map { $0 + "    " } }
    }

    /// A feature up to and including its last standard property (`sources`): no distance, no
    /// extras and no closing braces. Append members with `appendMember`/`appendDistance`, then
    /// close it with `appendEnd`.
    public static func head(_ s: Station, layout: Layout = .compact) -> [UInt8] {
        var o: [UInt8] = []
        o.reserveCapacity(400)
        let outer = layout.indent.map { $0 + "  " }, geometry = layout.indent.map { $0 + "    " }
        o.append(UInt8(ascii: "{"))
        name("type", outer, first: true, &o); JSONBytes.append("\"Feature\"", to: &o)
        name("id", outer, &o); JSONBytes.appendQuoted(s.key, to: &o)
        name("geometry", outer, &o); o.append(UInt8(ascii: "{"))
        name("type", geometry, first: true, &o); JSONBytes.append("\"Point\"", to: &o)
        name("coordinates", geometry, &o); o.append(UInt8(ascii: "["))
        JSONBytes.appendNumber(s.coordinate.lon, to: &o)
        o.append(UInt8(ascii: ","))
        JSONBytes.appendNumber(s.coordinate.lat, to: &o)
        o.append(UInt8(ascii: "]"))
        close(outer, &o)
        name("properties", outer, &o); o.append(UInt8(ascii: "{"))
        appendProperties(s, layout.properties, latLon: false, to: &o)
        return o
    }

    /// One extra member after a head: `,"name":value`.
    public static func appendMember(_ member: String, _ value: Value, layout: Layout = .compact, to out: inout [UInt8]) {
        name(member, layout.properties, quoting: true, &out)
        append(value, to: &out)
    }

    /// `distance_m` after a head: metres rounded to one decimal.
    public static func appendDistance(_ metres: Double, layout: Layout = .compact, to out: inout [UInt8]) {
        appendExtras(metres, [], layout.properties, &out)
    }

    /// Closes a feature begun by `head`: the properties object, then the feature.
    public static func appendEnd(layout: Layout = .compact, to out: inout [UInt8]) {
        close(layout.indent.map { $0 + "  " }, &out)
        close(layout.indent, &out)
    }

    /// One whole feature: head, `distance_m` when `distance` is given, `extra` in order, end.
    public static func appendFeature(_ s: Station, distance: Double? = nil, extra: [(String, Value)] = [],
                                     layout: Layout = .compact, to out: inout [UInt8]) {
        out.append(contentsOf: head(s, layout: layout))
        appendTail(distance: distance, extra: extra, layout: layout, to: &out)
    }

    /// The flat object of `--format json`: the feature's properties with `lat` and `lon` (degrees)
    /// after `name`, then `distance_m` and `extra` as in a feature.
    public static func appendObject(_ s: Station, distance: Double? = nil, extra: [(String, Value)] = [],
                                    layout: Layout = .compact, to out: inout [UInt8]) {
        let members = layout.indent.map { $0 + "  " }
        out.append(UInt8(ascii: "{"))
        appendProperties(s, members, latLon: true, to: &out)
        appendExtras(distance, extra, members, &out)
        close(layout.indent, &out)
    }

    // MARK: private

    private static func appendTail(distance: Double?, extra: [(String, Value)], layout: Layout, to out: inout [UInt8]) {
        appendExtras(distance, extra, layout.properties, &out)
        appendEnd(layout: layout, to: &out)
    }

    private static func appendExtras(_ distance: Double?, _ extra: [(String, Value)], _ indent: String?, _ out: inout [UInt8]) {
        if let distance {
            name("distance_m", indent, &out)
            JSONBytes.appendNumber(distance, decimals: 1, to: &out)
        }
        for (k, v) in extra {
            name(k, indent, quoting: true, &out)
            append(v, to: &out)
        }
    }

    private static func appendProperties(_ s: Station, _ indent: String?, latLon: Bool, to o: inout [UInt8]) {
        name("key", indent, first: true, &o); JSONBytes.appendQuoted(s.key, to: &o)
        name("name", indent, &o); JSONBytes.appendQuoted(s.name, to: &o)
        if latLon {
            name("lat", indent, &o); JSONBytes.appendNumber(s.coordinate.lat, to: &o)
            name("lon", indent, &o); JSONBytes.appendNumber(s.coordinate.lon, to: &o)
        }
        name("reading", indent, &o); JSONBytes.appendOptional(s.reading, to: &o)
        name("latin_name", indent, &o); JSONBytes.appendOptional(s.latinName, to: &o)
        name("operator", indent, &o); JSONBytes.appendOptional(s.operatorName, to: &o)
        name("operator_id", indent, &o); JSONBytes.appendQuoted(s.operatorID, to: &o)
        name("class", indent, &o); JSONBytes.appendQuoted(s.serviceClass.rawValue, to: &o)
        name("lines", indent, &o); JSONBytes.appendStrings(s.lines, to: &o)
        name("prefecture", indent, &o); JSONBytes.appendOptional(s.prefecture, to: &o)
        name("open", indent, &o); JSONBytes.append(s.isOpen ? "true" : "false", to: &o)
        name("kind", indent, &o); JSONBytes.appendQuoted(s.kind.rawValue, to: &o)
        name("status", indent, &o); JSONBytes.appendQuoted(s.status.rawValue, to: &o)
        name("status_since", indent, &o); JSONBytes.appendOptional(s.statusSince, to: &o)
        name("sources", indent, &o); JSONBytes.appendStrings(s.sources.map(\.description), to: &o)
    }

    private static func append(_ v: Value, to out: inout [UInt8]) {
        switch v {
        case .string(let s): JSONBytes.appendQuoted(s, to: &out)
        case .bool(let b): JSONBytes.append(b ? "true" : "false", to: &out)
        case .null: JSONBytes.append("null", to: &out)
        }
    }

    /// `,"member":` (compact) or `,\n<indent>"member": `; no comma for the first member.
    /// Fixed member names are plain ASCII and written as they are; `quoting` escapes others.
    private static func name(_ member: String, _ indent: String?, first: Bool = false, quoting: Bool = false,
                             _ out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        if let indent { out.append(UInt8(ascii: "\n")); out.append(contentsOf: indent.utf8) }
        if quoting { JSONBytes.appendQuoted(member, to: &out) } else {
            out.append(UInt8(ascii: "\"")); out.append(contentsOf: member.utf8); out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: ":"))
        if indent != nil { out.append(UInt8(ascii: " ")) }
    }

    /// `}` compact, or a new line at `indent` then `}`, where `indent` is that of the object's
    /// opening line.
    private static func close(_ indent: String?, _ out: inout [UInt8]) {
        if let indent { out.append(UInt8(ascii: "\n")); out.append(contentsOf: indent.utf8) }
        out.append(UInt8(ascii: "}"))
    }
}
