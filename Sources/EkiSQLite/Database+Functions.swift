import CSQLite

/// What a Swift SQL function returns for one call.
public enum SQLFunctionResult: Sendable {
    case double(Double)
    case int(Int64)
    case null
}

extension Database {
    /// Registers a deterministic one-argument SQL function `name` on this connection. `body`
    /// gets the argument's bytes as a blob (nil when the argument is NULL or an empty blob) and
    /// must not keep them. The closure is retained by SQLite until the connection closes or the
    /// function is registered again.
    /// - Throws: `SQLiteError` when SQLite refuses the function.
    public func createFunction(_ name: String, _ body: @escaping (UnsafeRawBufferPointer?) -> SQLFunctionResult) throws {
        final class Box {
            let body: (UnsafeRawBufferPointer?) -> SQLFunctionResult
            init(_ body: @escaping (UnsafeRawBufferPointer?) -> SQLFunctionResult) { self.body = body }
        }
        let call: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { ctx, _, argv in
            let box = Unmanaged<Box>.fromOpaque(sqlite3_user_data(ctx)!).takeUnretainedValue()
            var arg: UnsafeRawBufferPointer?
            if let v = argv?[0], let p = sqlite3_value_blob(v) {
                arg = UnsafeRawBufferPointer(start: p, count: Int(sqlite3_value_bytes(v)))
            }
            switch box.body(arg) {
            case .double(let x): sqlite3_result_double(ctx, x)
            case .int(let x): sqlite3_result_int64(ctx, x)
            case .null: sqlite3_result_null(ctx)
            }
        }
        let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { p in
            if let p { Unmanaged<Box>.fromOpaque(p).release() }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        // On failure SQLite calls `destroy` itself.
        let rc = sqlite3_create_function_v2(handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box, call, nil, nil, destroy)
        if rc != SQLITE_OK { throw SQLiteError(code: rc, message: lastErrorMessage, sql: nil) }
    }
}
