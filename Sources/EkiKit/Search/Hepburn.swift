/// Romanization of readings (Hepburn), for entries whose sources give no Latin-script name, so
/// that a query typed in romaji finds every entry that has a reading.
///
/// Modified Hepburn as on JR station signs: し shi, ち chi, つ tsu, ふ fu, じ/ぢ ji, づ zu, を o,
/// ん n, っ doubles the next consonant (っち → tchi), ゃゅょ combine (きょ kyo, しゃ sha), small
/// vowels after a kana combine (ふぁ fa, てぃ ti, うぃ wi, ヴぁ va). Long vowels are written out
/// (とうきょう → toukyou, ー repeats the vowel before it): `SearchFold.romaji` then folds them
/// (→ tokyo), the same way it folds Tōkyō, Toukyou and Tokyo typed in a query.
enum Hepburn {
    /// Lower-case romaji for a reading in hiragana or katakana; characters that are not kana
    /// are dropped.
    static func romanize(_ reading: String) -> String {
        var kana: [Unicode.Scalar] = []
        for u in TextFold.nfkc(reading).unicodeScalars {
            if (0x30A1...0x30F6).contains(u.value) { kana.append(Unicode.Scalar(u.value - 0x60)!) }
            else { kana.append(u) }
        }
        var out = ""
        var geminate = false
        var i = 0
        while i < kana.count {
            let u = kana[i]
            if u == "っ" { geminate = true; i += 1; continue }
            if u == "ー" {
                if let v = out.last, "aiueo".contains(v) { out.append(v) }
                i += 1
                continue
            }
            var syllable: String?
            if i + 1 < kana.count, let pair = digraphs[String(String.UnicodeScalarView([u, kana[i + 1]]))] {
                syllable = pair
                i += 2
            } else {
                syllable = monographs[u]
                i += 1
            }
            guard var s = syllable else { geminate = false; continue }
            if geminate, let first = s.first, !"aiueon".contains(first) {
                s = (s.hasPrefix("ch") ? "t" : String(first)) + s
            }
            geminate = false
            out += s
        }
        return out
    }

    private static let monographs: [Unicode.Scalar: String] = {
        let rows: [(String, [String])] = [
            ("あいうえお", ["a", "i", "u", "e", "o"]), ("かきくけこ", ["ka", "ki", "ku", "ke", "ko"]),
            ("がぎぐげご", ["ga", "gi", "gu", "ge", "go"]), ("さしすせそ", ["sa", "shi", "su", "se", "so"]),
            ("ざじずぜぞ", ["za", "ji", "zu", "ze", "zo"]), ("たちつてと", ["ta", "chi", "tsu", "te", "to"]),
            ("だぢづでど", ["da", "ji", "zu", "de", "do"]), ("なにぬねの", ["na", "ni", "nu", "ne", "no"]),
            ("はひふへほ", ["ha", "hi", "fu", "he", "ho"]), ("ばびぶべぼ", ["ba", "bi", "bu", "be", "bo"]),
            ("ぱぴぷぺぽ", ["pa", "pi", "pu", "pe", "po"]), ("まみむめも", ["ma", "mi", "mu", "me", "mo"]),
            ("やゆよ", ["ya", "yu", "yo"]), ("らりるれろ", ["ra", "ri", "ru", "re", "ro"]),
            ("わゐゑをん", ["wa", "i", "e", "o", "n"]), ("ぁぃぅぇぉ", ["a", "i", "u", "e", "o"]),
            ("ゃゅょゎゕゖゔ", ["ya", "yu", "yo", "wa", "ka", "ke", "vu"]),
        ]
        var t: [Unicode.Scalar: String] = [:]
        for (kana, romaji) in rows { for (k, r) in zip(kana.unicodeScalars, romaji) { t[k] = r } }
        return t
    }()

    private static let digraphs: [String: String] = {
        var t: [String: String] = [:]
        let yoon: [(String, String)] = [
            ("き", "ky"), ("ぎ", "gy"), ("し", "sh"), ("じ", "j"), ("ち", "ch"), ("ぢ", "j"), ("に", "ny"),
            ("ひ", "hy"), ("び", "by"), ("ぴ", "py"), ("み", "my"), ("り", "ry"),
        ]
        for (k, c) in yoon {
            t[k + "ゃ"] = c + "a"; t[k + "ゅ"] = c + "u"; t[k + "ょ"] = c + "o"
        }
        t["しぇ"] = "she"; t["じぇ"] = "je"; t["ちぇ"] = "che"
        t["てぃ"] = "ti"; t["でぃ"] = "di"; t["とぅ"] = "tu"; t["どぅ"] = "du"; t["でゅ"] = "dyu"
        t["ふぁ"] = "fa"; t["ふぃ"] = "fi"; t["ふぇ"] = "fe"; t["ふぉ"] = "fo"; t["ふゅ"] = "fyu"
        t["うぃ"] = "wi"; t["うぇ"] = "we"; t["うぉ"] = "wo"; t["つぁ"] = "tsa"; t["つぇ"] = "tse"
        t["ゔぁ"] = "va"; t["ゔぃ"] = "vi"; t["ゔぇ"] = "ve"; t["ゔぉ"] = "vo"; t["いぇ"] = "ye"
        return t
    }()
}
