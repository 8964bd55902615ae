import Testing
import EkiKit

/// 〜 (U+301C) and ～ (U+FF5E) are one character; 丁目 numerals beyond 九 fold.
@Suite struct FoldWaveAndChomeTests {
    @Test func waveDashAndFullwidthTildeAreOne() {
        #expect(TextFold.fold("新宿〜渋谷") == "新宿~渋谷")
        #expect(TextFold.fold("新宿～渋谷") == "新宿~渋谷")
        #expect(TextFold.nameKey("新宿〜渋谷") == TextFold.nameKey("新宿～渋谷"))
        #expect(SearchFold.name("新宿〜渋谷") == SearchFold.name("新宿～渋谷"))
    }

    @Test func chomeNumeralsBeyondNine() {
        for s in ["本町十一丁目", "本町11丁目", "本町１１丁目"] { #expect(TextFold.fold(s) == "本町11丁目", "\(s)") }
        #expect(TextFold.fold("本町十丁目") == "本町10丁目")
        #expect(TextFold.fold("西二十丁目") == "西20丁目")
        #expect(TextFold.fold("南二十三丁目") == "南23丁目")
        #expect(TextFold.fold("九十九丁目") == "99丁目")
        #expect(TextFold.fold("北一条西十丁目") == "北一条西10丁目")   // only the run before 丁目
        #expect(TextFold.fold("本町一一丁目") == "本町一一丁目")         // not a numeral: as written
        #expect(TextFold.fold("十条") == "十条")
        #expect(TextFold.nameKey("本町11丁目") == TextFold.nameKey("本町十一丁目"))
        #expect(SearchFold.name("本町11丁目") == SearchFold.name("本町十一丁目"))
    }

    /// Two rows 5 m apart spelt with 〜 and ～ are one entry, and so are 十一丁目 and 11丁目.
    @Test func spellingsAreOneEntry() {
        func row(_ id: String, _ name: String, _ lat: Double) -> SourceRecord {
            SourceRecord(source: SourceRef(dataset: "t", id: id), name: name, operatorName: "テスト鉄道",
                         serviceClass: .conventional, lines: ["本線"], coordinate: Coordinate(lat: lat, lon: 139.7))
        }
        #expect(EntryRule().entries(from: [row("1", "A〜B", 35.684785), row("2", "A～B", 35.684830)]).count == 1)
        #expect(EntryRule().entries(from: [row("1", "本町十一丁目", 35.684785), row("2", "本町11丁目", 35.684830)]).count == 1)
    }
}
