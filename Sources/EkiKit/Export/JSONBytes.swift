/// Appending JSON text (RFC 8259, UTF-8) to a byte buffer: the one string quoting and number
/// form of EkiKit's JSON output, fast enough for the map server's answers (a bbox answer of 300
/// features is written in one pass, with no intermediate values).
package enum JSONBytes {
    /// `s` as an RFC 8259 string literal: quotes, backslashes and control characters escaped,
    /// everything else (Japanese included) as UTF-8; `/` is not escaped.
    public static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `s` as a JSON string literal, as `appendQuoted` writes it.
    public static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        appendQuoted(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `s` as it is (JSON text the caller has written).
    public static func append(_ s: String, to out: inout [UInt8]) { out.append(contentsOf: s.utf8) }

    /// `s` quoted, or `null`.
    public static func appendOptional(_ s: String?, to out: inout [UInt8]) {
        if let s { appendQuoted(s, to: &out) } else { append("null", to: &out) }
    }

    /// A number as all of EkiKit's JSON writes it: integral values without a fraction,
    /// others in Swift's shortest round-trip form; NaN and infinities as null.
    public static func appendNumber(_ d: Double, to out: inout [UInt8]) {
        if d.isNaN || d.isInfinite { append("null", to: &out); return }
        if d == d.rounded(), abs(d) < 1e15 { append(String(Int64(d)), to: &out); return }
        append(d.description, to: &out)
    }

    /// `["…","…"]` with no white space.
    public static func appendStrings(_ a: [String], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, s) in a.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            appendQuoted(s, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }
}
