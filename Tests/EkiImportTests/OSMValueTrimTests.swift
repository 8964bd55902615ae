import EkiImport
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// Tag values are trimmed of spaces and line breaks at both ends (ASCII and Unicode, e.g. the
/// ideographic space U+3000); values with nothing to trim take a shorter path, same result.
@Suite("OSM import: value trimming")
struct OSMValueTrimTests {
    static func station(name: String, operator op: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6" generator="test">
          <node id="1" lat="35.0" lon="139.0">
            <tag k="railway" v="station"/>
            <tag k="name" v="\(name)"/>
            <tag k="operator" v="\(op)"/>
          </node>
        </osm>
        """
    }

    @Test("Names and operators with spaces, U+3000, tabs and none at their ends",
          arguments: [
              (" 小田原 ", "小田原", "小田急電鉄;東日本旅客鉄道", ["小田急電鉄", "東日本旅客鉄道"]),
              ("\u{3000}小田原\u{3000}", "小田原", " 小田急電鉄 ", ["小田急電鉄"]),
              ("小田原&#9;", "小田原", "Odakyu", ["Odakyu"]),
              ("Odawara", "Odawara", "小田急電鉄 ; ; 小田急電鉄", ["小田急電鉄"]),
              ("\u{00A0}Odawara", "Odawara", "\u{3000}", []),
              ("氷川台 (Hikawadai)", "氷川台", "東京地下鉄", ["東京地下鉄"]),
          ])
    func trimmed(_ name: String, _ expected: String, _ op: String, _ operators: [String]) throws {
        let batch = try OSMTestSupport.importXML(Self.station(name: name, operator: op))
        #expect(batch.records.map(\.name) == Array(repeating: expected, count: max(1, operators.count)))
        #expect(batch.records.compactMap(\.operatorName) == operators)
    }
}
