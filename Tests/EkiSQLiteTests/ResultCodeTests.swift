import EkiSQLite
import Foundation
import Testing

@Suite("SQLiteError.ResultCode: named primary codes from real failures")
struct ResultCodeTests {
    /// A fresh folder, removed after `body`.
    func inTemporaryFolder(_ body: (String) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("eki-sqlite-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try body(dir)
    }

    @Test("a text file opened as a database gives .notADatabase")
    func textFileIsNotADatabase() throws {
        try inTemporaryFolder { dir in
            let path = dir + "/stations.csv"
            try String(repeating: "station_cd,station_name,lon,lat\n1130101,東京,139.766103,35.681391\n", count: 20)
                .write(toFile: path, atomically: true, encoding: .utf8)
            let db = try Database(path: path)
            let e = #expect(throws: SQLiteError.self) { try db.scalarInt("SELECT count(*) FROM sqlite_master") }
            #expect(e?.primary == .notADatabase)
            #expect(e?.isPrimary(.notADatabase) == true)
        }
    }

    @Test("a UNIQUE violation gives .constraint (extended code SQLITE_CONSTRAINT_UNIQUE)")
    func uniqueViolationIsConstraint() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(name TEXT UNIQUE)")
        try db.execute(sql: "INSERT INTO t VALUES (\("東京"))")
        let e = #expect(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO t VALUES (\("東京"))") }
        #expect(e?.primary == .constraint)
        #expect(e?.code == 2067)
        #expect(e?.isPrimary(.busy) == false)
    }

    @Test("a second writer with busy timeout 0 gives .busy, and gets the lock once the first commits")
    func secondWriterIsBusy() throws {
        try inTemporaryFolder { dir in
            let path = dir + "/eki.sqlite"
            let first = try Database(path: path), second = try Database(path: path)
            try first.execute("CREATE TABLE t(x)")
            second.busyTimeout = 0
            try first.execute("BEGIN IMMEDIATE")
            let e = #expect(throws: SQLiteError.self) { try second.execute("BEGIN IMMEDIATE") }
            #expect(e?.primary == .busy)
            try first.execute("COMMIT")
            try second.execute("BEGIN IMMEDIATE")
            try second.execute("COMMIT")
        }
    }
}
