import Testing
import Foundation
import EkiCLI
import EkiKit
import EkiSQLite
import EkiTestSupport

/// The station database while an import writes it: readers keep answering from the committed
/// data, and a second writer says what it waited for.
@Suite(.serialized) struct ConcurrentWriteTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    static let viewport = "139.755,35.672,139.775,35.690"

    /// `rows` N02 rows on a grid in Hokkaido, far from the sample's 東京 viewport.
    func generatedN02(_ name: String, rows: Int) throws -> String {
        var text = "N02_001,N02_002,N02_003,N02_004,N02_005,N02_005c,N02_005g,lon,lat,n_vertices\n"
        for i in 0..<rows {
            let code = String(format: "9%05d", i)
            text += "12,5,生成線\(i / 50),生成鉄道,生成駅\(i),\(code),\(code),"
                + String(format: "%.6f,%.6f", 141.0 + Double(i % 50) * 0.01, 43.0 + Double(i / 50) * 0.01) + ",2\n"
        }
        let file = path(name)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("readers answer from the committed data while an import writes",
          .enabled(if: builtEki != nil, "needs the built eki executable (swift build)"))
    func readersDuringAnImport() throws {
        let db = path("readers.gpkg")
        #expect(eki("import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv")).status == 0)
        let before = try ekiProcess(["bbox", "--db", db, Self.viewport, "--format", "csv"])
        #expect(before.status == 0)
        #expect(before.out.split(separator: "\r\n").count == 19)      // header and 18 entries
        let file = try generatedN02("generated-4000.csv", rows: 4000)

        let importer = Process()
        importer.executableURL = URL(fileURLWithPath: builtEki!)
        importer.arguments = ["import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv"), file]
        importer.standardOutput = FileHandle.nullDevice
        let importErrors = Pipe()
        importer.standardError = importErrors
        try importer.run()
        var runs: [EkiRun] = []
        while runs.count < 200 && (importer.isRunning || runs.count < 3) {
            runs.append(try ekiProcess(["bbox", "--db", db, Self.viewport, "--format", "csv"]))
        }
        let importErr = String(decoding: importErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        importer.waitUntilExit()
        #expect(importer.terminationStatus == 0, "\(importErr)")
        #expect(runs.map(\.status) == Array(repeating: 0, count: runs.count), "\(runs.map(\.err).filter { !$0.isEmpty }.prefix(3))")
        #expect(runs.filter { $0.out != before.out }.count == 0)
        let after = try ekiProcess(["bbox", "--db", db, "140.99,42.99,141.015,43.005", "--format", "csv"])
        #expect(after.out.split(separator: "\r\n").count == 1 + 2)       // 生成駅0 and 生成駅1 in that box
    }

    @Test func secondWriterSaysAnotherImportIsRunning() throws {
        let db = path("busy.gpkg")
        #expect(eki("import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv")).status == 0)
        let file = try generatedN02("generated-3.csv", rows: 3)
        let holder = try Database(path: db)
        try holder.execute("BEGIN IMMEDIATE")
        let r = eki("import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv"), file)
        try holder.execute("ROLLBACK")
        #expect(r.status == 1)
        #expect(r.err == "eki import: another import is running on \(db): waited 5 s for it to finish; nothing was written, run this again when it has\n")
        // Once the other writer is done, the same command works.
        #expect(eki("import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv"), file).status == 0)
    }
}

/// A database left by a writer that stopped mid-way: the next command of any kind works.
@Suite(.serialized) struct InterruptedWriteTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// The files a writer killed after its commit leaves: the database and a -wal file that
    /// holds the commit, no -shm (a copy taken while the writer still had them open).
    @Test func readOnlyCommandsAfterAnInterruptedWrite() throws {
        let db = path("left.gpkg")
        #expect(eki("import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv")).status == 0)
        let writer = try Database(path: db)
        try writer.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.execute("DELETE FROM stations WHERE name = '東京'")
        let copy = path("copy.gpkg")
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: db + suffix, toPath: copy + suffix) }
        let walSize = try FileManager.default.attributesOfItem(atPath: copy + "-wal")[.size] as? Int ?? 0
        #expect(walSize > 0)
        let r = eki("bbox", "--db", copy, "139.755,35.672,139.775,35.690", "--format", "csv")
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err == "")
        #expect(!r.out.contains("東京,"))
        #expect(r.out.split(separator: "\r\n").count == 15)        // header and the 18 entries less 東京's 4
        #expect(eki("info", "--db", copy).status == 0)
        _ = writer
    }

    /// Without the right to write beside the file, the message says what to run, and never to
    /// delete a file.
    @Test func withoutWriteAccessItSaysWhatToRun() {
        let text = StoreError.interruptedWrite("/data/stations.gpkg").description
        #expect(text == "/data/stations.gpkg was left mid-write by a command that stopped; its last changes are recovered by the next command that may write /data/stations.gpkg and its folder: run `eki info --db /data/stations.gpkg` once as that user")
        #expect(!text.contains("delete") && !text.contains("journal"))
    }
}
