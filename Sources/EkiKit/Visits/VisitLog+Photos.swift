import EkiSQLite
import Foundation

/// A photo kept with a visit (its bytes are read separately: `VisitLog.photoBytes`).
public struct VisitPhoto: Hashable, Sendable {
    /// The log's id for this photo, positive; never reused.
    public var id: Int64
    /// The visit it belongs to.
    public var visitID: Int64
    /// The stored JPEG's size in pixels, and its length in bytes.
    public var width: Int
    public var height: Int
    public var bytes: Int
    /// The thumbnail's size in pixels.
    public var thumbnailWidth: Int
    public var thumbnailHeight: Int
}

/// A photo to store: JPEG bytes and their thumbnail, as `EkiPhotos.PhotoProcessor` makes them
/// (upright, ≤ 1,600 px, ≤ 1 MiB, no metadata). The log stores them as given.
public struct NewVisitPhoto: Sendable {
    public var jpeg: [UInt8]
    public var width: Int
    public var height: Int
    public var thumbnail: [UInt8]
    public var thumbnailWidth: Int
    public var thumbnailHeight: Int

    public init(jpeg: [UInt8], width: Int, height: Int, thumbnail: [UInt8], thumbnailWidth: Int, thumbnailHeight: Int) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
        self.thumbnail = thumbnail
        self.thumbnailWidth = thumbnailWidth
        self.thumbnailHeight = thumbnailHeight
    }
}

/// Photos of visits, in the log's own file: `visit_photos (id, owner, visit_id, width, height,
/// jpeg, thumb_width, thumb_height, thumb, created_at)`, the bytes as BLOBs in the row. A photo
/// row and its bytes are one row of one SQLite file, so a write (or a crash during one) keeps
/// both or neither, and a backup or copy of the log carries its photos. A trigger removes a
/// visit's photos when the visit row is deleted (removed here, by sync, or with its account).
/// Photos are not sent by `eki visit sync` (they stay on the device or server that has them).
extension VisitLog {
    static let photoTables = """
    CREATE TABLE IF NOT EXISTS visit_photos (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      owner INTEGER NOT NULL DEFAULT 0,
      visit_id INTEGER NOT NULL,
      width INTEGER NOT NULL CHECK (width > 0),
      height INTEGER NOT NULL CHECK (height > 0),
      jpeg BLOB NOT NULL CHECK (length(jpeg) > 0),
      thumb_width INTEGER NOT NULL CHECK (thumb_width > 0),
      thumb_height INTEGER NOT NULL CHECK (thumb_height > 0),
      thumb BLOB NOT NULL CHECK (length(thumb) > 0),
      created_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS visit_photos_visit ON visit_photos (owner, visit_id, id);
    CREATE TRIGGER IF NOT EXISTS visit_photos_follow_visit AFTER DELETE ON visits
      BEGIN DELETE FROM visit_photos WHERE visit_id = old.id; END;
    """

    /// Creates the photo tables in `db` when it has none (an accounts file made before photos).
    package static func installPhotoSchema(in db: any SQLConnection) throws { try db.execute(photoTables) }

    /// Whether this file has the photo tables (a read-only log of an older version has none).
    func hasPhotosTable() throws -> Bool {
        try db.hasTable("visit_photos")
    }

    private static let photoColumns = "id, visit_id, width, height, length(jpeg), thumb_width, thumb_height"

    /// Stores `photos` with the visit `visitID`, all in one transaction (all or none).
    /// - Returns: the stored photos, with their ids, in the order given.
    /// - Throws: `VisitLogError.noSuchVisit` when the owner has no such visit; `SQLiteError`.
    @discardableResult
    public func addPhotos(_ photos: [NewVisitPhoto], to visitID: Int64) throws -> [VisitPhoto] {
        try write {
            guard try visit(id: visitID) != nil else { throw VisitLogError.noSuchVisit(visitID) }
            let insert = try db.prepare("""
                INSERT INTO visit_photos (owner, visit_id, width, height, jpeg, thumb_width, thumb_height, thumb, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                """)
            let now = VisitTimestamp.now().milliseconds
            return try photos.map { p in
                insert.reset()
                try insert.bind([.int(owner), .int(visitID), .int(Int64(p.width)), .int(Int64(p.height)), .blob(p.jpeg),
                                 .int(Int64(p.thumbnailWidth)), .int(Int64(p.thumbnailHeight)), .blob(p.thumbnail), .int(now)])
                guard try insert.step() else { throw VisitLogError.noSuchVisit(visitID) }
                return VisitPhoto(id: insert.int64(0), visitID: visitID, width: p.width, height: p.height, bytes: p.jpeg.count,
                                  thumbnailWidth: p.thumbnailWidth, thumbnailHeight: p.thumbnailHeight)
            }
        }
    }

    /// The photos of visit `visitID`, in the order they were added (empty when none).
    public func photos(of visitID: Int64) throws -> [VisitPhoto] {
        guard try hasPhotosTable() else { return [] }
        let s = try db.prepare("SELECT \(Self.photoColumns) FROM visit_photos WHERE owner = ? AND visit_id = ? ORDER BY id")
        try s.bind([.int(owner), .int(visitID)])
        var out: [VisitPhoto] = []
        while try s.step() { out.append(Self.photo(from: s)) }
        return out
    }

    /// Every photo of the owner, by visit then id.
    public func allPhotos() throws -> [VisitPhoto] {
        guard try hasPhotosTable() else { return [] }
        let s = try db.prepare("SELECT \(Self.photoColumns) FROM visit_photos WHERE owner = ? ORDER BY visit_id, id")
        try s.bind([.int(owner)])
        var out: [VisitPhoto] = []
        while try s.step() { out.append(Self.photo(from: s)) }
        return out
    }

    /// The photo with `id`, or nil (another owner's photo is nil too).
    public func photo(id: Int64) throws -> VisitPhoto? {
        guard try hasPhotosTable() else { return nil }
        let s = try db.prepare("SELECT \(Self.photoColumns) FROM visit_photos WHERE owner = ? AND id = ?")
        try s.bind([.int(owner), .int(id)])
        return try s.step() ? Self.photo(from: s) : nil
    }

    /// The JPEG bytes of photo `id` (its thumbnail with `thumbnail`), or nil when the owner has none.
    public func photoBytes(id: Int64, thumbnail: Bool = false) throws -> [UInt8]? {
        guard try hasPhotosTable() else { return nil }
        let s = try db.prepare("SELECT \(thumbnail ? "thumb" : "jpeg") FROM visit_photos WHERE owner = ? AND id = ?")
        try s.bind([.int(owner), .int(id)])
        return try s.step() ? s.blob(0) : nil
    }

    /// Removes photo `id`.
    /// - Returns: the removed photo.
    /// - Throws: `VisitLogError.noSuchPhoto` when the owner has none with that id; `SQLiteError`.
    @discardableResult
    public func removePhoto(id: Int64) throws -> VisitPhoto {
        try write {
            guard let p = try photo(id: id) else { throw VisitLogError.noSuchPhoto(id) }
            try db.prepare("DELETE FROM visit_photos WHERE owner = ? AND id = ?").run([.int(owner), .int(id)])
            return p
        }
    }

    /// Inside the caller's transaction: stores photo bytes exactly as exported (an import),
    /// under `id` when given.
    @discardableResult
    func insertPhoto(_ p: NewVisitPhoto, visitID: Int64, id: Int64?) throws -> Int64 {
        let columns = "owner, visit_id, width, height, jpeg, thumb_width, thumb_height, thumb, created_at"
        let s = id == nil
            ? try db.cached("INSERT INTO visit_photos (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")
            : try db.cached("INSERT INTO visit_photos (id, \(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")
        defer { s.reset() }
        try s.bind((id.map { [SQLValue.int($0)] } ?? []) + [
            .int(owner), .int(visitID), .int(Int64(p.width)), .int(Int64(p.height)), .blob(p.jpeg),
            .int(Int64(p.thumbnailWidth)), .int(Int64(p.thumbnailHeight)), .blob(p.thumbnail), .int(VisitTimestamp.now().milliseconds),
        ])
        guard try s.step() else { throw VisitLogError.noSuchVisit(visitID) }
        let stored = s.int64(0)
        if id != nil { try db.idTaken(stored, sequence: "visit_photos_id_seq") }
        return stored
    }

    /// Inside the caller's transaction: the ids of the photos of the live visit `uid`, taken off
    /// it (visit id 0, no visit) so that removing its row leaves them; empty when none.
    func detachPhotos(ofUID uid: String) throws -> [Int64] {
        guard try hasPhotosTable(), let v = try visit(uid: uid) else { return [] }
        let ids = try photos(of: v.id).map(\.id)
        try db.prepare("UPDATE visit_photos SET visit_id = 0 WHERE owner = ? AND visit_id = ?").run([.int(owner), .int(v.id)])
        return ids
    }

    /// Inside the caller's transaction: gives the photos `ids` to visit `visitID`.
    func attachPhotos(_ ids: [Int64], to visitID: Int64) throws {
        let s = try db.prepare("UPDATE visit_photos SET visit_id = ? WHERE owner = ? AND id = ?")
        for id in ids { try s.run([.int(visitID), .int(owner), .int(id)]) }
    }

    private static func photo(from s: any SQLStatement) -> VisitPhoto {
        VisitPhoto(id: s.int64(0), visitID: s.int64(1), width: Int(s.int64(2)), height: Int(s.int64(3)), bytes: Int(s.int64(4)),
                   thumbnailWidth: Int(s.int64(5)), thumbnailHeight: Int(s.int64(6)))
    }
}

/// A photo with its ids as a visit archive holds them (`EkiImport.VisitArchive`).
public struct ArchivedVisitPhoto: Sendable {
    /// The photo's id, and its visit's id, in the log it was exported from.
    public var id: Int64
    public var visitID: Int64
    public var photo: NewVisitPhoto

    public init(id: Int64, visitID: Int64, photo: NewVisitPhoto) {
        self.id = id
        self.visitID = visitID
        self.photo = photo
    }
}

extension VisitLog {
    /// Every photo of the owner with its bytes, by visit then id (for an archive).
    public func archivedPhotos() throws -> [ArchivedVisitPhoto] {
        guard try hasPhotosTable() else { return [] }
        let s = try db.prepare("""
            SELECT id, visit_id, width, height, jpeg, thumb_width, thumb_height, thumb FROM visit_photos
            WHERE owner = ? ORDER BY visit_id, id
            """)
        try s.bind([.int(owner)])
        var out: [ArchivedVisitPhoto] = []
        while try s.step() {
            out.append(ArchivedVisitPhoto(id: s.int64(0), visitID: s.int64(1), photo: NewVisitPhoto(
                jpeg: s.blob(4), width: Int(s.int64(2)), height: Int(s.int64(3)), thumbnail: s.blob(7),
                thumbnailWidth: Int(s.int64(5)), thumbnailHeight: Int(s.int64(6)))))
        }
        return out
    }

    /// `merge(_:stations:)` and the archive's photos in the same transaction. Each photo goes
    /// with the visit its `visitID` names among `incoming` (the id as exported), found in the
    /// log by station, date and kind once merged; it keeps its id when the log has no photo
    /// with that id. A photo whose visit the log already holds with the same bytes is already
    /// present; one whose visit is not among `incoming` is skipped.
    /// - Returns: the merge report and how many photos were added, already present and skipped.
    /// - Throws: `SQLiteError` (nothing is written).
    public func merge(_ incoming: [Visit], photos: [ArchivedVisitPhoto], stations: [String: Station] = [:])
        throws -> (visits: VisitMergeReport, photosAdded: Int, photosPresent: Int, photosSkipped: Int) {
        try write {
            let report = try mergeRows(incoming, stations: stations)
            let byID = Dictionary(incoming.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var added = 0, present = 0, skipped = 0
            for p in photos {
                guard let v = byID[p.visitID], let held = try visit(matching: v) else { skipped += 1; continue }
                let same = try db.scalarInt("SELECT count(*) FROM visit_photos WHERE owner = ? AND visit_id = ? AND jpeg = ?",
                                            [.int(owner), .int(held.id), .blob(p.photo.jpeg)]) ?? 0
                if same > 0 { present += 1; continue }
                let idFree = try db.scalarInt("SELECT count(*) FROM visit_photos WHERE id = ?", [.int(p.id)]) == 0
                try insertPhoto(p.photo, visitID: held.id, id: idFree ? p.id : nil)
                added += 1
            }
            return (report, added, present, skipped)
        }
    }
}
