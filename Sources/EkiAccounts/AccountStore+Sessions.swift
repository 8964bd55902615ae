import EkiSQLite
import Foundation

/// Login sessions and API tokens. Both are `SecretToken`s (256 random bits) handed out once and
/// stored only as their digest; the session also holds the CSRF token the page sends back with
/// every write.
extension AccountStore {
    /// A session ends when it has not been used for this long: 30 days, so a phone that opens
    /// the map now and then stays logged in, and a lost or forgotten device falls out within a
    /// month (`eki user sessions NAME --revoke` ends them at once).
    public static let sessionIdleLimit: TimeInterval = 30 * 24 * 3600

    /// `last_seen` is written at most this often per session (seconds), not on every request.
    static let touchInterval: Int64 = 60

    /// A new session for `userID`: its id (for the cookie, never stored) and its CSRF token.
    /// Sessions idle past `sessionIdleLimit` are removed on the way.
    /// - Throws: `SodiumError`, `SQLiteError`.
    public func createSession(for userID: Int64, now: Date = Date()) throws -> NewSession {
        let id = try SecretToken.make(), csrf = try SecretToken.make()
        let digest = try SecretToken.digest(id)
        let t = Self.seconds(now)
        try db.transaction {
            try db.prepare(sql: "DELETE FROM sessions WHERE last_seen < \(t - Int64(Self.sessionIdleLimit))").runBound()
            try db.prepare(sql: """
                INSERT INTO sessions (digest, user_id, csrf, created_at, last_seen) VALUES (\(digest), \(userID), \(csrf), \(t), \(t))
                """).runBound()
        }
        return NewSession(id: id, csrf: csrf, userID: userID)
    }

    /// The live session whose id is `id`, with its account; nil for an unknown id, a session
    /// idle past `sessionIdleLimit` (removed then) or one whose account is gone. Notes the use
    /// (`last_seen`, at most once a minute).
    /// - Throws: `SQLiteError`.
    public func session(id: String, now: Date = Date()) throws -> Session? {
        guard let digest = try? SecretToken.digest(id) else { return nil }
        let s = try db.cached(sql: """
            SELECT s.csrf, s.created_at, s.last_seen, u.id, u.name, u.created_at
            FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.digest = \(digest)
            """)
        guard try s.step() else { s.reset(); return nil }
        var session = Session(digest: digest, user: User(id: s.int64(3), name: s.text(4), createdAt: Self.date(s.int64(5))),
                              csrf: s.text(0), createdAt: Self.date(s.int64(1)), lastSeen: Self.date(s.int64(2)))
        s.reset()
        let t = Self.seconds(now), seen = Self.seconds(session.lastSeen)
        if t - seen > Int64(Self.sessionIdleLimit) {
            if !isReadOnly { try endSession(digest: digest) }
            return nil
        }
        if t - seen >= Self.touchInterval && !isReadOnly {
            try db.prepare(sql: "UPDATE sessions SET last_seen = \(t) WHERE digest = \(digest)").runBound()
            session.lastSeen = Self.date(t)
        }
        return session
    }

    /// Ends the session whose id is `id` (logout). Nothing happens for an unknown id.
    public func endSession(id: String) throws {
        guard let digest = try? SecretToken.digest(id) else { return }
        try endSession(digest: digest)
    }

    func endSession(digest: String) throws {
        try db.prepare(sql: "DELETE FROM sessions WHERE digest = \(digest)").runBound()
    }

    /// The sessions of `userID`, last used first.
    public func sessions(of userID: Int64) throws -> [Session] {
        let s = try db.prepare(sql: """
            SELECT s.digest, s.csrf, s.created_at, s.last_seen, u.id, u.name, u.created_at
            FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.user_id = \(userID) ORDER BY s.last_seen DESC, s.created_at DESC
            """)
        var out: [Session] = []
        while try s.step() {
            out.append(Session(digest: s.text(0), user: User(id: s.int64(4), name: s.text(5), createdAt: Self.date(s.int64(6))),
                               csrf: s.text(1), createdAt: Self.date(s.int64(2)), lastSeen: Self.date(s.int64(3))))
        }
        return out
    }

    /// Ends every session of `userID`; how many there were.
    @discardableResult
    public func endSessions(of userID: Int64) throws -> Int {
        try db.transaction { try deleteSessions(of: userID) }
    }

    func deleteSessions(of userID: Int64) throws -> Int {
        let n = Int(try db.scalarInt(sql: "SELECT count(*) FROM sessions WHERE user_id = \(userID)") ?? 0)
        try db.prepare(sql: "DELETE FROM sessions WHERE user_id = \(userID)").runBound()
        return n
    }

    // MARK: API tokens

    /// A new API token for `userID` (`Authorization: Bearer TOKEN`), shown once: only its digest
    /// is kept.
    /// - Throws: `SodiumError`, `SQLiteError`.
    public func createToken(for userID: Int64, now: Date = Date()) throws -> String {
        let token = try SecretToken.make()
        let digest = try SecretToken.digest(token)
        try db.transaction {
            try db.prepare(sql: "INSERT INTO api_tokens (digest, user_id, created_at) VALUES (\(digest), \(userID), \(Self.seconds(now)))").runBound()
        }
        return token
    }

    /// The account an API token belongs to, or nil.
    public func user(forToken token: String) throws -> User? {
        guard let digest = try? SecretToken.digest(token) else { return nil }
        let s = try db.cached(sql: """
            SELECT u.id, u.name, u.created_at FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.digest = \(digest)
            """)
        defer { s.reset() }
        return try s.step() ? User(id: s.int64(0), name: s.text(1), createdAt: Self.date(s.int64(2))) : nil
    }

    /// Revokes every API token of `userID`; how many there were.
    @discardableResult
    public func revokeTokens(of userID: Int64) throws -> Int {
        try db.transaction {
            let n = Int(try db.scalarInt(sql: "SELECT count(*) FROM api_tokens WHERE user_id = \(userID)") ?? 0)
            try db.prepare(sql: "DELETE FROM api_tokens WHERE user_id = \(userID)").runBound()
            return n
        }
    }
}

/// A session just made: `id` goes into the cookie and is never stored; `csrf` goes to the page.
public struct NewSession: Sendable {
    public var id: String
    public var csrf: String
    public var userID: Int64
}

/// A live session as the store keeps it.
public struct Session: Sendable, Equatable {
    /// The digest of its id (what the file holds; `eki user sessions` shows its start).
    public var digest: String
    public var user: User
    /// The token every write of this session must send in `X-CSRF-Token`.
    public var csrf: String
    public var createdAt: Date
    public var lastSeen: Date
}
