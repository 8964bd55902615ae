import CPostgres
import EkiSQLite

#if canImport(Glibc)
import Glibc
#endif

/// A statement of a `PostgresConnection`: bound values, sent on the first `step()`, whose rows
/// are then read one by one from the whole result. A cached statement is prepared on the
/// server once per connection (`PQprepare`).
final class PostgresStatement: SQLStatement {
    unowned let connection: PostgresConnection
    /// The text as sent (`$n` placeholders).
    let sql: String
    /// The server-side name of a cached statement, nil for a one-off one.
    let name: String?
    private var preparedIn: Int?
    private var values: [SQLValue] = []
    private var result: OpaquePointer?
    private var rows: Int32 = 0
    private var row: Int32 = -1

    init(connection: PostgresConnection, sql: String, name: String?) {
        self.connection = connection
        self.sql = PostgresConnection.numberedParameters(sql)
        self.name = name
    }

    deinit { PQclear(result) }

    func reset() {
        PQclear(result)
        result = nil
        values = []
        row = -1
        rows = 0
    }

    func bind(_ values: [SQLValue]) throws {
        self.values += values
    }

    @discardableResult
    func step() throws -> Bool {
        if result == nil {
            if connection.inTransaction { try send() } else { try connection.retryingOnLostConnection { try send() } }
        }
        row += 1
        return row < rows
    }

    /// Sends the statement with its values: integers, reals and text as text, blobs as binary.
    private func send() throws {
        let (conn, generation) = connection.handle
        if let name, preparedIn != generation {
            let r = PQprepare(conn, name, sql, 0, nil)
            defer { PQclear(r) }
            guard r.map(PQresultStatus) == PGRES_COMMAND_OK else { throw connection.error(r, sql: sql) }
            preparedIn = generation
        }
        var buffers: [UnsafeMutableRawPointer?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { for b in buffers { free(b) } }
        for v in values {
            switch v {
            case .null: buffers.append(nil); lengths.append(0); formats.append(0)
            case .int(let x): buffers.append(Self.cString(String(x))); lengths.append(0); formats.append(0)
            case .double(let x): buffers.append(Self.cString("\(x)")); lengths.append(0); formats.append(0)
            case .text(let s): buffers.append(Self.cString(s)); lengths.append(0); formats.append(0)
            case .blob(let b):
                let p = malloc(max(b.count, 1))!
                b.withUnsafeBytes { if let base = $0.baseAddress { p.copyMemory(from: base, byteCount: b.count) } }
                buffers.append(p); lengths.append(Int32(b.count)); formats.append(1)
            }
        }
        let pointers = buffers.map { $0.map { UnsafePointer($0.assumingMemoryBound(to: CChar.self)) } }
        let r: OpaquePointer? = pointers.withUnsafeBufferPointer { vp in
            lengths.withUnsafeBufferPointer { lp in
                formats.withUnsafeBufferPointer { fp in
                    if let name {
                        return PQexecPrepared(conn, name, Int32(values.count), vp.baseAddress, lp.baseAddress, fp.baseAddress, 0)
                    }
                    return PQexecParams(conn, sql, Int32(values.count), nil, vp.baseAddress, lp.baseAddress, fp.baseAddress, 0)
                }
            }
        }
        let status = r.map(PQresultStatus)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            let e = connection.error(r, sql: sql)
            PQclear(r)
            // A statement prepared on a connection since lost must be prepared again.
            if e.isConnectionLost { preparedIn = nil }
            throw e
        }
        result = r
        rows = status == PGRES_TUPLES_OK ? PQntuples(r) : 0
        row = -1
    }

    private static func cString(_ s: String) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(strdup(s)) }

    private func value(_ col: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let result, row >= 0, row < rows, col < PQnfields(result), PQgetisnull(result, row, col) == 0,
              let p = PQgetvalue(result, row, col) else { return nil }
        return UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: Int(PQgetlength(result, row, col)))
    }

    func isNull(_ col: Int32) -> Bool { value(col) == nil }

    /// Integers; a boolean is 1 or 0, a numeric (`sum` of bigints) its integral value.
    func int64(_ col: Int32) -> Int64 {
        let t = text(col)
        if let x = Int64(t) { return x }
        if t == "t" { return 1 }
        return Double(t).map { Int64($0) } ?? 0
    }

    func double(_ col: Int32) -> Double { Double(text(col)) ?? 0 }

    func text(_ col: Int32) -> String {
        guard let v = value(col) else { return "" }
        return String(decoding: v, as: UTF8.self)
    }

    /// A `bytea` column's bytes (`PQunescapeBytea` reads the server's hex output).
    func blob(_ col: Int32) -> [UInt8] {
        guard let result, value(col) != nil, let p = PQgetvalue(result, row, col) else { return [] }
        var n = 0
        guard let raw = p.withMemoryRebound(to: UInt8.self, capacity: 1, { PQunescapeBytea($0, &n) }) else { return [] }
        defer { PQfreemem(raw) }
        return Array(UnsafeBufferPointer(start: raw, count: n))
    }
}
