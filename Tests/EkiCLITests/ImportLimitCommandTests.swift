import Foundation
import Testing
import EkiKit
import EkiTestSupport

/// `eki import` under its limits (issue #16 item 12): an input over a limit stops the import
/// with one line naming file, line, field, the limit and its flag (exit 1) and the database is
/// left byte for byte as it was; warnings beyond `--max-warnings` are counted.
@Suite struct ImportLimitCommandTests {
    let dir = TemporaryDirectory()

    /// A database holding one good import, and its bytes.
    func database() throws -> (path: String, bytes: Data) {
        let db = dir.file("limits.gpkg"), csv = dir.file("good.csv")
        try "id,name,lat,lon\n1,新宿,35.690,139.700\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let r = eki("import", "--db", db, csv)
        #expect(r.status == 0, "\(r.err)")
        return (db, try Data(contentsOf: URL(fileURLWithPath: db)))
    }

    @Test func csvLineOverTheLimitLeavesTheDatabaseAsItWas() throws {
        let (db, before) = try database()
        let csv = dir.file("long-line.csv")
        try "id,name,lat,lon\n2,渋谷,35.658,139.701\n3,\(String(repeating: "x", count: 100)),35.0,139.0\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let r = eki("import", "--db", db, "--max-line-bytes", "64", csv)
        #expect(r.status == 1)
        #expect(r.err == "eki import: \(csv):3:2: name: line is longer than the limit of 64 bytes (--max-line-bytes N raises it)\n", "\(r.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        #expect(eki("import", "--db", db, "--max-line-bytes", "0", csv).status == 64)
        let raised = eki("import", "--db", db, "--max-line-bytes", "256", csv)
        #expect(raised.status == 0, "\(raised.err)")
    }

    @Test(.needsTool("python3")) func gtfsZipBombLeavesTheDatabaseAsItWas() throws {
        let (db, before) = try database()
        let rows = "stop_id,stop_name,stop_lat,stop_lon\n" + String(repeating: "S1,駅,35.0,139.0\n", count: (4 << 20) / 19)
        try writeFeed(dir.file("bomb"), stops: rows)
        let zip = dir.file("bomb.zip")
        try zipFolder(dir.file("bomb"), into: zip)
        let r = eki("import", "--db", db, zip)
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("eki import: \(zip)/stops.txt: unzips to more than 100 times its compressed size ("), "\(r.err)")
        #expect(r.err.hasSuffix("), the limit against zip bombs (--max-zip-ratio N raises it)\n"), "\(r.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        let small = eki("import", "--db", db, "--max-unzipped-bytes", "1000", zip)
        #expect(small.err == "eki import: \(zip)/stops.txt: unzips to \(rows.utf8.count) bytes, over the limit of 1000 (--max-unzipped-bytes N raises it)\n", "\(small.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    @Test func warningsBeyondTheLimitAreCountedAndSaidSo() throws {
        let feed = dir.file("unserved")
        let stops = (1...31).map { "S\($0),駅\($0),35.\($0),139.0\n" }.joined()
        try writeFeed(feed, stops: "stop_id,stop_name,stop_lat,stop_lon\n" + stops)
        let r = eki("import", "--db", dir.file("w.gpkg"), "--max-warnings", "5", "--verbose", feed)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("\(feed): 30 warning(s)\n"), "\(r.err)")
        #expect(r.err.components(separatedBy: "  warning: ").count - 1 == 5)
        #expect(r.err.contains("  warning: \(feed)/stops.txt:3: stop_id: stop 'S2' (駅2) is served by no trip\n"), "\(r.err)")
        #expect(r.err.contains("  … and 25 more (the first 5 are kept; --max-warnings N keeps more)\n"), "\(r.err)")
    }

    @Test func helpNamesEveryLimit() {
        let r = eki("import", "--help")
        for flag in ["--max-field-bytes N", "--max-line-bytes N", "--max-unzipped-bytes N", "--max-zip-ratio N", "--max-warnings N"] {
            #expect(r.out.contains(flag) || r.err.contains(flag), "\(flag)")
        }
    }
}
