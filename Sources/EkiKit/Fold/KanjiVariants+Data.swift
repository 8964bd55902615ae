// GENERATED FILE — do not edit by hand.
// Made by Scripts/gen-kanji-variants.py from Datasets/kanji-variants.csv; to change the table, edit the CSV and run
//     python3 Scripts/gen-kanji-variants.py
// (`--check` tells whether this file is up to date). TextFoldTests fails when they drift.

extension KanjiVariants {
    /// The rows of `Datasets/kanji-variants.csv`: (variant, standard form, source).
    static let rows: [(variant: Unicode.Scalar, standard: Unicode.Scalar, source: String)] = [
        ("\u{9EB4}", "\u{9EB9}", "Unihan_Variants.txt: U+9EB4 kZVariant U+9EB9 (麴町 / 麹町, Tokyo Metro 有楽町線)"),   // 麴 → 麹
        ("\u{9AD9}", "\u{9AD8}", "Unihan_Variants.txt: U+9AD9 kZVariant U+9AD8 and kSemanticVariant U+9AD8<kFenn"),   // 髙 → 高
        ("\u{6FF1}", "\u{6D5C}", "Unihan_Variants.txt: U+6D5C kZVariant U+6FF1"),   // 濱 → 浜
        ("\u{6FF5}", "\u{6D5C}", "Unihan_Variants.txt: U+6FF5 kSemanticVariant U+6FF1<kMatthews,kMeyerWempe; U+6D5C kZVariant U+6FF1"),   // 濵 → 浜
        ("\u{908A}", "\u{8FBA}", "Unihan_Variants.txt: U+908A kSimplifiedVariant U+8FB9 and kSemanticVariant U+8FB9<kMatthews,kMeyerWempe"),   // 邊 → 辺
        ("\u{9089}", "\u{8FBA}", "Unihan_Variants.txt: U+9089 kZVariant U+908A; U+908A kSimplifiedVariant U+8FB9"),   // 邉 → 辺
        ("\u{9059}", "\u{9065}", "Unihan_Variants.txt: U+9059 kSimplifiedVariant U+9065"),   // 遙 → 遥
        ("\u{6A9C}", "\u{6867}", "Unihan_Variants.txt: U+6A9C kSimplifiedVariant U+6867 (会津桧原 and 上桧木内 in N02-23 and station_database; 湯檜曽 in both)"),   // 檜 → 桧
        ("\u{9DAF}", "\u{9D2C}", "one station spelt both ways: N02-23 鴬の森 (能勢電鉄 妙見線) = station_database 鶯の森 (address 川西市鶯の森町)"),   // 鶯 → 鴬
        ("\u{7957}", "\u{7947}", "one station spelt both ways: N02-23 下祗園 (西日本旅客鉄道 可部線) = station_database 下祇園"),   // 祗 → 祇
        ("\u{FA11}", "\u{5D0E}", "U+FA11 CJK COMPATIBILITY IDEOGRAPH-FA11, no decomposition (NFKC keeps it); CP932 0xED95 and 0xFAB1 (NEC-selected and IBM extensions): the たつさき form of 崎 written in names (宮﨑, 山﨑)"),   // 﨑 → 崎
        ("\u{66FE}", "\u{66FD}", "常用漢字表 (2010): 曽 with its traditional form 曾 in brackets; station_database: 曽根田 (福島交通 飯坂線) at address 福島市曾根田町"),   // 曾 → 曽
    ]
}
