import CSQLite

/// The `SQL` entry points. They are labelled `sql:` so that a plain literal still goes to the
/// `String` versions: unlabelled, `db.execute("… \(x)")` would pick `String` (the default
/// literal type) and splice `x` into the text.
extension Database {
    /// A new prepared statement for `sql.text` with `sql.arguments` bound.
    /// - Throws: `SQLiteError` when the text does not prepare, or its parameter count differs
    ///   from the number of arguments (`.range`).
    public func prepare(sql: SQL) throws -> Statement {
        let s = try prepare(sql.text)
        try s.bind(arguments: sql.arguments)
        return s
    }

    /// The cached statement for `sql.text` (the cache key; see `cached(_:)`), reset, with
    /// `sql.arguments` bound afresh.
    /// - Throws: as `prepare(sql:)`.
    public func cached(sql: SQL) throws -> Statement {
        let s = try cached(sql.text)
        try s.bind(arguments: sql.arguments)
        return s
    }

    /// Runs every statement in `sql` to completion; each takes as many arguments, in order, as
    /// it has parameters. Without arguments this is `execute(sql.text)`.
    /// - Throws: `SQLiteError` when a statement fails, or the arguments do not match the
    ///   parameters (`.range`).
    public func execute(sql: SQL) throws {
        if sql.arguments.isEmpty { return try execute(sql.text) }
        var remaining = sql.arguments[...]
        try sql.text.withCString { start in
            var next: UnsafePointer<CChar>? = start
            while let p = next, p.pointee != 0 {
                var stmt: OpaquePointer?
                let rc = sqlite3_prepare_v2(handle, p, -1, &stmt, &next)
                let text = next.map { String(decoding: UnsafeRawBufferPointer(start: p, count: $0 - p), as: UTF8.self) } ?? String(cString: p)
                guard rc == SQLITE_OK else {
                    sqlite3_finalize(stmt)
                    throw SQLiteError(code: rc, message: lastErrorMessage, sql: text)
                }
                guard let stmt else { continue }      // only whitespace or a comment
                let s = Statement(db: self, handle: stmt, sql: text)
                let n = min(s.parameterCount, remaining.count)
                try s.bind(arguments: Array(remaining.prefix(n)))
                remaining = remaining.dropFirst(n)
                while try s.step() {}
            }
        }
        if !remaining.isEmpty {
            throw SQLiteError(code: SQLiteError.ResultCode.range.rawValue,
                              message: "\(remaining.count) of \(sql.arguments.count) arguments left over", sql: sql.text)
        }
    }

    /// The first column of the first row of `sql`, as Int64 (nil when no row or NULL).
    /// - Throws: as `prepare(sql:)`, and when the statement fails.
    public func scalarInt(sql: SQL) throws -> Int64? {
        let s = try prepare(sql: sql)
        guard try s.step() else { return nil }
        return s.isNull(0) ? nil : s.int64(0)
    }
}

extension Statement {
    /// The number of parameters in the text (the largest `?NNN` index).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Binds `arguments` to parameters 1…n after clearing earlier bindings (does not reset: a
    /// statement that was stepped needs `reset()` first, as `cached` does).
    /// - Throws: `SQLiteError` (`.range`) when their count differs from `parameterCount`.
    public func bind(arguments: SQL.Arguments) throws {
        guard arguments.count == parameterCount else {
            throw SQLiteError(code: SQLiteError.ResultCode.range.rawValue,
                              message: "\(arguments.count) arguments for \(parameterCount) parameters", sql: sql)
        }
        sqlite3_clear_bindings(handle)
        try bind(arguments)
    }
}
