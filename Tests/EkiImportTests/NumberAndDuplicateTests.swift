import Foundation
import Testing
import EkiKit
import EkiImport
import EkiTestSupport

/// Numbers that are not plainly decimal, archives with a member twice, and libarchive messages
/// kept on one line.
@Suite struct NumberAndDuplicateTests {
    static func csv(_ name: String) -> String {
        TestPaths.package("Tests/EkiImportTests/Fixtures/csv/" + name)
    }

    static func error(_ body: () throws -> Void) -> ImportError? {
        do { try body(); return nil } catch let e as ImportError { return e } catch { return nil }
    }

    @Test func decimalNumberTakesOnlyDecimalText() {
        #expect(DecimalNumber.parse("35.71765") == 35.71765)
        #expect(DecimalNumber.parse("-0.5") == -0.5)
        #expect(DecimalNumber.parse("+139") == 139)
        #expect(DecimalNumber.parse(".5") == 0.5)
        #expect(DecimalNumber.parse("35.") == 35)
        #expect(DecimalNumber.parse("3.5e1") == 35)
        #expect(DecimalNumber.parse("350E-1") == 35)
        for text in ["0x23", "0X23", "0x1p3", "inf", "-inf", "infinity", "nan", "NaN", "1e999", "",
                     "-", ".", "e5", "1e", "1e+", "1e+-5", "1.2.3", "35,5", " 35", "35 ", "１２", "3_5"] {
            #expect(DecimalNumber.parse(text) == nil, "\(text)")
        }
    }

    @Test(arguments: [
        ("hex-lat-line3.csv", "hex-lat-line3.csv:3:3: lat: '0x23' is not a number"),
        ("nan-lon-line2.csv", "nan-lon-line2.csv:2:4: lon: 'nan' is not a number"),
        ("inf-lat-line2.csv", "inf-lat-line2.csv:2:3: lat: 'inf' is not a number"),
    ])
    func genericCSVRefusesNonDecimalCoordinates(file: String, expected: String) throws {
        let e = Self.error { _ = try GenericCSVImporter(path: Self.csv(file)).read() }
        #expect(e?.description.contains(expected) == true, "\(String(describing: e))")
    }

    @Test func zipWithTwoStopsMembersIsRefused() {
        let path = GTFSTestData.fixture("duplicate-stops-member.zip")
        let e = Self.error { _ = try GTFSImporter(path: path).read() }
        #expect(e?.description == path + "/stops.txt: the archive holds stops.txt more than once; keep one and import again")
    }

    @Test func libarchiveErrorsStayOnOneLine() {
        let path = GTFSTestData.fixture("truncated-monorail-600bytes.zip")
        let e = Self.error { _ = try GTFSImporter(path: path).read() }
        #expect(e != nil)
        #expect(e?.description.hasPrefix(path) == true, "\(String(describing: e))")
        #expect(e?.description.contains("\n") == false, "\(String(describing: e))")
        #expect(ImportError.oneLine("Truncated input file\n") == "Truncated input file")
        #expect(ImportError.oneLine("bad header \r\n  at entry 2\n") == "bad header at entry 2")
    }
}

/// CSV details: repeated header names, repeated ids, blanks around quotes, blank lines, CR-only
/// line ends.
@Suite struct CSVDetailTests {
    static func read(_ name: String) throws -> ImportBatch {
        try GenericCSVImporter(path: NumberAndDuplicateTests.csv(name)).read()
    }

    static func failure(_ name: String) -> String? {
        NumberAndDuplicateTests.error { _ = try read(name) }?.description
    }

    @Test func headerNamingAColumnTwiceIsRefused() {
        #expect(Self.failure("header-name-twice.csv")?.hasSuffix("header-name-twice.csv:1: name: the header names this column twice (columns 2 and 4)") == true,
                "\(String(describing: Self.failure("header-name-twice.csv")))")
    }

    @Test func emptyHeaderNamesMayRepeat() throws {
        var table = try CSVTable(bytes: Array("name,lat,lon,,\n新宿,35.69,139.70,,\n".utf8), file: "t.csv")
        #expect(table.column("lon") == 2)
        #expect(try table.nextRow()?.fields == ["新宿", "35.69", "139.70", "", ""])
    }

    @Test func idOnTwoRowsIsRefusedWithBothLines() {
        #expect(Self.failure("id-twice-lines2-4.csv")?.hasSuffix("id-twice-lines2-4.csv:4:1: id: '1' is on lines 2 and 4 with the same operator and line; ids must be unique") == true,
                "\(String(describing: Self.failure("id-twice-lines2-4.csv")))")
    }

    @Test func blanksAroundAQuotedFieldAreDropped() throws {
        let names = try Self.read("blanks-around-quotes.csv").records.map(\.name)
        #expect(names == ["Shinjuku", "Yoyogi", "Harajuku, JR"])
    }

    @Test func blankLinesAreSkippedAndCounted() throws {
        let batch = try Self.read("blank-lines-3.csv")
        #expect(batch.records.map(\.name) == ["新宿", "代々木"])
        #expect(batch.warnings.count == 1)
        #expect(batch.warnings.first?.description.hasSuffix("blank-lines-3.csv:2: 3 blank lines skipped (the first here)") == true,
                "\(batch.warnings)")
    }

    @Test func crOnlyLineNumbersCountBreaksInsideQuotes() {
        #expect(Self.failure("cr-only-bad-lat-line4.csv")?.contains("cr-only-bad-lat-line4.csv:4:3: lat: 'x' is not a number") == true,
                "\(String(describing: Self.failure("cr-only-bad-lat-line4.csv")))")
    }
}

/// Encoding detection with confidence: short CP932 text whose bytes are valid UTF-8.
@Suite struct EncodingConfidenceTests {
    @Test func cp932ThatIsValidUTF8IsReadAsCP932WhenOnlyThatIsPlausible() throws {
        let batch = try CSVDetailTests.read("cp932-myogadani-crlf.csv")
        #expect(batch.records.map(\.name) == ["茗荷谷"])
    }

    @Test func bothReadingsPlausibleStopsNamingTheOption() {
        let path = NumberAndDuplicateTests.csv("cp932-hotaruda-crlf.csv")
        let e = NumberAndDuplicateTests.error { _ = try GenericCSVImporter(path: path).read() }
        #expect(e?.description == path + ":2: reads as UTF-8 '壓c' and as CP932 '螢田', and both look like Japanese text: give --encoding utf-8|cp932")
        // The option settles it.
        let batch = try? GenericCSVImporter(path: path, encoding: .cp932).read()
        #expect(batch?.records.map(\.name) == ["螢田"])
    }

    @Test func shortUTF8StaysUTF8() throws {
        #expect(try CSVDetailTests.read("utf8-tokyo-short.csv").records.map(\.name) == ["東京"])
    }

    @Test func validUTF8WithoutAJapaneseCP932ReadingIsUTF8() throws {
        // Valid UTF-8 (U+05D2 Hebrew ג, U+E000 private use) that is not valid CP932: UTF-8,
        // as written (it used to be refused as "neither plausible").
        let bytes = Array("name,lat,lon\nג\u{E000},35,139\n".utf8)
        let (utf8, encoding) = try TextDecoding.decode(bytes, file: "x.csv")
        #expect(encoding == .utf8)
        #expect(utf8 == bytes)
    }
}

/// The generic importer on many rows: values shared between rows, duplicates found by hash.
@Suite struct GenericCSVSharingTests {
    /// Writes `text` to a fresh temporary file named `name`.
    static func file(_ name: String, _ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("eki-sharing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// 3,000 rows on 3 line fields: each row's lines and operator as the field says (split at
    /// `;`, trimmed, empty parts dropped; NULL or blank is none).
    @Test func repeatedLinesAndOperatorsKeepTheirValues() throws {
        var text = "id,name,lat,lon,operator,line\n"
        let lineFields = ["\"A; B;;C\"", "L1", ""]
        let operators = [" OP1 ", "NULL", "東日本旅客鉄道株式会社"]
        for i in 0..<3_000 {
            text += "\(i),S\(i),35.\(1000 + i),139.\(2000 + i),\(operators[i % 3]),\(lineFields[(i / 3) % 3])\n"
        }
        let batch = try GenericCSVImporter(path: Self.file("shared-3000.csv", text)).read()
        #expect(batch.records.count == 3_000)
        let expectedLines: [[String]] = [["A", "B", "C"], ["L1"], []]
        let expectedOperators: [String?] = ["OP1", nil, "東日本旅客鉄道株式会社"]
        var wrong = 0
        for (i, r) in batch.records.enumerated() {
            if r.lines != expectedLines[(i / 3) % 3] || r.operatorName != expectedOperators[i % 3] || r.source.id != "\(i)" { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(batch.records[1234].coordinate == Coordinate(lat: 35.2234, lon: 139.3234))
    }

    /// The same id, operator and line after trimming is a duplicate even when the fields'
    /// spaces differ; another operator or line is not.
    @Test func duplicatesAreFoundByValue() throws {
        let ok = "id,name,lat,lon,operator,line\n1,A,35.1,139.1,OP1,L1\n1,A,35.1,139.1,OP2,L1\n1,A,35.1,139.1,OP1,L2\n"
        #expect(try GenericCSVImporter(path: Self.file("ids-3.csv", ok)).read().records.count == 3)
        let bad = "id,name,lat,lon,operator,line\n1,A,35.1,139.1,OP1,L1\n2,B,35.1,139.1,OP1,L1\n1,A,35.1,139.1, OP1 ,L1 \n"
        let message = NumberAndDuplicateTests.error { _ = try GenericCSVImporter(path: Self.file("ids-dup.csv", bad)).read() }?.description
        #expect(message?.hasSuffix("ids-dup.csv:4:1: id: '1' is on lines 2 and 4 with the same operator and line; ids must be unique") == true,
                "\(String(describing: message))")
    }
}
