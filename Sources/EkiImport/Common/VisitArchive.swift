import EkiKit
import Foundation

/// A visit log with its photos in one zip file (`eki visit export --with-photos FILE.zip`,
/// `eki visit import FILE.zip`). Members, in this order:
/// - `visits.json`: the visits as `eki visit export --format json` writes them;
/// - `photos.json`: `[{"id", "visit_id", "width", "height", "bytes", "thumb_width",
///   "thumb_height", "file", "thumb"}]`, ids as in the log, by visit then id;
/// - `photos/ID.jpg` and `photos/ID-thumb.jpg`: each photo's JPEG and thumbnail, byte for byte.
/// Members are stored (not compressed) with one fixed time, so the same log writes the same bytes.
public struct VisitArchive: Sendable {
    /// The bytes of `visits.json`.
    public var visitsJSON: [UInt8]
    public var photos: [ArchivedVisitPhoto]

    /// Whether `path` is to be read as a visit archive: it ends in `.zip` or starts as a zip does.
    public static func isArchive(path: String, head: [UInt8]) -> Bool {
        path.lowercased().hasSuffix(".zip") || head.starts(with: [0x50, 0x4B, 0x03, 0x04])
    }

    /// Writes `visits` and `photos` to `path` (through a part file renamed at the end).
    /// - Throws: `ImportError` naming the file or member.
    public static func write(visits: [Visit], photos: [ArchivedVisitPhoto], to path: String) throws(ImportError) {
        let zip = try ZipWriter(path: path)
        try zip.add("visits.json", Array(VisitExchange.encode(visits, format: .json).utf8))
        let rows = photos.map { p in
            "  {\"id\": \(p.id), \"visit_id\": \(p.visitID), \"width\": \(p.photo.width), \"height\": \(p.photo.height), "
                + "\"bytes\": \(p.photo.jpeg.count), \"thumb_width\": \(p.photo.thumbnailWidth), \"thumb_height\": \(p.photo.thumbnailHeight), "
                + "\"file\": \"photos/\(p.id).jpg\", \"thumb\": \"photos/\(p.id)-thumb.jpg\"}"
        }
        try zip.add("photos.json", Array((rows.isEmpty ? "[]\n" : "[\n" + rows.joined(separator: ",\n") + "\n]\n").utf8))
        for p in photos {
            try zip.add("photos/\(p.id).jpg", p.photo.jpeg)
            try zip.add("photos/\(p.id)-thumb.jpg", p.photo.thumbnail)
        }
        try zip.finish()
    }

    /// Reads the archive at `path` (zip bombs refused as for GTFS: `ImportLimits`).
    /// - Throws: `ImportError` naming the file or member: not a zip, no `visits.json`, a
    ///   `photos.json` row missing a field, or naming a member the archive lacks.
    public static func read(path: String, limits: ImportLimits = ImportLimits()) throws(ImportError) -> VisitArchive {
        let zip = try ZipArchive(path: path, limits: limits)
        var members: [String: [UInt8]] = [:]
        while let name = try zip.nextFile() {
            var bytes: [UInt8] = []
            while true {
                let part = try zip.read(upTo: 1 << 20)
                if part.isEmpty { break }
                bytes += part
            }
            members[name] = bytes
        }
        guard let visits = members["visits.json"] else { throw ImportError(file: path, message: "no visits.json in the archive") }
        var photos: [ArchivedVisitPhoto] = []
        if let manifest = members["photos.json"] {
            let where_ = "\(path)/photos.json"
            guard let rows = try? JSONSerialization.jsonObject(with: Data(manifest)) as? [[String: Any]] else {
                throw ImportError(file: where_, message: "not a JSON array of objects")
            }
            for (i, row) in rows.enumerated() {
                func int(_ k: String) throws(ImportError) -> Int {
                    guard let n = row[k] as? Int, n > 0 else { throw ImportError(file: where_, message: "photo \(i + 1): \(k) must be a positive whole number") }
                    return n
                }
                func member(_ k: String) throws(ImportError) -> [UInt8] {
                    guard let name = row[k] as? String else { throw ImportError(file: where_, message: "photo \(i + 1): \(k) must be a member name") }
                    guard let bytes = members[name] else { throw ImportError(file: where_, message: "photo \(i + 1): no member \(name) in the archive") }
                    return bytes
                }
                let jpeg = try member("file")
                guard jpeg.count == (try int("bytes")) else {
                    throw ImportError(file: where_, message: "photo \(i + 1): \(row["file"] ?? "") holds \(jpeg.count) bytes, not \(row["bytes"] ?? "")")
                }
                photos.append(ArchivedVisitPhoto(
                    id: Int64(try int("id")), visitID: Int64(try int("visit_id")),
                    photo: NewVisitPhoto(jpeg: jpeg, width: try int("width"), height: try int("height"), thumbnail: try member("thumb"),
                                         thumbnailWidth: try int("thumb_width"), thumbnailHeight: try int("thumb_height"))))
            }
        }
        return VisitArchive(visitsJSON: visits, photos: photos)
    }
}
