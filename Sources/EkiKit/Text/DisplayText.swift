/// Text from a person's notes made safe for a table or summary that a person reads on a terminal.
package enum DisplayText {
    /// `s` on one line with every control character visible: a line break (CRLF, LF or a lone
    /// CR) becomes one space, a tab stays, and any other control character (C0 such as ESC and
    /// BEL, DEL, C1) is written as its Swift escape, e.g. `\u{1B}`, so no note can move the
    /// cursor, change colours or ring the bell.
    public static func escaped(_ s: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(s.unicodeScalars.count)
        var previousCR = false
        for u in s.unicodeScalars {
            defer { previousCR = u == "\r" }
            switch u.value {
            case 0x0A:
                if !previousCR { out += " " }
            case 0x0D:
                out += " "
            case 0x09:
                out.unicodeScalars.append(u)
            case 0x00...0x1F, 0x7F...0x9F:
                out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
