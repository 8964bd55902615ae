import Foundation

/// Text folding used to compare names across sources. Display text is never changed; folded
/// forms are only used as match keys.
public enum TextFold {
    /// NFKC, composed again with NFC: on this toolchain NFKC alone leaves half-width ﾀﾞ as
    /// タ + U+3099 instead of ダ. Full-width digits and letters become ASCII, U+FA10 becomes 塚.
    public static func nfkc(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }   // ASCII is its own NFKC (and cheap)
        if s.unicodeScalars.allSatisfy(isNFKCStable) { return s }
        return s.precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
    }

    /// True for the characters most Japanese names are written in that NFKC + NFC leave as they
    /// are, whatever surrounds them (no decomposition, not combining, not composing with a
    /// neighbour): printable ASCII, 々〆〇, hiragana ぁ–ゖ and ゝゞ, katakana ァ–ヾ (with ・ and
    /// ー), CJK unified ideographs U+4E00–9FFF. (Half-width kana, the combining and spacing
    /// voicing marks, ゟ, ヿ and the compatibility ideographs are not among them.)
    static func isNFKCStable(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x20...0x7E, 0x3005...0x3007, 0x3041...0x3096, 0x309D...0x309E, 0x30A1...0x30FE, 0x4E00...0x9FFF: return true
        default: return false
        }
    }

    /// True when `s` contains kana or CJK ideographs: hiragana, katakana (with the phonetic
    /// extensions and half-width katakana), CJK unified ideographs (extension A, the basic
    /// block, and the supplementary planes from U+20000), CJK compatibility ideographs. Used for
    /// "is this written in Japanese": a query that is not compared with romanized names, a GTFS
    /// short name preferred to a Latin long name.
    public static func isJapanese(_ s: String) -> Bool {
        s.unicodeScalars.contains { u in
            switch u.value {
            case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F,
                 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF:
                return true
            default: return false
            }
        }
    }

    /// True when `s` is all hiragana or katakana (the long vowel mark included), and not empty.
    static func isKana(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { (0x3041...0x30FF).contains($0.value) }
    }

    /// The version of `fold`. A database's search index stores folded forms: it records the
    /// version it was built with (`eki_meta` `search_fold`) and is rebuilt when this changes
    /// (see `SearchIndex.refoldIfNeeded`). Raise it whenever `fold` or
    /// `SearchFold` changes what they return.
    /// 3: the 﨑/崎 and 曾/曽 pairs; an entry's other names written in kana are also its readings.
    /// 4: each part of a name with brackets is also a name (本諫早（諫早市役所前）: 本諫早).
    /// 5: 〜 (U+301C) is ～ (`~`); 丁目 numerals beyond 九 (十一丁目 = 11丁目).
    public static let foldVersion = 5

    /// The one folding that every comparison of station names starts from (the entry rule's
    /// name key, station search, `visit add`'s station lookup and the geocoder's station
    /// gazetteer), so that they agree on which names are one:
    /// 1. NFKC, then NFC (`nfkc`): full-width digits and letters become ASCII (１ → 1), half-width
    ///    kana full-width, U+FA10 塚 and the other compatibility ideographs their unified form.
    ///    ～ (U+FF5E) becomes `~` by NFKC, and so does 〜 (U+301C, the wave dash: the same
    ///    character as Japanese text writes it on other systems).
    /// 2. A kanji numeral right before 丁目 becomes its digits (`chomeDigits`: 本町一丁目 =
    ///    本町１丁目 = 本町1丁目; 本町十一丁目 = 本町11丁目; 萱町六丁目 = 萱町６丁目).
    /// 3. Variant kanji to their standard form (`KanjiVariants`, the table
    ///    `Datasets/kanji-variants.csv`: 麴 → 麹, 髙 → 高, 濱 濵 → 浜, 邊 邉 → 辺, 遙 → 遥,
    ///    檜 → 桧, 鶯 → 鴬, 祗 → 祇, 﨑 → 崎, 曾 → 曽).
    /// 4. ヶ and ヵ → ケ (市ヶ谷 = 市ケ谷), ッ → ツ (四ッ谷 = 四ツ谷).
    /// 5. With `hiragana`, katakana ァ–ヶ, ヽ, ヾ → hiragana (after step 4, so ヶ becomes け).
    /// Spaces, brackets and letter case are left to the callers (`nameKey` drops them,
    /// `SearchFold.name` too).
    public static func fold(_ s: String, hiragana: Bool = false) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }   // ASCII: no step changes it
        var text = nfkc(s)
        if text.unicodeScalars.contains("\u{4E01}") { text = chomeDigits(text) }   // 丁
        if text.unicodeScalars.contains("\u{301C}") {                              // 〜
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\u{301C}" ? "~" : $0 }))
        }
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            var v = KanjiVariants.standard(u)
            switch v.value {
            case 0x30F6, 0x30F5: v = "\u{30B1}"          // ヶ ヵ → ケ
            case 0x30C3: v = "\u{30C4}"                  // ッ → ツ
            default: break
            }
            if hiragana, (0x30A1...0x30F6).contains(v.value) || v.value == 0x30FD || v.value == 0x30FE {
                v = Unicode.Scalar(v.value - 0x60)!
            }
            out.append(v)
        }
        return String(out)
    }

    /// `text` with each kanji numeral written right before 丁目 in digits: 一–九 and 十, up
    /// to 九十九 (一丁目 → 1丁目, 十丁目 → 10丁目, 十一丁目 → 11丁目, 二十三丁目 → 23丁目).
    /// A run that is not a number of that form (一一丁目) is left as written.
    static func chomeDigits(_ text: String) -> String {
        let digits: [Character: Int] = ["一": 1, "二": 2, "三": 3, "四": 4, "五": 5,
                                        "六": 6, "七": 7, "八": 8, "九": 9]
        var chars = Array(text)
        var i = chars.count - 2
        while i >= 1 {
            defer { i -= 1 }
            guard chars[i] == "丁", chars[i + 1] == "目" else { continue }
            var start = i
            while start > 0, digits[chars[start - 1]] != nil || chars[start - 1] == "十" { start -= 1 }
            let run = chars[start..<i]
            var value: Int? = nil
            if let ten = run.firstIndex(of: "十") {
                let tens = run[run.startIndex..<ten], ones = run[(ten + 1)...]
                if tens.count <= 1, ones.count <= 1, !ones.contains("十") {
                    let t = tens.first.map { digits[$0] ?? 0 } ?? 1
                    let o = ones.first.map { digits[$0] ?? 0 } ?? 0
                    if t > 0, tens.first != "十", o >= 0 { value = t * 10 + o }
                }
            } else if run.count == 1, let d = digits[run[run.startIndex]] {
                value = d
            }
            guard let value else { continue }
            chars.replaceSubrange(start..<i, with: Array(String(value)))
            i = start
        }
        return String(chars)
    }

    /// The match form of a station name, the entry rule's name key: `fold` (NFKC, 丁目
    /// numerals, variant kanji, ヶ/ヵ → ケ, ッ → ツ; katakana kept); a bracketed alternative
    /// name dropped (`四ツ谷(四ッ谷)`, `押上（スカイツリー前）`, `明治神宮前〈原宿〉` → 四ツ谷,
    /// 押上, 明治神宮前); spaces (incl. U+3000) and middle dots (・ ･ ·) removed; ASCII
    /// lower-cased.
    public static func nameKey(_ s: String) -> String {
        if let ascii = asciiNameKey(s) { return ascii }
        var text = fold(s)
        if let open = text.unicodeScalars.firstIndex(where: { $0 == "(" || $0 == "〈" }), open != text.startIndex {
            text = String(text.unicodeScalars[..<open])
        }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            switch u {
            case " ", "\t", "\u{3000}", "\u{30FB}", "\u{FF65}", "\u{00B7}": continue
            case "A"..."Z": out.append(Unicode.Scalar(u.value + 32)!)
            default: out.append(u)
            }
        }
        return String(out)
    }

    /// `nameKey` of an ASCII name, byte by byte (the name itself when nothing changes); nil
    /// for a name that is not all ASCII.
    private static func asciiNameKey(_ s: String) -> String? {
        var s = s
        var unchanged = false
        let key = s.withUTF8 { b -> String? in
            var changes = false
            var end = b.count
            var seenParen = false
            for (i, c) in b.enumerated() {
                if c >= 0x80 { return nil }
                if c == UInt8(ascii: "(") && !seenParen {
                    seenParen = true
                    if i > 0 { end = i; changes = true }
                }
                if c == 0x20 || c == 0x09 || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) { changes = true }
            }
            if !changes { unchanged = true; return nil }
            var out: [UInt8] = []
            out.reserveCapacity(end)
            for c in b[..<end] where c != 0x20 && c != 0x09 {
                out.append(c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c + 32 : c)
            }
            return String(decoding: out, as: UTF8.self)
        }
        return unchanged ? s : key
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
