/// An SQLite error with the statement that caused it (never the bound values).
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// SQLite result code, extended (e.g. 2067 = SQLITE_CONSTRAINT_UNIQUE); `primary` names its family.
    public var code: Int32
    public var message: String
    public var sql: String?

    public var description: String {
        sql.map { "SQLite error \(code): \(message) (in: \($0))" } ?? "SQLite error \(code): \(message)"
    }

    /// The primary result code (`code & 0xFF`): `.constraint` for any SQLITE_CONSTRAINT_*.
    public var primary: ResultCode { ResultCode(rawValue: code & 0xFF) }

    /// True when the primary result code is `c` (`e.isPrimary(.busy)`).
    public func isPrimary(_ c: ResultCode) -> Bool { primary == c }

    /// A primary SQLite result code (https://sqlite.org/rescode.html); compare with `primary`.
    public struct ResultCode: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let error = ResultCode(rawValue: 1)
        public static let `internal` = ResultCode(rawValue: 2)
        public static let perm = ResultCode(rawValue: 3)
        public static let abort = ResultCode(rawValue: 4)
        /// Another connection holds the lock, past the busy timeout.
        public static let busy = ResultCode(rawValue: 5)
        public static let locked = ResultCode(rawValue: 6)
        public static let noMem = ResultCode(rawValue: 7)
        public static let readOnly = ResultCode(rawValue: 8)
        public static let interrupt = ResultCode(rawValue: 9)
        public static let ioErr = ResultCode(rawValue: 10)
        public static let corrupt = ResultCode(rawValue: 11)
        public static let notFound = ResultCode(rawValue: 12)
        /// The disk (or the database's size limit) is full.
        public static let full = ResultCode(rawValue: 13)
        public static let cantOpen = ResultCode(rawValue: 14)
        public static let `protocol` = ResultCode(rawValue: 15)
        public static let schema = ResultCode(rawValue: 17)
        public static let tooBig = ResultCode(rawValue: 18)
        /// UNIQUE, NOT NULL, CHECK, FOREIGN KEY, PRIMARY KEY violations.
        public static let constraint = ResultCode(rawValue: 19)
        public static let mismatch = ResultCode(rawValue: 20)
        public static let misuse = ResultCode(rawValue: 21)
        public static let noLFS = ResultCode(rawValue: 22)
        public static let auth = ResultCode(rawValue: 23)
        /// A parameter index out of range (also: arguments that do not match the parameters).
        public static let range = ResultCode(rawValue: 25)
        /// The file is not an SQLite database (or is encrypted).
        public static let notADatabase = ResultCode(rawValue: 26)
    }
}
