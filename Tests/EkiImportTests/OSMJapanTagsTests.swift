import Foundation
import Testing
import EkiKit
import EkiImport
import EkiTestSupport

/// OpenStreetMap as mapped in Japan: 国土数値情報 (KSJ2:*) tags as fallbacks, romanized names in
/// parentheses, and nested elements refused.
@Suite struct OSMJapanTagsTests {
    static func fixture(_ name: String) -> String {
        TestPaths.package("Tests/EkiImportTests/Fixtures/osm/" + name)
    }

    @Test func ksj2TagsAndLatinNamesInParentheses() throws {
        let batch = try OSMImporter(path: Self.fixture("ksj2-tags-and-latin-name-n3.osm")).read()
        let rows = batch.records.map { "\($0.source.id) \($0.name) \($0.latinName ?? "-") \($0.operatorName ?? "-") \($0.lines)" }
        #expect(rows == [
            // KSJ2:OPC and KSJ2:LIN stand in for operator and a route relation.
            "node/101 氷川台 Hikawadai 東京地下鉄 [\"8号線有楽町線\"]",
            // name:en wins over the parenthesised part; operator over KSJ2:OPC.
            "node/102 小竹向原 Kotake-mukaihara 東京地下鉄 []",
            // Japanese in the parentheses is not a Latin name: the name stays whole.
            "node/103 平和台 (仮称) - - []",
        ], "\(rows)")
    }

    @Test func nestedNodesAreRefused() {
        let path = Self.fixture("bad-nested-nodes-line4.osm")
        var error: ImportError? = nil
        do { _ = try OSMImporter(path: path).read() } catch let e as ImportError { error = e } catch {}
        #expect(error?.file == path)
        #expect(error?.line == 4)
        #expect(error?.message == "<node> inside another element: OSM nodes, ways and relations do not nest")
    }
}
