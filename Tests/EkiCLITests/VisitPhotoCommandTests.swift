import EkiCLI
import EkiImport
import EkiKit
import EkiPhotos
import EkiRender
import EkiTestSupport
import Foundation
import Testing

/// `eki visit photo add|list|rm|get` on a log of two visits, with images libvips makes.
@Suite(.serialized) struct VisitPhotoCommandTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// A log with visits 1 (小田原, 2019-08-13) and 2 (東京, undated); its path.
    func log() throws -> String {
        let visits = path("visits.sqlite")
        let log = try VisitLog(path: visits)
        try log.add(Visit(stationKey: "jr-central/s/小田原", date: try VisitDate(parsing: "2019-08-13"), note: "こだま"))
        try log.add(Visit(stationKey: "jr-east/c/東京"))
        return visits
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    @Test func addListGetRemove() throws {
        let visits = try log()
        let jpg = try write(try PhotoProcessor.sample(width: 2400, height: 1600), "IMG_0001.jpg")
        let png = try write(try PhotoProcessor.sample(width: 900, height: 1200, format: "png"), "ticket.png")
        let add = eki(["visit", "photo", "add", "1", jpg, png, "--visits", visits])
        #expect(add.status == 0, "\(add.err)")
        let stored = try VisitLog(path: visits, create: false).photos(of: 1)
        #expect(stored.map { [Int($0.id), $0.width, $0.height] } == [[1, 1600, 1067], [2, 900, 1200]])
        #expect(add.out == "photo 1: visit 1, 1600×1067, \(stored[0].bytes) bytes (\(jpg))\n"
                         + "photo 2: visit 1, 900×1200, \(stored[1].bytes) bytes (\(png))\n")

        let json = eki(["visit", "photo", "list", "1", "--format", "json", "--visits", visits])
        #expect(json.out == "[{\"id\":1,\"visit_id\":1,\"width\":1600,\"height\":1067,\"bytes\":\(stored[0].bytes)},"
                          + "{\"id\":2,\"visit_id\":1,\"width\":900,\"height\":1200,\"bytes\":\(stored[1].bytes)}]\n")
        #expect(eki(["visit", "photo", "list", "2", "--format", "json", "--visits", visits]).out == "[]\n")
        let table = eki(["visit", "photo", "list", "1", "--visits", visits])
        #expect(table.out.hasSuffix("(2 photos)\n"))

        let out = path("out.jpg"), thumb = path("thumb.jpg")
        #expect(eki(["visit", "photo", "get", "1", "-o", out, "--visits", visits]).status == 0)
        #expect(eki(["visit", "photo", "get", "1", "-o", thumb, "--thumb", "--visits", visits]).status == 0)
        let log = try VisitLog(path: visits, create: false)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: out))) == log.photoBytes(id: 1))
        let t = try PhotoProcessor().process([UInt8](Data(contentsOf: URL(fileURLWithPath: thumb))), source: "thumb")
        #expect((t.width, t.height) == (480, 320))

        #expect(eki(["visit", "photo", "rm", "2", "--visits", visits]).out == "removed photo 2 of visit 1\n")
        let again = eki(["visit", "photo", "rm", "2", "--visits", visits])
        #expect(again.status == 1 && again.err == "eki visit: no photo with id 2\n")
        // Removing the visit removes its photos.
        #expect(eki(["visit", "rm", "1", "--visits", visits]).status == 0)
        #expect(try VisitLog(path: visits, create: false).allPhotos().isEmpty)
        let gone = eki(["visit", "photo", "get", "1", "-o", out, "--visits", visits])
        #expect(gone.status == 1 && gone.err == "eki visit: no photo with id 1\n")
    }

    @Test func badInputNamesTheFileAndLeavesTheLogUnchanged() throws {
        let visits = try log()
        let good = try write(try PhotoProcessor.sample(width: 800, height: 600), "good.jpg")
        #expect(eki(["visit", "photo", "add", "2", good, "--visits", visits]).status == 0)
        let jpeg = try PhotoProcessor.sample(width: 1200, height: 900)
        // 2,000 bytes of the scan inverted: libjpeg only warns, and the photo would be half grey.
        var corrupt = jpeg
        for i in corrupt.count / 2 - 1000..<corrupt.count / 2 + 1000 { corrupt[i] ^= 0xFF }
        // A PNG whose header says 100,000 × 100,000 (IHDR, one tiny IDAT, IEND).
        let bomb: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 0x08, 0x02, 0x00, 0x00, 0x00, 0x27, 0x30, 0x9C, 0x9F, 0x00, 0x00, 0x00, 0x09, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x5E, 0xFF, 0x7D, 0xF9, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        let cases: [(String, [UInt8], String)] = [
            ("cut.jpg", Array(jpeg.prefix(jpeg.count / 2)), "cut.jpg: the image cannot be read ("),
            ("grey.jpg", corrupt, "grey.jpg: the image cannot be read (VipsJpeg: Corrupt JPEG data: bad Huffman code)\n"),
            ("bomb.png", bomb, "bomb.png: the image says it is 100000 × 100000 pixels, more than the 120-megapixel limit"),
            ("notes.txt", Array("小田原で乗り換え\n".utf8), "notes.txt: not an image (JPEG, PNG, WebP or HEIC expected)"),
            ("empty.jpg", [], "empty.jpg: the file is empty (0 bytes)"),
        ]
        let before = try Data(contentsOf: URL(fileURLWithPath: visits))
        for (name, bytes, message) in cases {
            let file = try write(bytes, name)
            let r = eki(["visit", "photo", "add", "1", good, file, "--visits", visits])
            #expect(r.status == 1, "\(name)")
            #expect(r.err.hasPrefix("eki visit: \(file.replacingOccurrences(of: name, with: ""))\(message)"), "\(r.err)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: visits)) == before, "\(name)")
        }
        let noVisit = eki(["visit", "photo", "add", "99", good, "--visits", visits])
        #expect(noVisit.status == 1 && noVisit.err == "eki visit: \(good): no visit with id 99 to add it to\n")
        let noVisitTwo = eki(["visit", "photo", "add", "99", good, "b.png", "--visits", visits])
        #expect(noVisitTwo.status == 1 && noVisitTwo.err == "eki visit: \(good), b.png: no visit with id 99 to add them to\n")
        let missing = eki(["visit", "photo", "add", "1", path("nope.jpg"), "--visits", visits])
        #expect(missing.status == 1 && missing.err == "eki visit: \(path("nope.jpg")): cannot read the file\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: visits)) == before)
        #expect(try VisitLog(path: visits, create: false).allPhotos().map(\.visitID) == [2])
        #expect(eki(["visit", "photo", "add", "1", "--visits", visits]).status == 64)
        #expect(eki(["visit", "photo", "list", "x", "--visits", visits]).err == "eki visit: visit photo list: 'x' is not a visit id\n")
    }

    /// `eki visit photo --help` is the photo subcommands' help alone; `eki visit --help` has every
    /// subcommand's entry at the same indent.
    @Test func photoHelpIsItsOwn() {
        let help = eki(["visit", "photo", "--help"])
        #expect(help.status == 0)
        #expect(help.out.hasPrefix("usage: eki visit photo add VISIT_ID FILE...\n"
                                   + "       eki visit photo list VISIT_ID [--format table|json]\n"), "\(help.out)")
        #expect(help.out.contains("\n  photo    the photos of a visit."))
        #expect(help.out.hasSuffix("  --visits PATH      visit log (default: $EKI_VISITS, else $XDG_DATA_HOME/eki/visits.sqlite,\n"
                                   + "                     else ~/.local/share/eki/visits.sqlite)\n"))
        #expect(!help.out.contains("eki visit share") && !help.out.contains("--db"))
        #expect(eki(["visit", "photo", "add", "-h"]).out == help.out)
        #expect(eki(["help", "visit"]).out == eki(["visit", "--help"]).out)
        let visit = eki(["visit", "--help"]).out
        #expect(visit.contains("eki visit share"))
        let entries = visit.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.map { $0.split(separator: " ").first! }
        #expect(entries.starts(with: ["add", "list", "rm", "check", "export", "import", "share", "config", "sync", "photo"]), "\(entries)")
    }
}

/// `eki visit export --with-photos FILE.zip` and `eki visit import FILE.zip`.
@Suite(.serialized) struct VisitPhotoArchiveTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    @Test func exportImportRoundTripsByteForByte() throws {
        let a = path("a.sqlite"), b = path("b.sqlite")
        let log = try VisitLog(path: a)
        let v1 = try log.add(Visit(stationKey: "jr-central/s/小田原", date: try VisitDate(parsing: "2019-08-13"), note: "こだま"))
        let v2 = try log.add(Visit(stationKey: "jr-east/c/東京"))
        let processor = PhotoProcessor()
        func stored(_ w: Int, _ h: Int) throws -> NewVisitPhoto {
            let p = try processor.process(try PhotoProcessor.sample(width: w, height: h), source: "sample")
            return NewVisitPhoto(jpeg: p.jpeg, width: p.width, height: p.height, thumbnail: p.thumbnail,
                                 thumbnailWidth: p.thumbnailWidth, thumbnailHeight: p.thumbnailHeight)
        }
        try log.addPhotos([try stored(2000, 1500), try stored(700, 900)], to: v1.id)
        try log.addPhotos([try stored(1200, 800)], to: v2.id)

        let zipA = path("a.zip"), zipB = path("b.zip")
        let export = eki(["visit", "export", "--with-photos", zipA, "--visits", a])
        #expect(export.status == 0, "\(export.err)")
        let size = try Data(contentsOf: URL(fileURLWithPath: zipA)).count
        #expect(export.out == "\(zipA): 2 visits, 3 photos, \(size) bytes\n")

        let imported = eki(["visit", "import", zipA, "--keep-orphans", "--visits", b, "--db", path("none.gpkg")])
        #expect(imported.status == 0, "\(imported.err)")
        #expect(imported.out == "\(zipA): 2 visits: 2 added, 0 already present, 0 conflicts, 0 renumbered\n"
                              + "\(zipA): 3 photos: 3 added, 0 already present, 0 skipped (their visit not imported)\n")
        let logB = try VisitLog(path: b, create: false)
        #expect(try logB.allPhotos() == (try log.allPhotos()))
        for p in try log.allPhotos() {
            #expect(try logB.photoBytes(id: p.id) == (try log.photoBytes(id: p.id)))
            #expect(try logB.photoBytes(id: p.id, thumbnail: true) == (try log.photoBytes(id: p.id, thumbnail: true)))
        }
        #expect(eki(["visit", "export", "--with-photos", zipB, "--visits", b]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: zipA)) == Data(contentsOf: URL(fileURLWithPath: zipB)))

        // Again: nothing new.
        let again = eki(["visit", "import", zipA, "--keep-orphans", "--visits", b, "--db", path("none.gpkg")])
        #expect(again.out.hasSuffix("\(zipA): 3 photos: 0 added, 3 already present, 0 skipped (their visit not imported)\n"))
        #expect(try VisitLog(path: b, create: false).allPhotos().count == 3)
    }

    @Test func anArchivedPhotoWithMetadataIsRefused() throws {
        let jpeg = try PhotoProcessor().process(try PhotoProcessor.sample(width: 800, height: 600), source: "s")
        let tagged = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x08] + Array("Exif\0\0".utf8) + jpeg.jpeg.dropFirst(2)
        let zip = path("tagged.zip")
        try VisitArchive.write(visits: [Visit(id: 1, stationKey: "jr-east/c/東京")], photos: [
            ArchivedVisitPhoto(id: 1, visitID: 1, photo: NewVisitPhoto(jpeg: tagged, width: 800, height: 600, thumbnail: jpeg.thumbnail,
                                                                       thumbnailWidth: 480, thumbnailHeight: 360)),
        ], to: zip)
        let b = path("b.sqlite")
        let r = eki(["visit", "import", zip, "--keep-orphans", "--visits", b, "--db", path("none.gpkg")])
        #expect(r.status == 1)
        #expect(r.err == "eki visit: \(zip)/photos/1.jpg: not a photo as EkiKit stores them (it holds metadata (marker 0xFFE1))\n")
        #expect(!FileManager.default.fileExists(atPath: b))
    }
}

/// `eki visit share --png FILE --photos`: each day's thumbnails beside its rows.
@Suite(.serialized) struct VisitSharePhotosTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    @Test func thumbnailsStandBesideTheirDay() throws {
        let db = sampleDatabase(in: dir), visits = path("visits.sqlite")
        for args in [["jr-east/c/小田原", "--date", "2019-08-13", "--kind", "board"],
                     ["jr-central/s/小田原", "--date", "2019-08-13", "--kind", "alight", "--note", "こだま"],
                     ["jr-east/c/東京", "--date", "2019-08-20"]] {
            #expect(eki(["visit", "add"] + args + ["--db", db, "--visits", visits]).status == 0)
        }
        let a = path("a.jpg"), b = path("b.png")
        try Data(try PhotoProcessor.sample(width: 1600, height: 1200)).write(to: URL(fileURLWithPath: a))
        try Data(try PhotoProcessor.sample(width: 900, height: 1200, format: "png")).write(to: URL(fileURLWithPath: b))
        #expect(eki(["visit", "photo", "add", "1", a, b, "--visits", visits]).status == 0)
        #expect(eki(["visit", "photo", "add", "2", a, "--visits", visits]).status == 0)
        #expect(eki(["visit", "photo", "add", "3", b, "--visits", visits]).status == 0)

        let plain = path("plain.png"), withPhotos = path("photos.png")
        let r0 = eki(["visit", "share", "--png", plain, "--db", db, "--visits", visits])
        let r1 = eki(["visit", "share", "--png", withPhotos, "--photos", "--db", db, "--visits", visits])
        #expect(r0.status == 0 && r1.status == 0, "\(r0.err)\(r1.err)")
        #expect(!r0.out.contains("photo"))
        // 13 August: its visits' three photos; 20 August: one.
        #expect(r1.out.hasSuffix(", 4 photos\n"), "\(r1.out)")
        let p0 = try PNGImage(path: plain), p1 = try PNGImage(path: withPhotos)
        #expect(p1.width == 780 && p1.height >= p0.height)
        // The thumbnails' column (84 px a thumbnail beside the 16 px margin, at 2×): coloured pixels.
        let white = RGB(hex: 0xFFFFFF)
        func coloured(_ p: PNGImage) -> Int { p.count(differingFrom: white, x: 780 - 32 - 168, y: 0, width: 168, height: p.height) }
        #expect(coloured(p1) - coloured(p0) > 4 * 168 * 126 * 8 / 10, "\(coloured(p1)) vs \(coloured(p0))")
        #expect(eki(["visit", "share", "--photos", "--db", db, "--visits", visits]).status == 64)
    }
}
