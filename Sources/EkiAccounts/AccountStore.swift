import EkiKit
import EkiPostgres
import EkiSQLite
import Foundation

/// The accounts file: people (a name and an Argon2id password hash), their login sessions,
/// their API tokens and their visits, in one SQLite file apart from the station database.
///
/// File: `application_id` 0x454B4941 (`EKIA`), `user_version` 1, WAL; tables `users (id, name,
/// password_hash, created_at)`, `sessions (digest, user_id, csrf, created_at, last_seen)`,
/// `api_tokens (digest, user_id, created_at, last_used)`, and the visit log's tables
/// (`VisitLog.installSchema`, photos included; a file made before photos gains their tables when
/// opened for writing) whose rows carry the user id as their `owner`. Times are whole
/// seconds since 1970 UTC. Session ids and API tokens are stored only as their BLAKE2b-256 digest
/// (`SecretToken.digest`): a copy of the file does not let anyone log in. Every write is one
/// transaction. A new file is made readable by its owner only (mode 0600).
///
/// ```swift
/// let store = try AccountStore(path: "accounts.sqlite")
/// let alice = try store.addUser(name: "alice", password: "correct horse battery")
/// let visits = try store.visits(of: alice.id)          // her VisitLog
/// ```
///
/// The same store lives on PostgreSQL when `path` is a `postgresql://` URL (for several
/// servers sharing it): see `AccountStore+Postgres.swift` for its schema.
///
/// One connection; not thread-safe (the server gives each thread its own store, or a lock).
public final class AccountStore {
    package let db: any SQLConnection
    /// The file path given at open (for PostgreSQL the URL, its password hidden).
    public let path: String
    /// How new passwords are hashed (and when a login rehashes an old hash).
    public var hasher: PasswordHasher
    /// Opened for reading only: lookups do not note a session's use or remove expired ones.
    public let isReadOnly: Bool

    static let applicationID: Int64 = 0x454B_4941

    static let schema = """
    PRAGMA application_id = \(applicationID);
    PRAGMA user_version = 1;
    CREATE TABLE users (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (name <> ''),
      password_hash TEXT NOT NULL,
      created_at INTEGER NOT NULL);
    CREATE TABLE sessions (
      digest TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL,
      csrf TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_seen INTEGER NOT NULL);
    CREATE INDEX sessions_user ON sessions (user_id);
    CREATE TABLE api_tokens (
      digest TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      last_used INTEGER);
    CREATE INDEX api_tokens_user ON api_tokens (user_id);
    """

    /// The accounts file used when `--accounts PATH` is not given: `accounts.sqlite` in the
    /// folder of the visit log at `visitsPath`.
    public static func defaultPath(besideVisitLog visitsPath: String) -> String {
        ((visitsPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("accounts.sqlite")
    }

    /// Whether `location` names a PostgreSQL database (a `postgresql://` or `postgres://` URL).
    public static func isPostgres(_ location: String) -> Bool { PostgresURL.isPostgres(location) }

    /// `location` as it may be shown or logged: a file path as given, a `postgresql://` URL with
    /// its password hidden.
    public static func displayLocation(_ location: String) -> String {
        PostgresURL.isPostgres(location) ? PostgresURL.redacted(location) : location
    }

    /// Opens the accounts file at `path`. With `create`, a missing file (and its folder) is made
    /// and the store is writable; without it the file must exist, and `readOnly` opens it for
    /// reading only (the server's reading threads).
    /// - Throws: `AccountError.missing` (no file, `create` false), `.notAnAccountsFile` (an
    ///   SQLite file that is something else, e.g. a visit log), `SQLiteError`.
    public init(path: String, create: Bool = true, readOnly: Bool = false, hasher: PasswordHasher = .interactive) throws {
        self.hasher = hasher
        isReadOnly = readOnly && !create
        if PostgresURL.isPostgres(path) {
            self.path = PostgresURL.redacted(path)
            db = try Self.openPostgres(url: path, create: create, readOnly: isReadOnly)
            return
        }
        self.path = path
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists {
            guard create else { throw AccountError.missing(path) }
            let dir = (path as NSString).deletingLastPathComponent
            if !dir.isEmpty { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        }
        let file = try Database(path: path, readOnly: isReadOnly)
        db = file
        let tables = try file.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0
        if tables == 0 {
            guard create else { throw AccountError.notAnAccountsFile(path) }
            // Only its owner reads it (SQLite gives the -wal and -shm files the same mode).
            chmod(path, 0o600)
            // WAL: the server's readers never wait for a login or a recorded visit.
            try file.execute("PRAGMA journal_mode = WAL")
            try file.transaction {
                try file.execute(Self.schema)
                try Self.installVisitSchema(in: file)
            }
        } else if try file.scalarInt("PRAGMA application_id") != Self.applicationID {
            throw AccountError.notAnAccountsFile(path)
        } else if !isReadOnly {
            // A file made before photos: their (empty) tables, once (`IF NOT EXISTS`).
            try file.transaction { try VisitLog.installPhotoSchema(in: file) }
        }
    }

    // MARK: Users

    /// A new account. The password is hashed (`hasher`) before the transaction.
    /// - Throws: `AccountError.badName`, `.badPassword`, `.nameTaken`; `SodiumError`; `SQLiteError`.
    @discardableResult
    public func addUser(name: String, password: String, now: Date = Date()) throws -> User {
        try UserName.check(name)
        try PasswordRule.check(password)
        let hash = try hasher.hash(password)
        return try db.transaction {
            if try user(named: name) != nil { throw AccountError.nameTaken(name) }
            let s = try db.prepare(sql: "INSERT INTO users (name, password_hash, created_at) VALUES (\(name), \(hash), \(Self.seconds(now))) RETURNING id")
            guard try s.step() else { throw AccountError.noSuchUser(name) }
            return User(id: s.int64(0), name: name, createdAt: Self.date(Self.seconds(now)))
        }
    }

    /// The account called `name` (compared without regard to ASCII case), or nil.
    public func user(named name: String) throws -> User? {
        let s = try db.cached(sql: "SELECT id, name, created_at FROM users WHERE \(sql: nameIs(name))")
        defer { s.reset() }
        return try s.step() ? User(id: s.int64(0), name: s.text(1), createdAt: Self.date(s.int64(2))) : nil
    }

    /// The account with `id`, or nil.
    public func user(id: Int64) throws -> User? {
        let s = try db.cached(sql: "SELECT id, name, created_at FROM users WHERE id = \(id)")
        defer { s.reset() }
        return try s.step() ? User(id: s.int64(0), name: s.text(1), createdAt: Self.date(s.int64(2))) : nil
    }

    /// The account called `name`, or `AccountError.noSuchUser`.
    public func requireUser(named name: String) throws -> User {
        guard let u = try user(named: name) else { throw AccountError.noSuchUser(name) }
        return u
    }

    /// Every account by name, with how many sessions, API tokens and visits each holds.
    public func users() throws -> [UserSummary] {
        let s = try db.prepare("""
            SELECT u.id, u.name, u.created_at,
                   (SELECT count(*) FROM sessions WHERE user_id = u.id),
                   (SELECT count(*) FROM api_tokens WHERE user_id = u.id)
            FROM users u ORDER BY lower(u.name), u.id
            """)
        var out: [UserSummary] = []
        while try s.step() {
            out.append(UserSummary(user: User(id: s.int64(0), name: s.text(1), createdAt: Self.date(s.int64(2))),
                                   sessions: Int(s.int64(3)), tokens: Int(s.int64(4)), visits: 0))
        }
        for i in out.indices { out[i].visits = try visits(of: out[i].user.id).count() }
        return out
    }

    /// Sets a new password for `name` and ends every session of the account (a changed password
    /// logs out every device); API tokens stay.
    /// - Returns: the number of sessions ended.
    /// - Throws: `AccountError.noSuchUser`, `.badPassword`; `SodiumError`; `SQLiteError`.
    @discardableResult
    public func setPassword(name: String, password: String) throws -> Int {
        try PasswordRule.check(password)
        let hash = try hasher.hash(password)
        return try db.transaction {
            let u = try requireUser(named: name)
            try db.prepare(sql: "UPDATE users SET password_hash = \(hash) WHERE id = \(u.id)").runBound()
            return try deleteSessions(of: u.id)
        }
    }

    /// Removes the account `name` with its sessions, API tokens and visits, in one transaction.
    /// - Returns: how many visits were removed.
    /// - Throws: `AccountError.noSuchUser`; `SQLiteError` (nothing is removed).
    @discardableResult
    public func removeUser(name: String) throws -> Int {
        try db.transaction {
            let u = try requireUser(named: name)
            _ = try deleteSessions(of: u.id)
            try db.prepare(sql: "DELETE FROM api_tokens WHERE user_id = \(u.id)").runBound()
            let removed = try deleteVisits(of: u.id)
            try db.prepare(sql: "DELETE FROM users WHERE id = \(u.id)").runBound()
            return removed
        }
    }

    // MARK: Passwords

    /// The account and its stored hash, for a login to verify (outside any lock: a verification
    /// takes tens of milliseconds); nil for an unknown name.
    public func credentials(named name: String) throws -> (user: User, hash: String)? {
        let s = try db.cached(sql: "SELECT id, name, created_at, password_hash FROM users WHERE \(sql: nameIs(name))")
        defer { s.reset() }
        guard try s.step() else { return nil }
        return (User(id: s.int64(0), name: s.text(1), createdAt: Self.date(s.int64(2))), s.text(3))
    }

    /// Replaces the stored hash of `userID` when it is still `old` (a login found it made with
    /// older parameters and hashed the password again).
    public func replaceHash(of userID: Int64, old: String, new: String) throws {
        try db.transaction {
            try db.prepare(sql: "UPDATE users SET password_hash = \(new) WHERE id = \(userID) AND password_hash = \(old)").runBound()
        }
    }

    /// The account when `password` is its password, else nil; an unknown name costs one
    /// verification too (`PasswordHasher.decoy`), so the time does not tell whether the name
    /// exists. A hash made with other parameters than `hasher` is replaced.
    /// - Throws: `SQLiteError`, `SodiumError` (rehash).
    public func authenticate(name: String, password: String) throws -> User? {
        let found = try credentials(named: name)
        let ok = PasswordHasher.verify(password, against: found?.hash ?? hasher.decoy)
        guard ok, let found else { return nil }
        if hasher.needsRehash(found.hash) { try replaceHash(of: found.user.id, old: found.hash, new: try hasher.hash(password)) }
        return found.user
    }

    /// The account name compared without regard to ASCII case: the column's NOCASE collation
    /// on SQLite (its index), `lower()` on both sides on PostgreSQL (its `users_name` index).
    func nameIs(_ name: String) -> SQL {
        db.engine == .postgresql ? "lower(name) = lower(\(name))" : "name = \(name)"
    }

    // MARK: Time

    static func seconds(_ d: Date) -> Int64 { Int64(d.timeIntervalSince1970.rounded(.down)) }
    static func date(_ s: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(s)) }
}

/// One account.
public struct User: Sendable, Equatable {
    /// The account's id: the `owner` of its visits.
    public var id: Int64
    public var name: String
    public var createdAt: Date
}

/// One account as `eki user list` shows it.
public struct UserSummary: Sendable, Equatable {
    public var user: User
    /// Sessions not yet ended or expired-and-removed.
    public var sessions: Int
    public var tokens: Int
    public var visits: Int
}
