import EkiKit
import EkiPhotos
import Foundation

/// `eki visit photo add|list|rm|get`: the photos kept with visits (see `VisitLog+Photos.swift`
/// for where they live, `PhotoProcessor` for what is kept of a file).
extension VisitCommand {
    static let photoHelp = """
      photo    the photos of a visit. Each file is turned upright by its orientation tag,
               shrunk to at most 1,600 px on its long side and saved as baseline JPEG without
               any metadata (no EXIF, no GPS, no XMP, IPTC or comments), ≤ 1 MiB, with a
               480 px thumbnail; JPEG, PNG, WebP and HEIC are read. A file that is broken,
               not an image, too large or still over 1 MiB at 640 px is refused and nothing
               is stored (every FILE is checked before any is stored).
        photo add VISIT_ID FILE...        stores the files with the visit
        photo list VISIT_ID [--format table|json]
                                          json: [{"id","visit_id","width","height","bytes"}]
        photo rm PHOTO_ID                 removes one photo
        photo get PHOTO_ID [-o FILE] [--thumb]
                                          writes the JPEG (or its thumbnail) to FILE or stdout

    """

    static let photoSubcommands = ["add", "list", "rm", "get"]

    /// `eki visit photo --help`: the photo subcommands alone.
    static let photoUsage = """
    usage: eki visit photo add VISIT_ID FILE...
           eki visit photo list VISIT_ID [--format table|json]
           eki visit photo rm PHOTO_ID
           eki visit photo get PHOTO_ID [-o FILE] [--thumb]

    \(photoHelp)\(VisitOptions.pathHelp)
    """

    /// Checks the arguments of `visit photo …` (at parse time: usage errors exit 64).
    static func checkPhotoArguments(_ args: Arguments) throws(UsageError) {
        let p = args.positionals
        guard let sub = p.first else { throw UsageError("visit photo: give add, list, rm or get") }
        guard photoSubcommands.contains(sub) else {
            throw UsageError("visit photo: unknown subcommand '\(sub)' (\(photoSubcommands.joined(separator: ", ")))")
        }
        let counts: ClosedRange<Int> = sub == "add" ? 3...Int.max : 2...2
        guard counts.contains(p.count) else {
            throw UsageError(p.count < counts.lowerBound ? "visit photo \(sub): missing argument"
                             : "visit photo \(sub): unexpected argument '\(p[counts.upperBound])'")
        }
        let noun = sub == "add" || sub == "list" ? "visit" : "photo"
        guard let id = Int64(p[1]), id > 0 else { throw UsageError("visit photo \(sub): '\(p[1])' is not a \(noun) id") }
        _ = id
        if let f = args["format"], sub != "list" || !["table", "json"].contains(f) {
            throw UsageError(sub == "list" ? "visit photo list: --format must be table or json, got '\(f)'"
                             : "visit photo \(sub): --format is for list")
        }
        if args["o"] != nil && sub != "get" { throw UsageError("visit photo \(sub): -o is for get") }
        if args.has("thumb") && sub != "get" { throw UsageError("visit photo \(sub): --thumb is for get") }
    }

    func photo() throws -> Int32 {
        let p = args.positionals
        let id = Int64(p[1])!
        switch p[0] {
        case "add": return try addPhotos(to: id, files: Array(p.dropFirst(2)))
        case "list": return try listPhotos(of: id)
        case "rm":
            let removed = try location.open(create: false).removePhoto(id: id)
            console.out("removed photo \(removed.id) of visit \(removed.visitID)\n")
            return 0
        default: return try getPhoto(id)
        }
    }

    /// Every file processed first, then all stored in one transaction: a bad file stores nothing.
    /// - Throws: `PhotoFileError` naming the files when the log has no visit `visitID`.
    func addPhotos(to visitID: Int64, files: [String]) throws -> Int32 {
        let log = try location.open(create: false)
        let noVisit = PhotoFileError(file: files.joined(separator: ", "),
                                     message: "no visit with id \(visitID) to add \(files.count == 1 ? "it" : "them") to")
        guard try log.visit(id: visitID) != nil else { throw noVisit }
        let processor = PhotoProcessor()
        var photos: [NewVisitPhoto] = []
        for file in files {
            let bytes = try Self.readPhotoFile(file, limit: processor.limits.maxInputBytes)
            let p = try processor.process(bytes, source: file)
            photos.append(NewVisitPhoto(jpeg: p.jpeg, width: p.width, height: p.height, thumbnail: p.thumbnail,
                                        thumbnailWidth: p.thumbnailWidth, thumbnailHeight: p.thumbnailHeight))
        }
        let stored: [VisitPhoto]
        do { stored = try log.addPhotos(photos, to: visitID) } catch VisitLogError.noSuchVisit { throw noVisit }
        for (file, stored) in zip(files, stored) {
            console.out("photo \(stored.id): visit \(visitID), \(stored.width)×\(stored.height), \(stored.bytes) bytes (\(file))\n")
        }
        return 0
    }

    /// The bytes of `file`, refused before reading when larger than `limit`.
    static func readPhotoFile(_ file: String, limit: Int) throws -> [UInt8] {
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: file), (attrs[.type] as? FileAttributeType) != .typeDirectory,
              let handle = FileHandle(forReadingAtPath: file) else {
            throw PhotoFileError(file: file, message: "cannot read the file")
        }
        defer { try? handle.close() }
        let size = (attrs[.size] as? NSNumber)?.intValue ?? 0
        if size > limit { throw PhotoError(source: file, reason: .inputTooLarge(bytes: size, limit: limit)) }
        let data = (try? handle.read(upToCount: limit + 1)) ?? Data()
        if data.count > limit { throw PhotoError(source: file, reason: .inputTooLarge(bytes: data.count, limit: limit)) }
        return [UInt8](data)
    }

    func listPhotos(of visitID: Int64) throws -> Int32 {
        let log = try location.openForReading(console: console)
        guard try log.visit(id: visitID) != nil else { throw VisitLogError.noSuchVisit(visitID) }
        let photos = try log.photos(of: visitID)
        if args["format"] == "json" {
            let rows = photos.map { "{\"id\":\($0.id),\"visit_id\":\($0.visitID),\"width\":\($0.width),\"height\":\($0.height),\"bytes\":\($0.bytes)}" }
            console.out("[" + rows.joined(separator: ",") + "]\n")
        } else {
            console.out(DisplayWidth.table(header: ["id", "visit", "width", "height", "bytes"],
                                           rows: photos.map { [String($0.id), String($0.visitID), String($0.width), String($0.height), String($0.bytes)] })
                        + "(\(photos.count) \(photos.count == 1 ? "photo" : "photos"))\n")
        }
        return 0
    }

    func getPhoto(_ id: Int64) throws -> Int32 {
        let log = try location.openForReading(console: console, note: false)
        guard let bytes = try log.photoBytes(id: id, thumbnail: args.has("thumb")) else { throw VisitLogError.noSuchPhoto(id) }
        if let out = args["o"] {
            try OutputPath.checkFolder(of: out)
            try Data(bytes).write(to: URL(fileURLWithPath: out), options: .atomic)
            console.out("\(out): \(bytes.count) bytes\n")
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
        return 0
    }
}

/// A photo file that cannot be read at all.
struct PhotoFileError: Error, CustomStringConvertible {
    var file: String
    var message: String
    var description: String { "\(file): \(message)" }
}
