import EkiKit
import Foundation
import Testing

@Suite struct StationFeatureJSONTests {
    static let station = Station(
        key: "jr-east/c/東京", name: "東京 \"中央\"\\\n", reading: "トウキョウ", latinName: nil, operatorName: "JR東日本",
        operatorRef: nil, serviceClass: .conventional, lines: ["山手線", "中央線"], prefecture: "東京都",
        coordinate: Coordinate(lat: 35.681236, lon: 139.767125), sources: [SourceRef(dataset: "n02", id: "003700")],
        isOpen: true, operatorID: "jr-east")

    @Test func quotingEscapesOnlyQuotesBackslashesAndControls() {
        #expect(JSONBytes.quoted("a\"b\\c\nd\re\tf\u{01}/東") == #""a\"b\\c\nd\re\tf\u0001/東""#)
    }

    @Test func numbersAsTheCommandLineWritesThem() {
        func text(_ d: Double) -> String { var o: [UInt8] = []; JSONBytes.appendNumber(d, to: &o); return String(decoding: o, as: UTF8.self) }
        #expect(text(3) == "3")
        #expect(text(139.767125) == "139.767125")
        #expect(text(.nan) == "null")
    }

    @Test func compactFeatureHasTheMembersInOrder() throws {
        var out: [UInt8] = []
        StationFeatureJSON.appendFeature(Self.station, distance: 12.34, extra: [("visited", .bool(false)), ("completed", .null)],
                                         to: &out)
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"Feature","id":"jr-east/c/東京","geometry":{"type":"Point","coordinates":[139.767125,35.681236]},"properties":{"key":"jr-east/c/東京","name":"東京 \"中央\"\\\n","reading":"トウキョウ","latin_name":null,"operator":"JR東日本","operator_id":"jr-east","class":"conventional","lines":["山手線","中央線"],"prefecture":"東京都","open":true,"kind":"regular","sources":["n02:003700"],"distance_m":12.3,"visited":false,"completed":null}}"#))
        #expect(!text.contains(" \""))
    }

    @Test func indentedAndCompactTextAreTheSameValue() throws {
        var compact: [UInt8] = [], indented: [UInt8] = []
        StationFeatureJSON.appendFeature(Self.station, extra: [("match", .string("prefix"))], to: &compact)
        StationFeatureJSON.appendFeature(Self.station, extra: [("match", .string("prefix"))], layout: .indented("    "), to: &indented)
        let a = try JSONSerialization.jsonObject(with: Data(compact)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: Data(indented)) as? NSDictionary
        #expect(a != nil && a == b)
        #expect(String(decoding: indented, as: UTF8.self).hasSuffix("\"match\": \"prefix\"\n      }\n    }"))
    }

    @Test func flatObjectPutsLatLonAfterName() throws {
        var out: [UInt8] = []
        StationFeatureJSON.appendObject(Self.station, layout: .indented("  "), to: &out)
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.hasPrefix("{\n    \"key\": \"jr-east/c/東京\",\n    \"name\": \"東京 \\\"中央\\\"\\\\\\n\",\n    \"lat\": 35.681236,\n    \"lon\": 139.767125,\n    \"reading\": "))
        #expect(text.hasSuffix("\"sources\": [\"n02:003700\"]\n  }"))
    }
}
