import EkiTestSupport
import Foundation
import Testing
@testable import EkiKit

/// The shortcuts a million-row import takes (compact rows, the plain-decimal fast path, the
/// ASCII name key, the reused CSV field array) give the same values as the general paths.
@Suite struct LargeInputPathTests {
    /// The fast path (at most 15 digits, no exponent) against `Double(_:)` on 100,000 seeded
    /// coordinates written as the generators and sources write them, and on edge cases.
    @Test func plainDecimalsParseAsDoubleDoes() {
        var rng = SplitMix64(state: 42)
        var differ: [String] = []
        for k in 0..<100_000 {
            let v = Double.random(in: -180...180, using: &rng)
            let s = String(format: k % 3 == 0 ? "%.7f" : k % 3 == 1 ? "%.6f" : "%.13f", v)
            if DecimalNumber.parse(s) != Double(s)! { differ.append(s) }
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
        let cases = ["0", "-0", "+139", ".5", "5.", "35.6812362", "-33.8688197", "123456789012345",
                     "1234567890123456", "0.1234567890123456789", "1e-3", "35.69E1", "999999999999999.9"]
        for s in cases { #expect(DecimalNumber.parse(s) == Double(s)!, "\(s)") }
        #expect(DecimalNumber.parse("-0")!.sign == .minus)
        for s in ["", "-", ".", "1.2.3", "0x23", "inf", "nan", "1e", "--1", "1-", " 1"] {
            #expect(DecimalNumber.parse(s) == nil, "\(s)")
        }
        #expect(DecimalNumber.parse("35.68"[...]) == 35.68)      // a Substring goes the same way
    }

    /// ASCII names take a byte-wise name key equal to the general one's rules: spaces and tabs
    /// dropped, letters lower-cased, the text from the first `(` (not at the start) dropped.
    @Test func asciiNameKeys() {
        #expect(TextFold.nameKey("S000001") == "s000001")
        #expect(TextFold.nameKey("s000001") == "s000001")
        #expect(TextFold.nameKey("Shin Yokohama (JR)") == "shinyokohama")
        #expect(TextFold.nameKey("(A) B(C)") == "(a)b(c)")
        #expect(TextFold.nameKey("Ueno\tPark") == "uenopark")
        #expect(TextFold.nameKey("") == "")
        // Mixed with kana: the general path, same rules.
        #expect(TextFold.nameKey("JR 四ッ谷(四ツ谷)") == "jr四ツ谷")
    }

    /// A row is 120 bytes; the optional fields live in a box and compare by value.
    @Test func compactRecordsCompareByValue() {
        #expect(MemoryLayout<SourceRecord>.stride <= 120, "\(MemoryLayout<SourceRecord>.stride)")
        let plain = SourceRecord(source: SourceRef(dataset: "csv/t", id: "1"), name: "小田原", operatorName: "JR東日本",
                                 serviceClass: .conventional, lines: ["東海道線"], coordinate: Coordinate(lat: 35.256225, lon: 139.155772))
        var a = plain
        a.reading = "おだわら"
        a.aliases.append("小田原駅")
        a.lineOrder = 3
        #expect(a.reading == "おだわら" && a.aliases == ["小田原駅"] && a.lineOrder == 3 && a.latinName == nil)
        #expect(a != plain)
        let b = SourceRecord(source: plain.source, name: "小田原", reading: "おだわら", operatorName: "JR東日本",
                             serviceClass: .conventional, lines: ["東海道線"], coordinate: plain.coordinate,
                             lineOrder: 3, aliases: ["小田原駅"])
        #expect(a == b && a.hashValue == b.hashValue)
        // A copy changed later does not change the original (the box is never shared for writing).
        var c = a
        c.reading = nil
        c.aliases = []
        c.lineOrder = nil
        #expect(a.reading == "おだわら" && a.aliases == ["小田原駅"])
        #expect(c == plain && c.hashValue == plain.hashValue)
        #expect(Set([a, b, c, plain]).count == 2)
    }

    /// Reading into one reused array gives the records `nextRecord()` gives.
    @Test func reusedFieldArrayReadsTheSameRecords() throws {
        let text = "id,name,lat\r\n1,\"Shinjuku, West\",35.69\n\n2,\"a \"\"b\"\"\",35.7\n3,,\n"
        var a = CSVReader(bytes: Array(text.utf8), file: "t.csv")
        var b = CSVReader(bytes: Array(text.utf8), file: "t.csv")
        var fields: [String] = []
        var records: [[String]] = []
        while try b.nextRecord(into: &fields) {
            #expect(try a.nextRecord() == fields)
            #expect(a.line == b.line)
            records.append(fields)
        }
        #expect(try a.nextRecord() == nil)
        #expect(records == [["id", "name", "lat"], ["1", "Shinjuku, West", "35.69"], [""], ["2", "a \"b\"", "35.7"], ["3", "", ""]])
    }
}
