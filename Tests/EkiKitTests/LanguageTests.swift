import EkiKit
import Testing

@Suite struct LanguageTests {
    @Test func tagsAsLangTakesThem() {
        #expect(Language(tag: "en") == .en)
        #expect(Language(tag: "EN-gb") == .en)
        #expect(Language(tag: "ja_JP") == .ja)
        #expect(Language(tag: "fr") == nil)
        #expect(Language(tag: "") == nil)
    }

    @Test func acceptLanguageByQuality() {
        #expect(Language(acceptLanguage: nil) == .ja)
        #expect(Language(acceptLanguage: "") == .ja)
        #expect(Language(acceptLanguage: "en-US,en;q=0.9") == .en)
        #expect(Language(acceptLanguage: "fr-FR, en;q=0.8, ja;q=0.9") == .ja)
        #expect(Language(acceptLanguage: "de, en;q=0.5") == .en)
        #expect(Language(acceptLanguage: "en;q=0, ja;q=0.1") == .ja)
        #expect(Language(acceptLanguage: "fr, de") == .ja)
        #expect(Language(acceptLanguage: "*") == .ja)
        #expect(Language(acceptLanguage: "en, ja") == .en)
    }
}
