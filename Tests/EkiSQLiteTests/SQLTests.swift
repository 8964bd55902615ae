import EkiSQLite
import Foundation
import Testing

@Suite("SQL builder: values bound, fragments composed")
struct SQLTests {
    func rows(_ s: Statement) throws -> [Int64] {
        var out: [Int64] = []
        while try s.step() { out.append(s.int64(0)) }
        return out
    }

    @Test("hostile text is bound, not spliced: the table survives and each row holds the exact text")
    func hostileTextIsBound() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")
        let hostile = ["Robert'); DROP TABLE t; --", "'; DROP TABLE t", "it's ? and ?1 and :x", "\"; DELETE FROM t; \"", "nul\u{0}inside"]
        for h in hostile {
            let insert: SQL = "INSERT INTO t(name) VALUES (\(h))"
            #expect(insert.text == "INSERT INTO t(name) VALUES (?)")
            #expect(insert.arguments == [.text(h)])
            try db.execute(sql: insert)
        }
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 't'") == 1)
        let s = try db.prepare("SELECT name FROM t ORDER BY id")
        var names: [String] = []
        while try s.step() { names.append(s.text(0)) }
        #expect(names == hostile)
        #expect(try db.scalarInt(sql: "SELECT id FROM t WHERE name = \(hostile[1])") == 2)
    }

    @Test("nil binds NULL, whatever its type")
    func nilIsNull() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(a, b, c, d)")
        let text: String? = nil, int: Int? = nil, real: Double? = nil, blob: Data? = nil
        try db.execute(sql: "INSERT INTO t VALUES (\(text), \(int), \(real), \(blob))")
        let s = try db.prepare("SELECT typeof(a) || typeof(b) || typeof(c) || typeof(d) FROM t")
        #expect(try s.step())
        #expect(s.text(0) == "nullnullnullnull")
    }

    @Test("integers, doubles, booleans and blobs round-trip exactly")
    func valuesRoundTrip() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE v(i, j, k, x, y, b, blob, data)")
        let bytes: [UInt8] = [0, 255, 0, 1, 128, 0]
        let data = Data([0, 0, 7, 0xFE])
        try db.execute(sql: """
            INSERT INTO v VALUES (\(Int64.max), \(Int64.min), \(-1), \(0.1), \(Double.leastNonzeroMagnitude), \(true), \(bytes), \(data))
            """)
        let s = try db.prepare("SELECT i, j, k, x, y, b, blob, data, typeof(x), typeof(blob), typeof(data) FROM v")
        #expect(try s.step())
        #expect(s.int64(0) == Int64.max)
        #expect(s.int64(1) == Int64.min)
        #expect(s.int64(2) == -1)
        #expect(s.double(3) == 0.1)
        #expect(s.double(4) == Double.leastNonzeroMagnitude)
        #expect(s.int64(5) == 1)
        #expect(s.blob(6) == bytes)
        #expect(Data(s.blob(7)) == data)
        #expect([s.text(8), s.text(9), s.text(10)] == ["real", "blob", "blob"])
    }

    @Test("a WHERE joined from three fragments keeps its arguments in order")
    func nestedFragmentsKeepOrder() throws {
        let db = try Database(path: ":memory:")
        try db.execute("""
            CREATE TABLE p(id INTEGER PRIMARY KEY, pref TEXT, lines INTEGER, lat REAL);
            INSERT INTO p VALUES (1, '東京都', 3, 35.6), (2, '東京都', 1, 35.7), (3, '神奈川県', 3, 35.4),
                                 (4, '東京都', 5, 35.5), (5, '東京都', 3, 36.0), (6, '3', 35, 3.0);
            """)
        let conditions: [SQL] = ["pref = \("東京都")", "lines >= \(3)", "lat < \(35.9)"]
        let filter = SQL.joined(conditions, separator: " AND ")
        let query: SQL = "SELECT id FROM p WHERE \(sql: filter) ORDER BY id LIMIT \(10)"
        #expect(query.text == "SELECT id FROM p WHERE pref = ? AND lines >= ? AND lat < ? ORDER BY id LIMIT ?")
        #expect(query.arguments == [.text("東京都"), .int(3), .double(35.9), .int(10)])
        #expect(try rows(db.prepare(sql: query)) == [1, 4])

        // Two levels deep, and `+`: (a OR b) AND c.
        let either: SQL = "(\(sql: conditions[1]) OR id = \(2))"
        let both = "SELECT id FROM p WHERE " + either + " AND \(sql: conditions[0]) ORDER BY id"
        #expect(both.arguments == [.int(3), .int(2), .text("東京都")])
        #expect(try rows(db.prepare(sql: both)) == [1, 2, 4, 5])
        #expect(SQL.joined([], separator: " AND ").text.isEmpty)
    }

    @Test("raw: inserts an identifier verbatim, with no argument")
    func rawIdentifier() throws {
        let db = try Database(path: ":memory:")
        let table = "stations_2024"
        try db.execute(sql: "CREATE TABLE \(raw: table)(id INTEGER)")
        let insert: SQL = "INSERT INTO \(raw: table)(id) VALUES (\(7))"
        #expect(insert.text == "INSERT INTO stations_2024(id) VALUES (?)")
        #expect(insert.arguments == [.int(7)])
        try db.execute(sql: insert)
        #expect(try db.scalarInt(sql: "SELECT id FROM \(raw: table)") == 7)
    }

    @Test("a cached statement re-bound gives each call its own answer; a prepared one can be re-bound")
    func cachedRebound() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'one'), (2, 'two')")
        let first = try db.cached(sql: "SELECT name FROM t WHERE id = \(1)")
        #expect(try first.step())
        #expect(first.text(0) == "one")
        let second = try db.cached(sql: "SELECT name FROM t WHERE id = \(2)")
        #expect(first === second)
        #expect(try second.step())
        #expect(second.text(0) == "two")
        #expect(try db.cached(sql: "SELECT name FROM t WHERE id = \(3)").step() == false)

        let s = try db.prepare(sql: "SELECT name FROM t WHERE id = \(2)")
        #expect(try s.step() && s.text(0) == "two")
        s.reset()
        try s.bind(arguments: [.int(1)])
        #expect(try s.step() && s.text(0) == "one")
    }

    @Test("execute(sql:) runs every statement, each taking its own arguments in order")
    func executeSeveralStatements() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")
        try db.execute(sql: """
            INSERT INTO t VALUES (\(1), \("a")); -- a comment
            INSERT INTO t VALUES (\(2), \("b"));
            UPDATE t SET name = name || \("!") WHERE id = \(2);
            """)
        let s = try db.prepare("SELECT group_concat(id || name, ',') FROM t")
        #expect(try s.step() && s.text(0) == "1a,2b!")
    }

    @Test("arguments that do not match the parameters throw .range")
    func argumentCountChecked() throws {
        let db = try Database(path: ":memory:")
        let missing = #expect(throws: SQLiteError.self) { try db.prepare(sql: SQL(raw: "SELECT ?")) }
        #expect(missing?.primary == .range)
        let s = try db.prepare(sql: "SELECT \(1)")
        let extra = #expect(throws: SQLiteError.self) { try s.bind(arguments: [.int(1), .int(2)]) }
        #expect(extra?.primary == .range)
    }

    @Test("plain String call sites keep the String versions (interpolation splices there)")
    func stringOverloadsUnchanged() throws {
        let db = try Database(path: ":memory:")
        let n = 3
        #expect(try db.scalarInt("SELECT \(n) + 1") == 4)
        #expect(try db.scalarInt("SELECT ?1 * 2", [.int(21)]) == 42)
    }
}
