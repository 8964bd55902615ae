import Testing
@testable import EkiKit

/// The folds search applies to data and queries alike, without a database.
@Suite struct SearchFoldTests {
    @Test func halfWidthKanaComposesToOneLetter() {
        // NFKC alone leaves ﾀﾞ as タ + U+3099 on this toolchain (see CONVENTIONS.md).
        #expect(SearchFold.reading("ｵﾀﾞﾜﾗ") == "おだわら")
        #expect(SearchFold.reading("オダワラ") == "おだわら")
        #expect(SearchFold.name("ｵﾀﾞﾜﾗ") == SearchFold.name("おだわら"))
        #expect(SearchFold.reading("ﾊﾟﾋﾟﾌﾟ").unicodeScalars.count == 3)
    }

    @Test func nameVariantsOfOneSound() {
        let kasumigaseki = SearchFold.name("霞ヶ関")
        for v in ["霞ケ関", "霞ヵ関", "霞カ関", "霞が関", "霞ｹ関"] { #expect(SearchFold.name(v) == kasumigaseki, "\(v)") }
        #expect(SearchFold.name("四ッ谷") == SearchFold.name("四ツ谷"))
        #expect(SearchFold.name("自由ヶ丘") == SearchFold.name("自由が丘"))
        #expect(SearchFold.name("丸の内") == SearchFold.name("丸ノ内"))
    }

    @Test func spacesMiddleDotsCaseAndWidth() {
        let f = SearchFold.name("電鉄富山駅・エスタ前")
        #expect(SearchFold.name("電鉄富山駅 エスタ前") == f)
        #expect(SearchFold.name("電鉄富山駅･ｴｽﾀ前") == f)
        #expect(SearchFold.name("電鉄富山駅　エスタ前") == f)
        #expect(SearchFold.name("ＹＲＰ野比") == "yrp野比")
        #expect(SearchFold.operatorName("WILLER　TRAINS株式会社") == "willertrains")
    }

    @Test func readingsFoldLongVowelsAndSmallKana() {
        #expect(SearchFold.reading("ケーブル") == SearchFold.reading("けえぶる"))
        #expect(SearchFold.reading("ｹｰﾌﾞﾙ") == SearchFold.reading("けえぶる"))
        #expect(SearchFold.reading("きゃっと") == SearchFold.reading("きやつと"))
        #expect(SearchFold.reading("ヶ") == "け")
    }

    @Test func romajiFoldsMacronsLongVowelsAndM() {
        let tokyo = SearchFold.romaji("Tokyo")
        for v in ["Tōkyō", "TOUKYOU", "toukyou", "Tôkyô", "Ｔｏｋｙｏ"] { #expect(SearchFold.romaji(v) == tokyo, "\(v)") }
        #expect(SearchFold.romaji("Shimbashi") == SearchFold.romaji("Shinbashi"))
        #expect(SearchFold.romaji("Ōno") == SearchFold.romaji("Ohno"))
        #expect(SearchFold.romaji("Shin-Ōsaka") == SearchFold.romaji("shinosaka"))
        #expect(SearchFold.romaji("東京").isEmpty)
    }

    @Test func hepburnFromReadings() {
        let cases: [(String, String)] = [
            ("おだわら", "odawara"), ("とうきょう", "toukyou"), ("しんよこはま", "shinyokohama"),
            ("さっぽろ", "sapporo"), ("まっちゃ", "matcha"), ("ちゅうおう", "chuuou"), ("じゆうがおか", "jiyuugaoka"),
            ("ふじさん", "fujisan"), ("つるみ", "tsurumi"), ("ケーブル", "keeburu"), ("ディズニー", "dizunii"),
            ("きょうと", "kyouto"), ("しぶや", "shibuya"), ("づ", "zu"),
        ]
        for (kana, romaji) in cases { #expect(Hepburn.romanize(kana) == romaji, "\(kana)") }
        #expect(SearchFold.romaji(Hepburn.romanize("しんばし")) == SearchFold.romaji("Shimbashi"))
        #expect(SearchFold.romaji(Hepburn.romanize("しんおおさか")) == SearchFold.romaji("Shin-Ōsaka"))
    }

    @Test func lineFormsDropBrandRouteNumberAndKeepBracketNames() {
        let metro = SearchIndex.lineForms("東京メトロ丸ノ内線", brand: SearchFold.name("東京メトロ"))
        #expect(metro.contains(SearchFold.name("丸ノ内線")))
        #expect(SearchIndex.lineForms("4号線丸ノ内線", brand: nil).contains(SearchFold.name("丸ノ内線")))
        let jr = SearchIndex.lineForms("JR東海道本線(京都線)(京都～大阪)", brand: "jr")
        #expect(jr.contains("東海道本線"))
        #expect(jr.contains("京都線"))
        #expect(!jr.contains("京都~大阪"))
        #expect(SearchIndex.lineForms("東海道線", brand: nil) == ["東海道線"])
    }

    @Test func brandsAreSharedPrefixesStoppingAtTheOperatorName() {
        let b = SearchIndex.brands(linesByOperator: [
            "jr東日本\u{1}conventional": ["jr常磐線", "jr仙石線"],
            "jr東日本\u{1}shinkansen": ["東北新幹線", "上越新幹線"],
            "京都丹後鉄道\u{1}conventional": ["京都丹後鉄道宮豊線", "京都丹後鉄道宮福線"],
            "one\u{1}conventional": ["only線"],
        ])
        #expect(b == ["jr東日本\u{1}conventional": "jr", "京都丹後鉄道\u{1}conventional": "京都丹後鉄道"])
    }

    @Test func queriesKeepTheirTrailingEkiAsAnExactAlternative() {
        let q = SearchQuery("小田原駅", scope: .any)
        let name = q.fields.first { $0.field == .name }
        #expect(name?.base == "小田原" && name?.full == "小田原駅")
        #expect(!q.fields.contains { $0.field == .romaji })
        let r = SearchQuery("toyamaeki", scope: .reading).fields.first { $0.field == .romaji }
        #expect(r?.base == "toyama")
        #expect(SearchQuery("ueki", scope: .reading).fields.first { $0.field == .romaji }?.base == "ueki")
        #expect(SearchQuery("駅", scope: .name).fields.first?.base == "駅")
    }

    @Test func ftsQueryIsQuotedData() {
        #expect(SearchQuery.ftsPhrase("a\"b OR") == "\"a\"\"b\" \"\"\"b \" \"b O\" \" OR\"")
        #expect(SearchIndex.grams("おだわ") == ["おだ", "だわ", "わ\u{1}"])
        #expect(SearchIndex.grams("ああああ") == ["ああ", "あ\u{1}"])
        // One FTS5 token per gram: field code, then the two code points in hex.
        #expect(SearchIndex.bigramDocument(code: 1, "おだわ") == "1x304ax3060 1x3060x308f 1x308fx1")
        #expect(SearchIndex.bigramMatch(code: 0, "だわ") == "\"0x3060x308f\"")
        #expect(SearchIndex.bigramMatch(code: 3, "a") == "\"3x61x\" *")
    }
}

/// `TextFold.nfkc`'s fast path returns exactly what Foundation's NFKC + NFC returns.
@Suite struct NFKCFastPathTests {
    @Test func stableCharactersAreTheirOwnNFKC() {
        var samples: [String] = ["小田原", "おだわら", "オダワラ", "ケーブル山上", "霞ヶ関", "四ツ谷(四ッ谷)", "々〆〇", "ゝゞヽヾ",
                                 "ヴァヷヸヹヺ", "電鉄富山駅・エスタ前", "JR東海道本線", "ぁぃぅゕゖ"]
        // Every scalar the fast path accepts, alone and after a base letter.
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0x3005...0x3007, 0x3041...0x3096, 0x309D...0x309E, 0x30A1...0x30FE, 0x4E00...0x9FFF]
        for r in ranges {
            var block = String.UnicodeScalarView()
            for v in r { block.append(Unicode.Scalar(v)!) }
            samples.append(String(block))
            samples.append("か" + String(block))
        }
        for s in samples {
            #expect(s.unicodeScalars.allSatisfy(TextFold.isNFKCStable))
            let foundation = s.precomposedStringWithCompatibilityMapping.precomposedStringWithCanonicalMapping
            #expect(Array(foundation.unicodeScalars) == Array(s.unicodeScalars), "\(s.prefix(20))")
            #expect(Array(TextFold.nfkc(s).unicodeScalars) == Array(foundation.unicodeScalars), "\(s.prefix(20))")
        }
        // Others still go through Foundation.
        #expect(TextFold.nfkc("ｵﾀﾞﾜﾗ") == "オダワラ")
        #expect(TextFold.nfkc("か\u{3099}") == "が")
        #expect(TextFold.nfkc("\u{FA10}") == "塚")
    }
}
