/// A JSON value with object members kept in the order they were written, so output is stable
/// and reads in a sensible order (RFC 8259 text, UTF-8, no escaping of non-ASCII): the command
/// line's `--format json|geojson` documents and the small answers built from values rather than
/// bytes. Strings and numbers are written as `JSONBytes` writes them.
/// Sendable is declared, not inferred: inferring it for this recursive enum through
/// `[(String, JSONValue)]` is a cycle the Swift 6.3 compiler reports as "circular reference" when a
/// file that builds such an array is compiled incrementally.
public indirect enum JSONValue: Sendable {
    case string(String)
    /// A number as `JSONBytes.number` writes it (NaN and infinities as null).
    case number(Double)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }

    /// Compact text; with `pretty`, one member per line indented by two spaces (arrays of
    /// scalars stay on one line), `indent` being the indentation of the line the value starts on.
    public func text(pretty: Bool = false, indent: String = "") -> String {
        switch self {
        case .string(let s): return JSONBytes.quoted(s)
        case .number(let d): return JSONBytes.number(d)
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let a):
            if a.isEmpty { return "[]" }
            if !pretty || a.allSatisfy(\.isScalar) { return "[" + a.map { $0.text() }.joined(separator: ",") + "]" }
            let inner = indent + "  "
            return "[\n" + a.map { inner + $0.text(pretty: true, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            if !pretty { return "{" + members.map { JSONBytes.quoted($0.0) + ":" + $0.1.text() }.joined(separator: ",") + "}" }
            let inner = indent + "  "
            return "{\n" + members.map { inner + JSONBytes.quoted($0.0) + ": " + $0.1.text(pretty: true, indent: inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    /// True for a string, number, boolean or null.
    public var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }
}
