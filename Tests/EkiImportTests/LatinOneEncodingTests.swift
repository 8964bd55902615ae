import Foundation
import Testing
import EkiKit
import EkiImport
import EkiTestSupport

/// A Latin-1 file is neither UTF-8 nor plausible CP932: refused, never read as `S縊 Paulo`.
@Suite struct LatinOneEncodingTests {
    @Test func latin1FileIsRefusedNamingTheLine() {
        let path = TestPaths.package("Tests/EkiImportTests/Fixtures/csv/latin1-sao-paulo-line2.csv")
        var error: ImportError? = nil
        do { _ = try GenericCSVImporter(path: path).read() } catch let e as ImportError { error = e } catch {}
        #expect(error?.description == path + ":2: not UTF-8, and as CP932 it reads '縊' (U+7E0A), which is not station text (Latin-1 or another encoding?): convert it to UTF-8, or give --encoding cp932 if it is CP932")
    }

    /// Real CP932 text with Latin letters beside kanji stays plausible: JR東日本, JR線.
    @Test func latinLettersBesideKanjiInRealNamesArePlausible() throws {
        let text = "id,name,operator,lat,lon\n1,新宿,JR東日本,35.6896,139.7006\n2,高輪ゲートウェイ,JR線,35.6355,139.7407\n"
        let utf8 = Array(text.utf8)
        // The same text in CP932, as a spreadsheet saves it.
        let cp932 = try #require(text.data(using: .shiftJIS)).map { $0 }
        #expect(try TextDecoding.decode(cp932, file: "f").bytes == utf8)
        #expect(try TextDecoding.decode(cp932, file: "f").encoding == .cp932)
        #expect(try TextDecoding.decode(utf8, file: "f").encoding == .utf8)
    }
}
