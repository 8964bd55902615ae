import Foundation

/// Text folding used to compare names across sources. Display text is never changed; folded
/// forms are only used as match keys.
public enum TextFold {
    /// NFKC, composed again with NFC: on this toolchain NFKC alone leaves half-width ﾀﾞ as
    /// タ + U+3099 instead of ダ. Full-width digits and letters become ASCII, U+FA10 becomes 塚.
    public static func nfkc(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }   // ASCII is its own NFKC (and cheap)
        return s.precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
    }

    /// The match form of a station name: NFKC, ヶ/ケ/ヵ → ケ, spaces (incl. U+3000) and middle
    /// dots (・ U+30FB, ･ U+FF65) removed, ASCII lower-cased.
    public static func nameKey(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in nfkc(s).unicodeScalars {
            switch u {
            case "\u{30F6}", "\u{30F5}": out.append("\u{30B1}")          // ヶ ヵ → ケ
            case " ", "\t", "\u{3000}", "\u{30FB}", "\u{FF65}", "\u{00B7}": continue
            case "A"..."Z": out.append(Unicode.Scalar(u.value + 32)!)
            default: out.append(u)
            }
        }
        return String(out)
    }

    /// The match form of an operator name: NFKC, spaces removed, 株式会社 / (株) dropped, ASCII
    /// lower-cased. (`WILLER　TRAINS` = `WILLER TRAINS` = `willertrains`.)
    public static func operatorKey(_ s: String) -> String {
        var t = nfkc(s)
        if !t.utf8.allSatisfy({ $0 < 0x80 }) {   // the affixes are not ASCII
            for affix in ["株式会社", "(株)", "㈱"] { t = t.replacingOccurrences(of: affix, with: "") }
        }
        var out = String.UnicodeScalarView()
        for u in t.unicodeScalars {
            switch u {
            case " ", "\t", "\u{3000}": continue
            case "A"..."Z": out.append(Unicode.Scalar(u.value + 32)!)
            default: out.append(u)
            }
        }
        return String(out)
    }

    /// Katakana (ァ–ヶ, ヽヾ) to hiragana; other characters unchanged. ヵ/ヶ become ゕ/ゖ.
    public static func hiragana(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if (0x30A1...0x30F6).contains(u.value) || u.value == 0x30FD || u.value == 0x30FE {
                out.append(Unicode.Scalar(u.value - 0x60)!)
            } else {
                out.append(u)
            }
        }
        return String(out)
    }
}
