import EkiAccounts
import EkiKit
import EkiPostgres
import EkiSQLite
import EkiTestSupport
import Foundation
import Testing

/// The accounts store's tests run on a real PostgreSQL server (`TestPostgres`), each in a new
/// database, and what only PostgreSQL has: the versioned schema, the shared change sequence,
/// two connections as two servers, a server restart.
@Suite(.needsPostgres) struct AccountStorePostgresTests {
    let pg = AccountStoreTests(engine: .postgresql)
    let visits = AccountVisitsTests(engine: .postgresql)
    let cheap = PasswordHasher(operations: 1, memory: 64 * 1024)

    @Test func usersAndTheirPasswords() throws { try pg.usersAndTheirPasswords() }
    @Test func shortAndHugePasswordsAreRefusedWithoutSayingThem() throws { try pg.shortAndHugePasswordsAreRefusedWithoutSayingThem() }
    @Test func anOldHashIsReplacedAtTheNextLogin() throws { try pg.anOldHashIsReplacedAtTheNextLogin() }
    @Test func sessionsAreStoredAsDigestsAndExpireWhenIdle() throws { try pg.sessionsAreStoredAsDigestsAndExpireWhenIdle() }
    @Test func sessionsEndOnLogoutRevokeAndNewPassword() throws { try pg.sessionsEndOnLogoutRevokeAndNewPassword() }
    @Test func tokensNameTheirAccount() throws { try pg.tokensNameTheirAccount() }
    @Test func removingAUserRemovesEverythingOfTheirs() throws { try pg.removingAUserRemovesEverythingOfTheirs() }
    @Test func visitsAreTheirOwnersAndGoWithTheAccount() throws { try visits.visitsAreTheirOwnersAndGoWithTheAccount() }
    @Test(arguments: ["", "-alice", "アリス", String(repeating: "a", count: 33)])
    func badNamesAreRefused(name: String) throws { try pg.badNamesAreRefused(name: name) }

    @Test func theSchemaIsMadeOnceAndVersioned() throws {
        let url = try TestPostgres.shared().database()
        // No eki schema: a reader or a non-creating writer says so and how to make it.
        let shown = PostgresURL.redacted(url)
        #expect(throws: AccountError.noSchema(shown)) { try AccountStore(path: url, create: false) }
        // Two stores opening a new database at once make the schema once.
        let group = DispatchGroup()
        nonisolated(unsafe) var failures: [String] = []
        let lock = NSLock()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                do { _ = try AccountStore(path: url, hasher: PasswordHasher(operations: 1, memory: 64 * 1024)) }
                catch { lock.withLock { failures.append("\(error)") } }
            }
        }
        group.wait()
        #expect(failures == [])
        let s = try AccountStore(path: url, create: false, readOnly: true, hasher: cheap)
        #expect(try s.db.scalarInt("SELECT version FROM eki_schema") == Int64(AccountStore.postgresSchemaVersion))
        #expect(try s.db.scalarInt("SELECT count(*) FROM eki_schema") == 1)
        #expect(s.isReadOnly && s.db.engine == .postgresql)
        // A reader cannot write, even by mistake.
        #expect(throws: PostgresError.self) { try s.addUser(name: "alice", password: "correct horse") }
        // A schema from a later eki is refused, not guessed at.
        let w = try PostgresConnection(url: url)
        try w.execute("UPDATE eki_schema SET version = 99")
        #expect(throws: AccountError.schemaTooNew(shown, 99, AccountStore.postgresSchemaVersion)) { try AccountStore(path: url) }
    }

    @Test func twoConnectionsAreTwoServersOnOneStore() throws {
        let url = try TestPostgres.shared().database()
        let a = try AccountStore(path: url, hasher: cheap), b = try AccountStore(path: url, create: false, hasher: cheap)
        let alice = try a.addUser(name: "alice", password: "correct horse")
        // A session made through A is valid through B; a visit recorded through B is seen by A.
        let session = try a.createSession(for: alice.id)
        #expect(try b.session(id: session.id)?.user == alice)
        let v = try b.visits(of: alice.id).add(Visit(stationKey: "jr-east/c/小田原", date: try VisitDate(parsing: "2019-08-13")))
        #expect(try a.visits(of: alice.id).visit(uid: v.uid)?.stationKey == "jr-east/c/小田原")
        // The same visit through A is a duplicate, not a second row.
        #expect {
            try a.visits(of: alice.id).add(Visit(stationKey: "jr-east/c/小田原", date: try VisitDate(parsing: "2019-08-13")))
        } throws: { error in
            if case VisitLogError.duplicate(let held) = error { return held.uid == v.uid }
            return false
        }
        try b.endSession(id: session.id)
        #expect(try a.session(id: session.id) == nil)
    }

    @Test func concurrentSyncsThroughTwoServersConvergeAndNumbersAreUnique() throws {
        let url = try TestPostgres.shared().database()
        let setup = try AccountStore(path: url, hasher: cheap)
        let alice = try setup.addUser(name: "alice", password: "correct horse")
        let rounds = 40
        let group = DispatchGroup()
        let lock = NSLock()
        nonisolated(unsafe) var failures: [String] = []
        nonisolated(unsafe) var cursors: [[Int64]] = [[], []]
        for server in 0..<2 {
            DispatchQueue.global().async(group: group) {
                do {
                    let store = try AccountStore(path: url, create: false, hasher: PasswordHasher(operations: 1, memory: 64 * 1024))
                    let log = try store.visits(of: alice.id)
                    for i in 0..<rounds {
                        let c = VisitChange(uid: "u-\(server)-\(i)", stationKey: "s/\(server)/\(i)", date: try VisitDate(parsing: "2020"),
                                            updatedAt: VisitTimestamp(milliseconds: 1_700_000_000_000 + Int64(i)))
                        let r = try log.sync([c], since: nil)
                        lock.withLock { cursors[server].append(r.cursor) }
                    }
                } catch { lock.withLock { failures.append("\(error)") } }
            }
        }
        group.wait()
        #expect(failures == [])
        let log = try setup.visits(of: alice.id)
        #expect(try log.count() == 2 * rounds)
        // Every change has its own number, and each server's cursors only grow.
        #expect(try setup.db.scalarInt("SELECT count(DISTINCT seq) FROM visits") == Int64(2 * rounds))
        for c in cursors { #expect(c == c.sorted() && c.count == rounds) }
        // A device that synced at any cursor gets exactly the changes after it.
        let mid = cursors[0][rounds / 2]
        let after = try log.changes(since: mid).map(\.uid)
        let expected = try log.visits().filter { try setup.db.scalarInt("SELECT seq FROM visits WHERE uid = ?", [.text($0.uid)])! > mid }.map(\.uid)
        #expect(Set(after) == Set(expected) && !after.isEmpty)
    }

    @Test func aServerRestartCostsOnlyTheStatementInFlight() throws {
        let own = try TestPostgres.start()
        defer { own.stop() }
        let url = try own.database()
        let s = try AccountStore(path: url, hasher: cheap)
        let alice = try s.addUser(name: "alice", password: "correct horse")
        let log = try s.visits(of: alice.id)
        try log.add(Visit(stationKey: "jr-east/c/小田原"))
        try own.restart()
        // The connection is gone; the next statement connects again (nothing is lost).
        #expect(try log.count() == 1)
        try log.add(Visit(stationKey: "odakyu/c/小田原"))
        #expect(try s.users().map { "\($0.user.name):\($0.visits)" } == ["alice:2"])
        // Every other statement, prepared again on the new connection, keeps working beside
        // the ones prepared before it (each keeps a name of its own).
        let session = try s.createSession(for: alice.id)
        #expect(try s.session(id: session.id)?.user == alice)
        let token = try s.createToken(for: alice.id)
        #expect(try s.user(forToken: token) == alice)
        #expect(try s.authenticate(name: "alice", password: "correct horse") == alice)
        #expect(try log.visits().map(\.stationKey).sorted() == ["jr-east/c/小田原", "odakyu/c/小田原"])
        #expect(try log.changes(since: 0).count == 2)
        try log.setCountingRules(.all)
        #expect(try log.countingRules() == .all)
        #expect(try s.sessions(of: alice.id).count == 1 && s.endSessions(of: alice.id) == 1)
        #expect(try log.count() == 2)
    }

    @Test func cachedStatementsArePreparedAgainUnderTheirOwnNamesAfterAReconnect() throws {
        let own = try TestPostgres.start()
        defer { own.stop() }
        let c = try PostgresConnection(url: try own.database())
        let a = "SELECT 1", b = "SELECT 2", third = "SELECT 3"
        #expect(try c.scalarCached(a) == 1 && c.scalarCached(b) == 2)
        try own.restart()
        // b reconnects; then a, and a statement new on this connection, are prepared beside it.
        #expect(try c.scalarCached(b) == 2)
        #expect(try c.scalarCached(a) == 1)
        #expect(try c.scalarCached(third) == 3)
        #expect(try c.scalarCached(b) == 2)
    }

    @Test func photosKeepTheirBytes() throws {
        let s = try AccountStore(path: try TestPostgres.shared().database(), hasher: cheap)
        let alice = try s.addUser(name: "alice", password: "correct horse")
        let log = try s.visits(of: alice.id)
        let v = try log.add(Visit(stationKey: "jr-east/c/小田原"))
        let jpeg: [UInt8] = [0xFF, 0xD8, 0x00, 0x5C, 0x78, 0x27, 0xFF, 0xD9] + (0..<300).map { UInt8($0 % 256) }
        let thumb: [UInt8] = [0xFF, 0xD8, 0x01, 0x00, 0xFF, 0xD9]
        let stored = try log.addPhotos([NewVisitPhoto(jpeg: jpeg, width: 4, height: 3, thumbnail: thumb, thumbnailWidth: 2, thumbnailHeight: 1)], to: v.id)
        #expect(stored.map(\.bytes) == [jpeg.count])
        let archived = try log.archivedPhotos()
        #expect(archived.map(\.photo.jpeg) == [jpeg] && archived.map(\.photo.thumbnail) == [thumb])
        // Removing the visit removes its photos (the trigger).
        try log.remove(ids: [v.id])
        #expect(try log.archivedPhotos().isEmpty)
    }
}

private extension PostgresConnection {
    /// The integer `sql` answers, through the connection's cache of prepared statements.
    func scalarCached(_ sql: String) throws -> Int64? {
        let s = try cached(sql)
        defer { s.reset() }
        return try s.step() ? s.int64(0) : nil
    }
}
