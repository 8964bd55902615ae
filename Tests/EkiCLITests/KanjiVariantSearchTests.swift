import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// Issue #16 item 7, the pairs 﨑/崎 and 曾/曽 (Datasets/kanji-variants.csv): searching with
/// either spelling finds the real station written with the other. The rows are N02-23's own
/// (宮崎, 曽根田, 湯檜曽), read from the real file at test time.
@Suite struct KanjiVariantSearchTests {
    @Test(.needsN02) func eitherSpellingFindsTheStation() throws {
        let dir = TemporaryDirectory()
        let n02 = TestPaths.requireShared(TestPaths.n02CSVFile)
        let lines = try String(contentsOfFile: n02, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let names: Set<String> = ["宮崎", "曽根田", "湯檜曽"]
        let rows = lines.dropFirst().filter { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            return f.count > 4 && names.contains(String(f[4]))
        }
        #expect(rows.count == 4)
        let csv = dir.file("n02-variants.csv"), db = dir.file("variants.gpkg")
        try ([String(lines[0])] + rows.map(String.init)).joined(separator: "\n").appending("\n")
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = eki("import", "--db", db, csv)
        #expect(imported.status == 0, "\(imported.err)")
        for (variant, standard) in [("宮﨑", "宮崎"), ("曾根田", "曽根田"), ("湯檜曾", "湯檜曽")] {
            let a = eki("search", "--db", db, variant, "--format", "csv")
            let b = eki("search", "--db", db, standard, "--format", "csv")
            #expect(a.status == 0 && b.status == 0, "\(a.err) \(b.err)")
            let found = a.out.split(separator: "\r\n").dropFirst()
            #expect(found.count == 1 && found.first?.contains(",\(standard),") == true, "\(variant): \(a.out)")
            #expect(a.out == b.out, "\(variant) and \(standard) find different stations")
        }
        #expect(TextFold.fold("山﨑曾") == "山崎曽")
    }
}
