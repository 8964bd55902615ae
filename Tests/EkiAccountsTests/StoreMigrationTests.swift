import EkiAccounts
import EkiKit
import EkiSQLite
import EkiTestSupport
import Foundation
import Testing

/// `AccountStore.migrate(to:)`: an accounts file moved to a real PostgreSQL server keeps every
/// row, can be run again, and refuses a destination that holds other rows under its keys.
@Suite(.needsPostgres) struct StoreMigrationTests {
    let cheap = PasswordHasher(operations: 1, memory: 64 * 1024)

    /// An accounts file with two people, sessions, a token, visits (one removed), a setting
    /// and a photo.
    func filledFile() throws -> (store: AccountStore, session: String, token: String) {
        let s = try AccountStore(path: try StoreEngines.newLocation(.sqlite), hasher: cheap)
        let alice = try s.addUser(name: "alice", password: "correct horse")
        let bob = try s.addUser(name: "Bob", password: "battery staple")
        let session = try s.createSession(for: alice.id).id
        let token = try s.createToken(for: bob.id)
        let a = try s.visits(of: alice.id), b = try s.visits(of: bob.id)
        let v = try a.add(Visit(stationKey: "jr-east/c/小田原", date: try VisitDate(parsing: "2019-08-13"), note: "箱根へ"))
        let gone = try a.add(Visit(stationKey: "odakyu/c/小田原"))
        try a.remove(ids: [gone.id])
        try b.add(Visit(stationKey: "jr-east/c/小田原"))
        try a.setCountingRules(.all)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0x00, 0x5C, 0x27, 0xFF, 0xD9] + (0..<500).map { UInt8($0 % 256) }
        _ = try a.addPhotos([NewVisitPhoto(jpeg: jpeg, width: 4, height: 3, thumbnail: [0xFF, 0xD8, 0xFF, 0xD9],
                                           thumbnailWidth: 2, thumbnailHeight: 1)], to: v.id)
        return (s, session, token)
    }

    func counts(_ r: StoreMigrationReport) -> [String] { r.tables.map { "\($0.name) \($0.source) \($0.copied) \($0.alreadyThere)" } }

    @Test func everyRowArrivesOnceAndTheServerGoesOnFromThere() throws {
        let (file, session, token) = try filledFile()
        let url = try TestPostgres.shared().database()
        let pg = try AccountStore(path: url, hasher: cheap)
        let first = try file.migrate(to: pg)
        #expect(counts(first) == ["users 2 2 0", "sessions 1 1 0", "api_tokens 1 1 0", "visits 2 2 0", "visit_tombstones 1 1 0",
                                  "settings 1 1 0", "sync_peers 0 0 0", "key_sources 0 0 0", "visit_photos 1 1 0"])
        // Everything works on PostgreSQL as it did in the file.
        let alice = try #require(try pg.authenticate(name: "ALICE", password: "correct horse"))
        #expect(try pg.authenticate(name: "bob", password: "correct horse") == nil)
        #expect(try pg.session(id: session)?.user == alice)
        #expect(try pg.user(forToken: token)?.name == "Bob")
        let a = try pg.visits(of: alice.id)
        #expect(try a.visits().map { "\($0.id) \($0.stationKey) \($0.date) \($0.note ?? "-")" } == ["1 jr-east/c/小田原 2019-08-13 箱根へ"])
        #expect(try a.visits() == file.visits(of: alice.id).visits())
        #expect(try a.countingRules() == .all)
        #expect(try a.archivedPhotos().map(\.photo.jpeg) == file.visits(of: alice.id).archivedPhotos().map(\.photo.jpeg))
        // Ids go on past every id the file used, the removed visit's (2) and Bob's (3) too.
        #expect(try a.add(Visit(stationKey: "odakyu/c/新宿")).id == 4)
        #expect(try pg.addUser(name: "carol", password: "correct horse").id == 3)
        // The change number too: the new visit is newer than every migrated change.
        let maxSeq = try file.db.scalarInt("SELECT max(seq) FROM (SELECT seq FROM visits UNION ALL SELECT seq FROM visit_tombstones)") ?? 0
        #expect(try pg.db.scalarInt("SELECT seq FROM visits WHERE id = 4")! > maxSeq)

        // Again: nothing is copied twice.
        let second = try file.migrate(to: pg)
        #expect(counts(second) == ["users 2 0 2", "sessions 1 0 1", "api_tokens 1 0 1", "visits 2 0 2", "visit_tombstones 1 0 1",
                                   "settings 1 0 1", "sync_peers 0 0 0", "key_sources 0 0 0", "visit_photos 1 0 1"])
        #expect(try pg.db.scalarInt("SELECT count(*) FROM visits") == 3)
    }

    @Test func aDestinationWithOtherRowsUnderItsKeysIsLeftAsItWas() throws {
        let (file, _, _) = try filledFile()
        let url = try TestPostgres.shared().database()
        let pg = try AccountStore(path: url, hasher: cheap)
        // Someone else already has id 1 here.
        let dave = try pg.addUser(name: "dave", password: "correct horse")
        try pg.visits(of: dave.id).add(Visit(stationKey: "jr-east/c/東京"))
        #expect(throws: StoreMigrationError(description: "users: the row with id 1 is taken by a different row in the destination; nothing was copied (migrate into an empty store, or into one an earlier run of this migration filled)")) {
            try file.migrate(to: pg)
        }
        #expect(try pg.users().map(\.user.name) == ["dave"])
        #expect(try pg.db.scalarInt("SELECT count(*) FROM visits") == 1)
        #expect(try pg.db.scalarInt("SELECT count(*) FROM visit_photos") == 0)
        // And the other way round is refused.
        #expect(throws: StoreMigrationError(description: "a migration goes from an accounts file (SQLite) to PostgreSQL")) {
            try pg.migrate(to: file)
        }
    }
}
