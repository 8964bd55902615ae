import Testing
import Foundation
import EkiKit
@testable import EkiImport
import EkiTestSupport

@Suite struct CSVReaderTests {
    func records(_ text: String) throws -> [[String]] {
        var r = CSVReader(bytes: Array(text.utf8), file: "t.csv")
        var out: [[String]] = []
        while let rec = try r.nextRecord() { out.append(rec) }
        return out
    }

    /// Every csv-spectrum case (but the one marked defective) gives exactly its JSON.
    @Test(.needsShared("peer-suites/csv-spectrum")) func csvSpectrum() throws {
        let dir = TestPaths.requireShared("peer-suites/csv-spectrum")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/csvs").filter { $0.hasSuffix(".csv") }.sorted()
        var checked = 0
        for name in names {
            let bytes = [UInt8](FileManager.default.contents(atPath: "\(dir)/csvs/\(name)")!)
            var table = try CSVTable(bytes: bytes, file: name)
            var rows: [[String: String]] = []
            while let row = try table.nextRow() {
                rows.append(Dictionary(uniqueKeysWithValues: zip(table.header, row.fields)))
            }
            if name == "location_coordinates.csv" {
                // Defective upstream expectation: only check that U+FFFD and a quote inside an
                // unquoted field survive.
                #expect(rows.count == 1)
                #expect(rows[0].values.contains { $0.contains("\u{FFFD}") })
                continue
            }
            let json = FileManager.default.contents(atPath: "\(dir)/json/\(name.dropLast(4)).json")!
            let expected = try JSONSerialization.jsonObject(with: json) as! [[String: String]]
            #expect(rows == expected, "\(name)")
            checked += 1
        }
        #expect(checked == 11)
    }

    @Test func quotedFieldsLineEndingsAndBOM() throws {
        #expect(try records("a,b\r\n\"x,1\",\"say \"\"hi\"\"\"\r\n") == [["a", "b"], ["x,1", "say \"hi\""]])
        #expect(try records("\u{FEFF}a,b\n1,2") == [["a", "b"], ["1", "2"]])
        #expect(try records("a,\"multi\nline\",c\n") == [["a", "multi\nline", "c"]])
        #expect(try records("a,b,\n") == [["a", "b", ""]])
    }

    @Test func unclosedQuoteNamesTheLineWhereTheFieldStarts() {
        #expect(throws: CSVError(file: "t.csv", line: 2, column: 2, message: "quoted field is never closed (unclosed \")")) {
            _ = try records("a,b\n1,\"open\n2,3\n")
        }
    }

    @Test func cp932IsDecodedWithItsExtensions() throws {
        // ソ (0x83 0x5C: a 0x5C trail byte), then 塚 U+FA10 (0xED 0x80, an NEC-selected IBM
        // extension that strict Shift_JIS lacks), as in the N02 file's 笹塚.
        let bytes: [UInt8] = [0x83, 0x5C, 0x0A, 0x8D, 0xF9, 0xED, 0x80]
        let (utf8, enc) = try TextDecoding.decode(bytes, file: "x", encoding: nil)
        #expect(enc == .cp932)
        #expect(String(decoding: utf8, as: UTF8.self) == "ソ\n笹\u{FA10}")
        #expect(throws: ImportError.self) { try TextDecoding.decode([0xFF, 0xFE, 0x41, 0x00], file: "x") }
    }
}
