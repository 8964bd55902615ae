import Foundation

/// Minimal JSON helpers for the columns that hold JSON text (`lines`, `sources`); string
/// literals for output are written by `JSONBytes`. Arrays of strings without `"`, `\` or control characters (nearly
/// all) are written and read directly, exactly as JSONSerialization writes them (`["a","b"]`, no
/// spaces, `/` unescaped); anything else goes through JSONSerialization.
enum JSONText {
    static func encodeStrings(_ a: [String]) -> String {
        var out = "["
        for (i, s) in a.enumerated() {
            if s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                return slowEncode(a)
            }
            if i > 0 { out += "," }
            out += "\""
            out += s
            out += "\""
        }
        out += "]"
        return out
    }

    static func slowEncode(_ a: [String]) -> String {
        let data = try! JSONSerialization.data(withJSONObject: a, options: [.withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeStrings(_ s: String) -> [String] {
        var s = s
        return s.withUTF8 { decode($0) } ?? slowDecode(s)
    }

    /// Reads `["…","…"]` without escapes; nil for anything else.
    static func decode(_ b: UnsafeBufferPointer<UInt8>) -> [String]? {
        let quote = UInt8(ascii: "\""), n = b.count
        guard n >= 2, b[0] == UInt8(ascii: "["), b[n - 1] == UInt8(ascii: "]") else { return nil }
        if n == 2 { return [] }
        var out: [String] = []
        var i = 1
        while true {
            guard i < n, b[i] == quote else { return nil }
            let start = i + 1
            var j = start
            while j < n && b[j] != quote {
                if b[j] == UInt8(ascii: "\\") { return nil }
                j += 1
            }
            guard j < n - 1 else { return nil }
            out.append(String(decoding: UnsafeBufferPointer(rebasing: b[start..<j]), as: UTF8.self))
            i = j + 1
            if b[i] == UInt8(ascii: "]") { return i == n - 1 ? out : nil }
            guard b[i] == UInt8(ascii: ",") else { return nil }
            i += 1
        }
    }

    static func slowDecode(_ s: String) -> [String] {
        guard let data = s.data(using: .utf8),
              let a = try? JSONSerialization.jsonObject(with: data) as? [String] else { return [] }
        return a
    }
}
