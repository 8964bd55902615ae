import EkiAccounts
import EkiKit
import EkiSQLite
import EkiTestSupport
import Foundation
import Testing

/// The accounts store: users, password checks and rehashing, sessions and their idle expiry,
/// API tokens, removal, and what the store holds (digests, never the secrets). Run on SQLite
/// here and on PostgreSQL by `AccountStorePostgresTests` (the same tests, `engine` set).
@Suite struct AccountStoreTests {
    let cheap = PasswordHasher(operations: 1, memory: 64 * 1024)
    let engine: SQLEngine

    init() { engine = .sqlite }
    init(engine: SQLEngine) { self.engine = engine }

    func store() throws -> AccountStore { try AccountStore(path: try StoreEngines.newLocation(engine), hasher: cheap) }

    @Test func theFileIsItsOwnKindInWAL() throws {
        let s = try store()
        #expect(try s.db.scalarInt("PRAGMA application_id") == 0x454B_4941)
        let mode = try s.db.prepare("PRAGMA journal_mode")
        #expect(try mode.step() && mode.text(0) == "wal")
        let attributes = try FileManager.default.attributesOfItem(atPath: s.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // A visit log is not an accounts file, and an accounts file is not a visit log.
        let folder = TestPaths.temporaryDirectory()
        let log = folder.appendingPathComponent("visits.sqlite").path
        _ = try VisitLog(path: log)
        #expect(throws: AccountError.notAnAccountsFile(log)) { try AccountStore(path: log) }
        #expect(throws: AccountError.missing(folder.appendingPathComponent("none").path)) {
            try AccountStore(path: folder.appendingPathComponent("none").path, create: false)
        }
    }

    @Test func usersAndTheirPasswords() throws {
        let s = try store()
        let alice = try s.addUser(name: "alice", password: "correct horse")
        #expect(alice.id == 1 && alice.name == "alice")
        #expect(try s.authenticate(name: "alice", password: "correct horse") == alice)
        #expect(try s.authenticate(name: "Alice", password: "correct horse") == alice)   // case does not tell names apart
        #expect(try s.authenticate(name: "alice", password: "correct horsE") == nil)
        #expect(try s.authenticate(name: "nobody", password: "correct horse") == nil)
        #expect(throws: AccountError.nameTaken("ALICE")) { try s.addUser(name: "ALICE", password: "another one") }
        // The file holds an Argon2id hash, not the password.
        let stored = try #require(try s.credentials(named: "alice")).hash
        #expect(stored.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$") && !stored.contains("correct"))
        try s.setPassword(name: "alice", password: "battery staple")
        #expect(try s.authenticate(name: "alice", password: "correct horse") == nil)
        #expect(try s.authenticate(name: "alice", password: "battery staple") == alice)
    }

    @Test(arguments: ["", "-alice", ".x", "a b", "アリス", "a/b", String(repeating: "a", count: 33), "a\u{0}b"])
    func badNamesAreRefused(name: String) throws {
        let s = try store()
        #expect(throws: AccountError.self) { try s.addUser(name: name, password: "long enough") }
        #expect(try s.users().isEmpty)
    }

    @Test func shortAndHugePasswordsAreRefusedWithoutSayingThem() throws {
        let s = try store()
        do {
            try s.addUser(name: "bob", password: "seven77")
            Issue.record("a 7-character password was taken")
        } catch {
            #expect("\(error)" == "password refused: a password has at least 8 characters")
        }
        #expect(throws: AccountError.self) { try s.addUser(name: "bob", password: String(repeating: "x", count: 1025)) }
        // Eight characters of any script are enough.
        #expect(try s.addUser(name: "bob", password: "駅駅駅駅駅駅駅駅").id > 0)
    }

    @Test func anOldHashIsReplacedAtTheNextLogin() throws {
        let path = try StoreEngines.newLocation(engine)
        let old = try AccountStore(path: path, hasher: cheap)
        try old.addUser(name: "carol", password: "old parameters")
        let stronger = PasswordHasher(operations: 2, memory: 128 * 1024)
        let s = try AccountStore(path: path, hasher: stronger)
        #expect(stronger.needsRehash(try #require(try s.credentials(named: "carol")).hash))
        #expect(try s.authenticate(name: "carol", password: "old parameters") != nil)
        let now = try #require(try s.credentials(named: "carol")).hash
        #expect(now.hasPrefix("$argon2id$v=19$m=128,t=2,p=1$") && !stronger.needsRehash(now))
        #expect(try s.authenticate(name: "carol", password: "old parameters") != nil)
    }

    @Test func sessionsAreStoredAsDigestsAndExpireWhenIdle() throws {
        let s = try store()
        let alice = try s.addUser(name: "alice", password: "correct horse")
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let new = try s.createSession(for: alice.id, now: t0)
        #expect(new.id.count == 43 && new.csrf.count == 43 && new.id != new.csrf)
        let found = try #require(try s.session(id: new.id, now: t0.addingTimeInterval(10)))
        let digest = try SecretToken.digest(new.id)
        #expect(found.user == alice && found.csrf == new.csrf && found.digest == digest)
        // Nothing in the file is the session id.
        let rows = try s.db.prepare("SELECT digest || csrf FROM sessions")
        #expect(try rows.step() && !rows.text(0).contains(new.id))
        // Used after 29 days: still there, and last_seen moves on; idle 30 days and a second: gone.
        let later = t0.addingTimeInterval(29 * 24 * 3600)
        #expect(try s.session(id: new.id, now: later)?.lastSeen == later)
        #expect(try s.session(id: new.id, now: later.addingTimeInterval(29 * 24 * 3600)) != nil)
        let idle = later.addingTimeInterval(29 * 24 * 3600 + AccountStore.sessionIdleLimit + 1)
        #expect(try s.session(id: new.id, now: idle) == nil)
        #expect(try s.sessions(of: alice.id).isEmpty)
        #expect(try s.session(id: "forged", now: t0) == nil)
    }

    @Test func sessionsEndOnLogoutRevokeAndNewPassword() throws {
        let s = try store()
        let alice = try s.addUser(name: "alice", password: "correct horse")
        let a = try s.createSession(for: alice.id), b = try s.createSession(for: alice.id)
        try s.endSession(id: a.id)
        #expect(try s.session(id: a.id) == nil && s.session(id: b.id) != nil)
        _ = try s.createSession(for: alice.id)
        #expect(try s.endSessions(of: alice.id) == 2)
        let c = try s.createSession(for: alice.id)
        #expect(try s.setPassword(name: "alice", password: "new password!") == 1)
        #expect(try s.session(id: c.id) == nil)
    }

    @Test func tokensNameTheirAccount() throws {
        let s = try store()
        let alice = try s.addUser(name: "alice", password: "correct horse")
        let bob = try s.addUser(name: "bob", password: "correct horse")
        let t = try s.createToken(for: bob.id)
        let owner = try s.user(forToken: t)
        #expect(t.count == 43 && owner == bob)
        #expect(try s.user(forToken: try SecretToken.digest(t)) == nil)
        #expect(try s.user(forToken: "") == nil)
        #expect(try s.users().map { "\($0.user.name):\($0.tokens)" } == ["alice:0", "bob:1"])
        #expect(try s.revokeTokens(of: bob.id) == 1)
        #expect(try s.user(forToken: t) == nil)
        _ = alice
    }

    @Test func removingAUserRemovesEverythingOfTheirs() throws {
        let s = try store()
        let alice = try s.addUser(name: "alice", password: "correct horse")
        let bob = try s.addUser(name: "bob", password: "correct horse")
        let session = try s.createSession(for: alice.id)
        let token = try s.createToken(for: alice.id)
        _ = try s.createSession(for: bob.id)
        try s.removeUser(name: "alice")
        #expect(try s.user(named: "alice") == nil && s.session(id: session.id) == nil && s.user(forToken: token) == nil)
        #expect(try s.users().map(\.user.name) == ["bob"] && s.users()[0].sessions == 1)
        #expect(throws: AccountError.noSuchUser("alice")) { try s.removeUser(name: "alice") }
        // Ids are never reused: a new alice is someone else.
        #expect(try s.addUser(name: "alice", password: "correct horse").id == 3)
    }

    @Test func theDecoyCostsAVerificationLikeARealHash() throws {
        let decoy = cheap.decoy
        #expect(decoy.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$") && decoy == cheap.decoy)
        #expect(!PasswordHasher.verify("", against: decoy))
    }
}

/// Each account's visits in the accounts store (SQLite here, PostgreSQL in `AccountStorePostgresTests`).
@Suite struct AccountVisitsTests {
    let cheap = PasswordHasher(operations: 1, memory: 64 * 1024)
    let engine: SQLEngine

    init() { engine = .sqlite }
    init(engine: SQLEngine) { self.engine = engine }

    @Test func visitsAreTheirOwnersAndGoWithTheAccount() throws {
        let s = try AccountStore(path: try StoreEngines.newLocation(engine), hasher: cheap)
        let alice = try s.addUser(name: "alice", password: "correct horse")
        let bob = try s.addUser(name: "bob", password: "correct horse")
        let a = try s.visits(of: alice.id), b = try s.visits(of: bob.id)
        let mark0 = try s.visits(of: bob.id).changeMark()
        let v = try a.add(Visit(stationKey: "jr-east/c/小田原", date: try VisitDate(parsing: "2019-08-13")))
        // The same station, date and kind is a visit of each of them, not a duplicate.
        try b.add(Visit(stationKey: "jr-east/c/小田原", date: try VisitDate(parsing: "2019-08-13")))
        #expect(try a.count() == 1 && b.count() == 1)
        #expect(try b.visit(id: v.id) == nil)
        #expect(throws: VisitLogError.self) { try b.remove(ids: [v.id]) }
        #expect(try s.visits(of: bob.id).changeMark() > mark0)
        let bobsMark = try s.visits(of: bob.id).changeMark()
        try a.add(Visit(stationKey: "odakyu/c/小田原"))
        #expect(try s.visits(of: bob.id).changeMark() == bobsMark)   // Alice's visit leaves Bob's mark
        #expect(try s.users().map { "\($0.user.name):\($0.visits)" } == ["alice:2", "bob:1"])
        #expect(try s.removeUser(name: "alice") == 2)
        #expect(try s.visits(of: alice.id).count() == 0 && b.count() == 1)
        #expect(try s.db.scalarInt(sql: "SELECT count(*) FROM visit_tombstones WHERE owner = \(alice.id)") == 0)
    }
}
