import Foundation
import Testing
import EkiKit
import EkiSQLite
import EkiTestSupport

/// Commands on a file a first import is creating (rollback journal, nothing committed yet):
/// readers and `visit add` say that an import is creating the file, a second import says
/// another import is running; never SQLite's own "database is locked".
@Suite struct FirstImportLockTests {
    let dir = TemporaryDirectory()
    static let sample = TestPaths.package("Datasets/n02-odawara-tokyo.csv")
    static let tokyo = "139.755,35.672,139.775,35.690"

    /// The file as `importBatches` leaves it while a first import writes: the empty schema
    /// committed, then rollback-journal mode and an open write transaction with a `-journal`
    /// beside the file. `exclusive`: the import has spilled pages to the file (readers wait).
    func creating(_ name: String, exclusive: Bool) throws -> (path: String, writer: Database) {
        let path = dir.file(name)
        try StationStore(path: path).close()
        let writer = try Database(path: path)
        try writer.execute("PRAGMA journal_mode = DELETE")
        try writer.execute(exclusive ? "BEGIN EXCLUSIVE" : "BEGIN IMMEDIATE")
        try writer.execute("INSERT INTO eki_meta (name, value) VALUES ('lock-test', 'being written')")
        #expect(FileManager.default.fileExists(atPath: path + "-journal"))
        return (path, writer)
    }

    @Test("before the import spills: readers say at once that an import is creating the file")
    func readersWhileReserved() throws {
        let (db, writer) = try creating("reserved.gpkg", exclusive: false)
        let said = "an import is creating \(db) and has not finished: there is nothing to read yet; run this again when it has\n"
        let bbox = eki("bbox", "--db", db, Self.tokyo)
        #expect(bbox.status == 1)
        #expect(bbox.err == "eki bbox: " + said)
        #expect(bbox.out == "")
        let add = eki("visit", "add", "東京", "--date", "2019-08-13", "--db", db, "--visits", dir.file("v.sqlite"))
        #expect(add.status == 1)
        #expect(add.err == "eki visit: " + said)
        #expect(!FileManager.default.fileExists(atPath: dir.file("v.sqlite")))
        let check = eki("info", "--db", db, "--check")
        #expect(check.status == 1)
        #expect(check.err == "eki info: " + said)
        try writer.execute("ROLLBACK")
    }

    @Test("after it spills: readers wait 5 s, then say that an import is creating the file")
    func readersWhileExclusive() throws {
        let (db, writer) = try creating("exclusive.gpkg", exclusive: true)
        let start = Date()
        let search = eki("search", "--db", db, "東京")
        #expect(Date().timeIntervalSince(start) >= 4.9)
        #expect(search.status == 1)
        #expect(search.err == "eki search: an import is creating \(db) and has not finished: waited 5 s for it; run this again when it has\n")
        try writer.execute("ROLLBACK")
    }

    @Test("visit add after it spills: the same words, and no visit written")
    func visitAddWhileExclusive() throws {
        let (db, writer) = try creating("visit.gpkg", exclusive: true)
        let visits = dir.file("visits.sqlite")
        let add = eki("visit", "add", "東京", "--date", "2019-08-13", "--db", db, "--visits", visits)
        #expect(add.status == 1)
        #expect(add.err == "eki visit: an import is creating \(db) and has not finished: waited 5 s for it; run this again when it has\n")
        #expect(!FileManager.default.fileExists(atPath: visits))
        try writer.execute("ROLLBACK")
    }

    @Test("a second import just behind: another import is running, as on the WAL path; nothing written")
    func secondImport() throws {
        let (db, writer) = try creating("second.gpkg", exclusive: false)
        let r = eki("import", "--db", db, Self.sample)
        #expect(r.status == 1)
        #expect(r.err == "eki import: another import is running on \(db): waited 5 s for it to finish; nothing was written, run this again when it has\n")
        try writer.execute("ROLLBACK")
        try writer.execute("PRAGMA journal_mode = WAL")
        writer.close()
        // Nothing of the second import is in the file; once the first is gone it runs.
        #expect(try StationStore(path: db, readOnly: true).entries.count() == 0)
        #expect(eki("import", "--db", db, Self.sample).status == 0)
    }

    /// A real first import in another process (5,000 generated rows and the sample): every
    /// reader started meanwhile either answers from the finished file or says that the import
    /// is creating it.
    @Test("readers during a real first import never print a raw lock error",
          .enabled(if: builtEki != nil, "needs the built eki executable (swift build)"))
    func readersDuringARealFirstImport() throws {
        var text = "N02_001,N02_002,N02_003,N02_004,N02_005,N02_005c,N02_005g,lon,lat,n_vertices\n"
        for i in 0..<5_000 {
            let code = String(format: "9%05d", i)
            text += "12,5,生成線\(i / 50),生成鉄道,生成駅\(i),\(code),\(code),"
                + String(format: "%.6f,%.6f", 141.0 + Double(i % 50) * 0.01, 43.0 + Double(i / 50) * 0.001) + ",2\n"
        }
        let file = dir.file("generated.csv")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let db = dir.file("real.gpkg")
        let importer = Process()
        importer.executableURL = URL(fileURLWithPath: builtEki!)
        importer.arguments = ["import", "--db", db, Self.sample, file]
        importer.standardOutput = FileHandle.nullDevice
        importer.standardError = FileHandle.nullDevice
        try importer.run()
        var runs: [EkiRun] = []
        while importer.isRunning && runs.count < 500 {
            guard FileManager.default.fileExists(atPath: db) else { Thread.sleep(forTimeInterval: 0.01); continue }
            runs.append(eki("bbox", "--db", db, Self.tokyo, "--format", "csv"))
        }
        importer.waitUntilExit()
        #expect(importer.terminationStatus == 0)
        let creating = "eki bbox: an import is creating \(db) and has not finished: "
        let other = runs.filter { $0.status != 0 && !$0.err.hasPrefix(creating) }
        #expect(other.isEmpty, "\(other.prefix(3).map(\.err))")
        #expect(runs.allSatisfy { !$0.err.contains("SQLite") })
        #expect(runs.contains { $0.err.hasPrefix(creating) }, "\(runs.count) readers, none during the import")
        #expect(eki("bbox", "--db", db, Self.tokyo, "--format", "csv").out.split(separator: "\r\n").count == 19)
    }
}
