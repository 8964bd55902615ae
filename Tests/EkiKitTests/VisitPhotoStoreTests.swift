@testable import EkiKit
import EkiSQLite
import EkiTestSupport
import Foundation
import Testing

@Suite struct VisitPhotoStoreTests {
    static func photo(_ seed: UInt8, size: Int = 3000) -> NewVisitPhoto {
        NewVisitPhoto(jpeg: [0xFF, 0xD8] + [UInt8](repeating: seed, count: size) + [0xFF, 0xD9], width: 1600, height: 1067,
                      thumbnail: [0xFF, 0xD8, seed, 0xFF, 0xD9], thumbnailWidth: 480, thumbnailHeight: 320)
    }

    @Test func photosLiveAndDieWithTheirVisit() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("visits.sqlite").path
        let log = try VisitLog(path: path)
        let v = try log.add(Visit(stationKey: "jr-central/s/小田原", date: try VisitDate(parsing: "2019-08-13")))
        let other = try log.add(Visit(stationKey: "jr-east/c/小田原"))
        let stored = try log.addPhotos([Self.photo(1), Self.photo(2, size: 10)], to: v.id)
        try log.addPhotos([Self.photo(3)], to: other.id)
        #expect(stored.map(\.bytes) == [3004, 14])
        #expect(try log.photos(of: v.id) == stored)
        #expect(try log.photoBytes(id: stored[0].id) == Self.photo(1).jpeg)
        #expect(try log.photoBytes(id: stored[1].id, thumbnail: true) == [0xFF, 0xD8, 2, 0xFF, 0xD9])

        #expect(throws: VisitLogError.self) { try log.addPhotos([Self.photo(4)], to: 999) }
        #expect(try log.allPhotos().count == 3)

        try log.removePhoto(id: stored[1].id)
        #expect(try log.photos(of: v.id).map(\.id) == [stored[0].id])
        #expect(throws: VisitLogError.self) { try log.removePhoto(id: stored[1].id) }

        try log.remove(ids: [v.id])
        #expect(try log.photos(of: v.id).isEmpty)
        #expect(try log.photoBytes(id: stored[0].id) == nil)
        #expect(try log.db.scalarInt("SELECT count(*) FROM visit_photos") == 1)
    }

    @Test func anotherOwnersPhotosAreNoneOfTheirs() throws {
        let db = try Database(path: ":memory:")
        try VisitLog.installSchema(in: db)
        let alice = VisitLog(database: db, owner: 1, path: ":memory:")
        let bob = VisitLog(database: db, owner: 2, path: ":memory:")
        let v = try alice.add(Visit(stationKey: "jr-central/s/小田原"))
        let p = try alice.addPhotos([Self.photo(9)], to: v.id)[0]
        #expect(throws: VisitLogError.self) { try bob.addPhotos([Self.photo(8)], to: v.id) }
        #expect(try bob.photo(id: p.id) == nil)
        #expect(try bob.photoBytes(id: p.id) == nil)
        #expect(throws: VisitLogError.self) { try bob.removePhoto(id: p.id) }
        #expect(try alice.photoBytes(id: p.id) == Self.photo(9).jpeg)
        // An account removed: its visits' photos go with them.
        _ = try alice.eraseOwner()
        #expect(try db.scalarInt("SELECT count(*) FROM visit_photos") == 0)
    }

    @Test func aVersionTwoLogGainsPhotoTablesKeepingItsVisits() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("v2.sqlite").path
        do {
            let db = try Database(path: path)
            let v2 = VisitLog.visitTables.replacingOccurrences(of: VisitLog.photoTables, with: "")
            try db.execute("PRAGMA application_id = \(0x454B_4956); PRAGMA user_version = 2;" + v2)
            try db.execute("INSERT INTO visits (uid, station_key, updated_at, seq) VALUES ('u-1', 'jr-central/s/小田原', 1, 1)")
            #expect(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'visit_photos'") == 0)
        }
        let log = try VisitLog(path: path)
        #expect(try log.visits().map(\.uid) == ["u-1"])
        #expect(try Database(path: path, readOnly: true).scalarInt("PRAGMA user_version") == 3)
        let p = try log.addPhotos([Self.photo(5)], to: 1)
        #expect(try log.photos(of: 1) == p)
        try log.remove(ids: [1])
        #expect(try log.allPhotos().isEmpty)
    }
}

extension VisitPhotoStoreTests {
    @Test func oneVisitRecordedTwiceKeepsThePhotosOfBoth() throws {
        let log = try VisitLog(path: TestPaths.temporaryDirectory().appendingPathComponent("v.sqlite").path)
        let date = try VisitDate(parsing: "2019-08-13")
        let mine = try log.add(Visit(stationKey: "jr-central/s/小田原", date: date, uid: "ffffffff-0000-4000-8000-000000000000",
                                     updatedAt: VisitTimestamp(milliseconds: 1_700_000_000_000)))
        let p = try log.addPhotos([Self.photo(7)], to: mine.id)[0]
        // Another device recorded the same visit under a smaller uid: that uid stays, this row goes.
        let theirs = VisitChange(uid: "00000000-0000-4000-8000-000000000000", stationKey: "jr-central/s/小田原", date: date,
                                 updatedAt: VisitTimestamp(milliseconds: 1_700_000_001_000))
        _ = try log.sync([theirs], since: nil)
        let kept = try #require(try log.visit(uid: theirs.uid))
        #expect(try log.visit(uid: mine.uid) == nil)
        #expect(try log.photos(of: kept.id).map(\.id) == [p.id])
        #expect(try log.photoBytes(id: p.id) == Self.photo(7).jpeg)
    }
}
