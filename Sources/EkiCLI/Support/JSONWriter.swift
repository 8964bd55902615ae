import Foundation
import EkiKit

/// A JSON value with object members kept in the order they were written, so output is stable
/// and reads in a sensible order (RFC 8259 text, UTF-8, no escaping of non-ASCII).
/// Sendable is declared, not inferred: inferring it for this recursive enum through
/// `[(String, JSON)]` is a cycle the Swift 6.3 compiler reports as "circular reference" when a
/// file that builds such an array is compiled incrementally.
indirect enum JSON: Sendable {
    case string(String)
    case number(Double)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    static func optional(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }

    /// Compact text; with `pretty`, one member per line indented by two spaces.
    func text(pretty: Bool = false, indent: String = "") -> String {
        switch self {
        case .string(let s): return JSON.quote(s)
        case .number(let d):
            if d.isNaN || d.isInfinite { return "null" }
            if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
            return "\(d)"
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
            if !pretty { return "{" + members.map { JSON.quote($0.0) + ":" + $0.1.text() }.joined(separator: ",") + "}" }
            let inner = indent + "  "
            return "{\n" + members.map { inner + JSON.quote($0.0) + ": " + $0.1.text(pretty: true, indent: inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    static func quote(_ s: String) -> String { JSONBytes.quoted(s) }
}
