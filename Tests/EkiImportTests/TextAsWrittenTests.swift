import Foundation
import Testing
import EkiKit
@testable import EkiImport
import EkiTestSupport

/// Text read the way it was written: the encoding rule (valid UTF-8 is UTF-8 unless only the
/// CP932 reading is Japanese; a BOM settles it and must agree with `--encoding`; when both
/// readings are Japanese it stops naming the line and both readings) and whitespace kept.
@Suite struct TextAsWrittenTests {
    /// A generic CSV with `text` as its bytes, read by the importer (the streaming path).
    func importNames(_ bytes: [UInt8], encoding: TextEncoding? = nil) throws -> [String] {
        let dir = TemporaryDirectory()
        let path = dir.path + "/t.csv"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try GenericCSVImporter(path: path, encoding: encoding).read().records.map(\.name)
    }

    func importError(_ bytes: [UInt8], encoding: TextEncoding? = nil) throws -> String? {
        let dir = TemporaryDirectory()
        let path = dir.path + "/t.csv"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do { _ = try GenericCSVImporter(path: path, encoding: encoding).read() } catch let e as ImportError {
            return e.description.replacingOccurrences(of: path, with: "t.csv")
        }
        return nil
    }

    /// Mixed Japanese and Latin text (in a column eki does not use) is UTF-8: its CP932 reading
    /// is possible but not station text, and a kanji before a Latin word is ordinary UTF-8.
    @Test func mixedJapaneseAndLatinUTF8IsUTF8() throws {
        let text = "name,lat,lon,note\n東京,35.68,139.76,JR線 Yamanote line\n"
        #expect(try TextDecoding.decode(Array(text.utf8), file: "t").encoding == .utf8)
        #expect(try importNames(Array(text.utf8)) == ["東京"])
    }

    /// csv-spectrum's utf8.csv: valid UTF-8 whose only non-ASCII is `ʤ` (U+02A4). As CP932 it
    /// reads `ﾊ､` (halfwidth only): not Japanese enough to outweigh the UTF-8 reading.
    @Test(.needsShared("peer-suites/csv-spectrum")) func nonJapaneseLetterIsUTF8() throws {
        let path = TestPaths.requireShared("peer-suites/csv-spectrum") + "/csvs/utf8.csv"
        let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
        let (utf8, encoding) = try TextDecoding.decode(bytes, file: "utf8.csv")
        #expect(encoding == .utf8)
        #expect(String(decoding: utf8, as: UTF8.self) == "a,b,c\n1,2,3\n4,5,ʤ")
        let source = try CSVPartSource(path: path, encoding: nil, limits: CSVLimits(maxFieldBytes: 1 << 20, maxLineBytes: 1 << 20))
        #expect(source.encoding == .utf8)
    }

    /// 茗荷谷 in CP932 is valid UTF-8 (`䪉גJ`, not station text): CP932. 螢田 in CP932 reads `壓c`,
    /// Japanese both ways: the import stops naming the line and both readings.
    @Test func shortCP932ThatIsAlsoUTF8() throws {
        let myogadani: [UInt8] = Array("name,lat,lon\n".utf8) + [0xE4, 0xAA, 0x89, 0xD7, 0x92, 0x4A] + Array(",35.717,139.737\n".utf8)
        #expect(try importNames(myogadani) == ["茗荷谷"])
        let hotaruda: [UInt8] = Array("name,lat,lon\n".utf8) + [0xE5, 0xA3, 0x93, 0x63] + Array(",35.2,139.1\n".utf8)
        #expect(try importError(hotaruda) == "t.csv:2: reads as UTF-8 '壓c' and as CP932 '螢田', and both look like Japanese text: give --encoding utf-8|cp932")
        #expect(try importNames(hotaruda, encoding: .cp932) == ["螢田"])
        #expect(try importNames(hotaruda, encoding: .utf8) == ["壓c"])
        // Accented Latin in UTF-8 (é reads `ﾃｩ` in CP932) stays UTF-8.
        #expect(try TextDecoding.decode(Array("name\nCafé Ōme\n".utf8), file: "t").encoding == .utf8)
    }

    /// A UTF-8 BOM says UTF-8: with `--encoding cp932` it is refused (東京 would read 譚ｱ莠ｬ),
    /// by the importers and by `visit import`'s decoding alike; with utf-8 or none it is read.
    @Test func bomThatContradictsTheEncodingIsRefused() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("name,lat,lon\n東京,35.68,139.76\n".utf8)
        let message = "t.csv:1: starts with a UTF-8 byte-order mark, so it is UTF-8, but --encoding cp932 was given: drop --encoding (or give utf-8)"
        #expect(try importError(bytes, encoding: .cp932) == message)
        #expect(throws: ImportError(file: "t.csv", line: 1, message: String(message.dropFirst("t.csv:1: ".count)))) {
            try TextDecoding.decode(bytes, file: "t.csv", encoding: .cp932)
        }
        #expect(try importNames(bytes, encoding: .utf8) == ["東京"])
        #expect(try importNames(bytes) == ["東京"])
    }

    /// Spaces and tabs inside a field are kept: unquoted `\tb ` and quoted `" B  "` are read as
    /// written (only blanks around a quoted field's quotes are dropped, the documented case).
    @Test func whitespaceIsKeptAsWritten() throws {
        let text = "name,lat,lon\n\tb ,35.1,139.1\n\" B  \",35.2,139.2\n  \"C\" ,35.3,139.3\n"
        #expect(try importNames(Array(text.utf8)) == ["\tb ", " B  ", "C"])
        var reader = CSVReader(bytes: Array(text.utf8), file: "t.csv")
        var rows: [[String]] = []
        while let r = try reader.nextRecord() { rows.append(r) }
        #expect(rows.dropFirst().map { $0[0] } == ["\tb ", " B  ", "C"])
        // A blank name is still no name.
        #expect(try importError(Array("name,lat,lon\n  ,35.1,139.1\n".utf8))?.hasPrefix("t.csv:2:1: name: empty station name") == true)
    }
}
