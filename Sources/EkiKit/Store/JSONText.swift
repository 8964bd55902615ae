import Foundation

/// Minimal JSON helpers for the columns that hold JSON text (`lines`, `sources`) and for
/// writers that quote strings.
public enum JSONText {
    static func encodeStrings(_ a: [String]) -> String {
        let data = try! JSONSerialization.data(withJSONObject: a, options: [.withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeStrings(_ s: String) -> [String] {
        guard let data = s.data(using: .utf8),
              let a = try? JSONSerialization.jsonObject(with: data) as? [String] else { return [] }
        return a
    }

    /// `s` as a JSON string literal (RFC 8259): quotes, backslashes and control characters
    /// escaped, everything else (Japanese included) as UTF-8.
    public static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
