/// Match forms for station search, one fold per kind of text. Applied to the stored data and to
/// the query alike; display text is never changed. Every fold starts with `TextFold.nfkc` (NFKC,
/// then NFC, so half-width ﾀﾞ becomes ダ, full-width Ａ１ become A1, U+3000 a space) and drops
/// control characters, spaces and the middle dots ・ (U+30FB), ･ (U+FF65) and · (U+00B7).
///
/// - `name` (station, line and operator names): `TextFold.fold` with katakana → hiragana (the
///   folding the entry rule's name key also starts from: 丁目 numerals, so 六本木1丁目 finds
///   六本木一丁目; variant kanji, so 麴町 finds 麹町; ヶ/ヵ → ケ, ッ → ツ), then ASCII lower
///   case, Latin vowels with macron or circumflex → the plain vowel, and the written variants of
///   one sound in names: ヶ ケ ヵ カ (and が, which ヶ is read as in 霞ヶ関 / 霞が関, 自由が丘 /
///   自由ヶ丘) are one letter, ッ ツ are one letter (四ッ谷 = 四ツ谷). Two names with one
///   `TextFold.nameKey` have one `name` fold (SearchFoldTests checks this on every real name).
/// - `reading` (読み): katakana → hiragana, small kana → full size (ぁ→あ, っ→つ, ゃ→や, ゕ→か),
///   the long-vowel mark ー → the vowel of the kana before it (けーぶる = けえぶる).
/// - `romaji`: Latin letters and digits only, lower case, diacritics removed (Tōkyō = Tokyo),
///   long vowels written once (ou, oo, uu and oh before a consonant → o, u: Toukyou = Tokyo,
///   Ohno = Ono), and m before b, m, p → n (Shimbashi = Shinbashi).
public enum SearchFold {
    /// The separator between forms in the stored per-entry text (never part of a form).
    static let separator: Unicode.Scalar = "\u{1}"

    /// The match form of a station, line or operator name (see the type's description).
    public static func name(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in TextFold.fold(s, hiragana: true).unicodeScalars {
            guard let u = commonScalar(u) else { continue }
            switch u.value {
            case 0x304B, 0x304C, 0x3051, 0x3095, 0x3096: out.append("\u{3051}")   // か が け ゕ ゖ → け
            case 0x3063: out.append("\u{3064}")                                   // っ → つ
            default: out.append(u)
            }
        }
        return String(out)
    }

    /// The match form of an operator name: `name` with 株式会社 and (株) dropped.
    public static func operatorName(_ s: String) -> String {
        var t = TextFold.nfkc(s)
        for affix in ["株式会社", "(株)"] { t = t.replacingOccurrences(of: affix, with: "") }
        return name(t)
    }

    /// The match form of a reading (see the type's description).
    public static func reading(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in TextFold.nfkc(s).unicodeScalars {
            guard let u = commonScalar(u) else { continue }
            if u == "\u{30FC}" || u == "\u{2015}" || u == "\u{2212}" {               // ー ― −
                if let last = out.last, let v = Kana.vowel(of: last) { out.append(v) }
                continue
            }
            out.append(Kana.fullSize(u))
        }
        return String(out)
    }

    /// The match form of Latin-script text (a romanized name or a query typed in romaji); empty
    /// when `s` has no Latin letters or digits.
    public static func romaji(_ s: String) -> String {
        var letters: [UInt8] = []
        let text = s.utf8.allSatisfy { $0 < 0x80 } ? s : TextFold.nfkc(s).decomposedStringWithCanonicalMapping
        for u in text.unicodeScalars {
            switch u.value {
            case 0x41...0x5A: letters.append(UInt8(u.value + 32))
            case 0x61...0x7A, 0x30...0x39: letters.append(UInt8(u.value))
            default: continue     // combining marks (macrons), punctuation, spaces, other scripts
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(letters.count)
        let o = UInt8(ascii: "o"), u = UInt8(ascii: "u"), h = UInt8(ascii: "h"), m = UInt8(ascii: "m")
        for (i, c) in letters.enumerated() {
            let next = i + 1 < letters.count ? letters[i + 1] : nil
            if let last = out.last {
                if last == o && (c == o || c == u) { continue }                      // ou, oo → o
                if last == u && c == u { continue }                                  // uu → u
                if last == o && c == h && !(next.map(isVowel) ?? false) { continue } // oh + consonant → o
            }
            if c == m, let n = next, n == UInt8(ascii: "b") || n == m || n == UInt8(ascii: "p") {
                out.append(UInt8(ascii: "n"))                                       // mb, mm, mp → nb, nm, np
                continue
            }
            out.append(c)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Applies the steps every fold shares: drops control characters, spaces and middle dots,
    /// turns katakana into hiragana, lower-cases ASCII and strips macrons and circumflexes.
    private static func commonScalar(_ u: Unicode.Scalar) -> Unicode.Scalar? {
        switch u.value {
        case 0...0x20, 0x7F, 0x3000, 0x30FB, 0xFF65, 0xB7: return nil
        case 0x41...0x5A: return Unicode.Scalar(u.value + 32)
        case 0x30A1...0x30F6, 0x30FD, 0x30FE: return Unicode.Scalar(u.value - 0x60)
        default: return Kana.plainLatin[u] ?? u
        }
    }

    private static func isVowel(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "a") || c == UInt8(ascii: "i") || c == UInt8(ascii: "u")
            || c == UInt8(ascii: "e") || c == UInt8(ascii: "o") || c == UInt8(ascii: "y")
    }
}

/// Kana tables shared by the folds and `Hepburn`.
enum Kana {
    /// Small kana → full size (ぁ→あ … ゎ→わ, ゕ→か, ゖ→け); other scalars unchanged.
    static func fullSize(_ u: Unicode.Scalar) -> Unicode.Scalar {
        switch u.value {
        case 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E:
            return Unicode.Scalar(u.value + 1)!
        case 0x3095: return "\u{304B}"
        case 0x3096: return "\u{3051}"
        default: return u
        }
    }

    /// The vowel (あいうえお) a hiragana ends in, or nil (ん, non-kana).
    static func vowel(of u: Unicode.Scalar) -> Unicode.Scalar? { vowels[u] }

    private static let vowels: [Unicode.Scalar: Unicode.Scalar] = {
        let rows: [(Unicode.Scalar, String)] = [
            ("あ", "ぁあかがさざただなはばぱまゃやらゎわゕ"), ("い", "ぃいきぎしじちぢにひびぴみりゐ"),
            ("う", "ぅうくぐすずっつづぬふぶぷむゅゆるゔ"), ("え", "ぇえけげせぜてでねへべぺめれゑゖ"),
            ("お", "ぉおこごそぞとどのほぼぽもょよろを"),
        ]
        var t: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (v, kana) in rows { for k in kana.unicodeScalars { t[k] = v } }
        return t
    }()

    /// Latin vowels with macron or circumflex (Hepburn long vowels) → the plain vowel.
    static let plainLatin: [Unicode.Scalar: Unicode.Scalar] = {
        var t: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (marked, plain) in zip("āīūēōâîûêôĀĪŪĒŌÂÎÛÊÔ".unicodeScalars, "aiueoaiueoaiueoaiueo".unicodeScalars) {
            t[marked] = plain
        }
        return t
    }()
}
