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

    /// A number as all of EkiKit's JSON writes it (`number`).
    public static func appendNumber(_ d: Double, decimals: Int? = nil, to out: inout [UInt8]) {
        append(number(d, decimals: decimals), to: &out)
    }

    /// A number as all of EkiKit's JSON writes it (the command line's, the map server's and the
    /// exports'): integral values without a fraction (`35`, `-0.0` as `0`), others in the
    /// shortest decimal that reads back as the same Double (`139.7671`), always in plain
    /// positional form — no exponent (`0.00001`, not `1e-05`; `12345678901234567000`, not
    /// `1.2345678901234567e+19`); NaN and infinities, which JSON cannot write, as `null`.
    /// With `decimals`, the value is first rounded half away from zero to that many decimal
    /// places (`distance_m` with 1, `percent` with 2).
    public static func number(_ d: Double, decimals: Int? = nil) -> String {
        guard d.isFinite else { return "null" }
        let d = decimals.map { rounded(d, decimals: $0) } ?? d
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        let text = d.description
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        // Swift writes the shortest digits as d.ddd…e±x outside 1e-4 ..< 1e16: place the point.
        let negative = text.hasPrefix("-")
        let mantissa = text[text.index(text.startIndex, offsetBy: negative ? 1 : 0)..<e]
        let exponent = Int(text[text.index(after: e)...])!
        var digits = mantissa.filter { $0 != "." }
        let point = (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) + exponent
        while digits.count > 1 && digits.last == "0" && digits.count > point { digits.removeLast() }
        let body: String
        if point <= 0 {
            body = "0." + String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            body = digits + String(repeating: "0", count: point - digits.count)
        } else {
            body = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
        }
        return (negative ? "-" : "") + body
    }

    /// `d` rounded half away from zero to `decimals` decimal places (the value `number` writes
    /// with `decimals`).
    public static func rounded(_ d: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        return (d * scale).rounded() / scale
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
