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

    @Test func oneNumberFormEverywhereShortestAndWithoutExponent() {
        let n = JSONBytes.number
        #expect([n(35, nil), n(-0.0, nil), n(139.767125, nil), n(-33.5, nil)] == ["35", "0", "139.767125", "-33.5"])
        // Swift's description switches to an exponent below 1e-4 and from 1e16: written out.
        #expect(0.00001.description == "1e-05")
        #expect([n(0.00001, nil), n(-1.5e-7, nil), n(1.25e-4, nil)] == ["0.00001", "-0.00000015", "0.000125"])
        #expect([n(1e16, nil), n(-2.5e20, nil), n(1e15 + 0.5, nil), n(4e15, nil)]
                == ["10000000000000000", "-250000000000000000000", "1000000000000000.5", "4000000000000000"])
        #expect([n(.infinity, nil), n(-.infinity, nil), n(.nan, 2)] == ["null", "null", "null"])
        // Rounded first with `decimals` (distance_m: 1, percent: 2), half away from zero.
        #expect([n(12.34, 1), n(12.35, 1), n(66.666666, 2), n(100, 2), n(-0.05, 1)] == ["12.3", "12.4", "66.67", "100", "-0.1"])
        // Every form reads back as the same Double.
        for d in [0.1, 1.0 / 3, 139.76712512345678, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 123456789.125e-12] {
            #expect(Double(n(d, nil)) == d, "\(d)")
        }
        #expect(JSONValue.array([.number(0.00001), .int(3), .number(.nan)]).text() == "[0.00001,3,null]")
    }

    @Test func compactFeatureHasTheMembersInOrder() throws {
        var out: [UInt8] = []
        StationFeatureJSON.appendFeature(Self.station, distance: 12.34, extra: [("visited", .bool(false)), ("completed", .null)],
                                         to: &out)
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"Feature","id":"jr-east/c/東京","geometry":{"type":"Point","coordinates":[139.767125,35.681236]},"properties":{"key":"jr-east/c/東京","name":"東京 \"中央\"\\\n","reading":"トウキョウ","latin_name":null,"operator":"JR東日本","operator_id":"jr-east","class":"conventional","lines":["山手線","中央線"],"prefecture":"東京都","open":true,"kind":"regular","status":"open","status_since":null,"sources":["n02:003700"],"distance_m":12.3,"visited":false,"completed":null}}"#))
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
