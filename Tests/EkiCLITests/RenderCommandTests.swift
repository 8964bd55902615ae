import EkiCLI
import EkiGeocoding
import EkiKit
@testable import EkiRender
import EkiTestSupport
import Foundation
import Testing

/// `eki render` and `eki visit share --png` on the N02 sample in Datasets/ (39 entries around
/// 小田原 and 東京).
@Suite(.serialized) struct RenderCommandTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func sampleDatabase() -> String { EkiCLITests.sampleDatabase(in: dir) }

    @Test func rendersTheBoxAndPrintsWhatItDrew() throws {
        let db = sampleDatabase(), out = path("odawara.png"), visits = path("none.sqlite")
        let r = eki(["render", "--db", db, "--visits", visits, "--bbox", "139.10,35.22,139.20,35.30", "-o", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("\(out): 1200x800 px, 21 entries in view (0 visited), 17 pins, "))
        let image = try PNGImage(path: out)
        #expect((image.width, image.height) == (1200, 800))
        let two = eki(["render", "--db", db, "--visits", visits, "--bbox", "139.10,35.22,139.20,35.30", "--size", "600x400",
                       "--scale", "2", "--labels", "none", "-o", out])
        #expect(two.out == "\(out): 1200x800 px, 21 entries in view (0 visited), 17 pins, 0 names\n", "\(two.err)")
        // --all frames every open entry: the 小田原 and 東京 clusters, 39 entries.
        let all = eki(["render", "--db", db, "--visits", visits, "--all", "--size", "800x600", "-o", out])
        #expect(all.out.hasPrefix("\(out): 800x600 px, 39 entries in view (0 visited), "), "\(all.err)")
    }

    @Test func placeCentresTheBoxLikeGeocode() throws {
        let db = sampleDatabase(), out = path("place.png")
        let r = eki(["render", "--db", db, "--visits", path("none.sqlite"), "--place", "小田原", "--provider", "stations",
                     "--span", "3000", "-o", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("place: 小田原駅 (35.256286, 139.155579) from stations\n"), "\(r.err)")
        #expect(r.out == "\(out): 1200x800 px, 8 entries in view (0 visited), 4 pins, 4 names\n")
    }

    @Test func visitFiltersChangeThePins() throws {
        let db = sampleDatabase(), visits = path("filters.sqlite"), out = path("filters.png")
        #expect(eki("visit", "add", "hakone-tozan/c/風祭", "--date", "2019-08-14", "--db", db, "--visits", visits).status == 0)
        #expect(eki("visit", "add", "jr-east/c/小田原", "--date", "2019-08-13", "--db", db, "--visits", visits).status == 0)
        let box = ["--db", db, "--visits", visits, "--bbox", "139.10,35.22,139.20,35.30", "-o", out]
        #expect(eki(["render"] + box).out.hasPrefix("\(out): 1200x800 px, 21 entries in view (2 visited), 17 pins, "))
        #expect(eki(["render", "--visited"] + box).out.hasPrefix("\(out): 1200x800 px, 2 entries in view (2 visited), 2 pins, "))
        #expect(eki(["render", "--unvisited"] + box).out.hasPrefix("\(out): 1200x800 px, 19 entries in view (0 visited), 16 pins, "))
    }

    @Test func badOptionsAreUsageErrors() {
        let db = sampleDatabase(), out = path("bad.png")
        let cases: [([String], String)] = [
            (["render", "--db", db, "--all"], "eki render: give -o FILE.png\n"),
            (["render", "--db", db, "-o", out], "eki render: give exactly one of --bbox, --place, --line or --all\n"),
            (["render", "--db", db, "--all", "--bbox", "139,35,140,36", "-o", out], "eki render: give exactly one of --bbox, --place, --line or --all\n"),
            (["render", "--db", db, "--all", "--size", "0x10", "-o", out], "eki render: --size needs WxH with each side 1…10000 pixels, got '0x10'\n"),
            (["render", "--db", db, "--all", "--scale", "3", "-o", out], "eki render: --scale must be 1 or 2, got '3'\n"),
            (["render", "--db", db, "--all", "--labels", "some", "-o", out], "eki render: --labels must be auto, all or none, got 'some'\n"),
            (["render", "--db", db, "--all", "--span", "100", "-o", out], "eki render: --span needs --place\n"),
            (["render", "--db", db, "--bbox", "140,35,139,36", "-o", out],
             "eki render: invalid bbox '140,35,139,36': minLon greater than maxLon (a box across 180°) is not accepted here\n"),
        ]
        for (args, message) in cases {
            let r = eki(args)
            #expect(r.status == 64 && r.err == message, "\(args): \(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        // An output into a missing folder is a data error naming the folder, before any work.
        let r = eki(["render", "--db", db, "--visits", path("none.sqlite"), "--all", "-o", path("missing/dir/x.png")])
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err == "eki render: \(path("missing/dir/x.png")): cannot write it: the folder \(path("missing/dir")) does not exist (create it first)\n")
        #expect(!FileManager.default.fileExists(atPath: path("missing")))
        #expect(FileManager.default.createFile(atPath: path("plain"), contents: Data()))
        let file = eki(["render", "--db", db, "--visits", path("none.sqlite"), "--all", "-o", path("plain/x.png")])
        #expect(file.status == 1 && file.err == "eki render: \(path("plain/x.png")): cannot write it: \(path("plain")) is a file, not a folder\n")
    }

    /// The README's example visits and the visit-log suite's seed (with collapsed ranges): the
    /// picture's rows are the text share's lines, one for one, in Japanese (drawn with the CJK
    /// font: no character without a glyph) and in English.
    @Test func sharePNGHasTheTextSharesRows() throws {
        let db = sampleDatabase()
        let readme = path("readme.sqlite")
        for args in [["小田原", "--operator", "JR東海", "--date", "2019-08-13", "--kind", "alight"],
                     ["jr-east/c/小田原", "--date", "2019-08-13", "--kind", "board", "--note", "踊り子"],
                     ["風祭", "--date", "2019-08"]] {
            #expect(eki(["visit", "add"] + args + ["--db", db, "--visits", readme]).status == 0)
        }
        let seeded = path("seed.sqlite"), seedFile = path("seed.csv")
        try VisitLogCommandTests.seed.write(toFile: seedFile, atomically: true, encoding: .utf8)
        #expect(eki("visit", "import", seedFile, "--keep-orphans", "--visits", seeded).status == 0)

        let store = try StationStore(path: db, readOnly: true)
        for (visits, range, expectedDays) in [(readme, ["--since", "2019-08-01"], 2), (seeded, [], 9)] {
            for language in Language.allCases {
                let lang = ["--lang", language.rawValue]
                let text = eki(["visit", "share", "--db", db, "--visits", visits] + range + lang).out
                let summary = try VisitShare.summary(log: VisitLog(path: visits, create: false), store: store,
                                                     range: range.isEmpty ? VisitDateRange() : VisitDateRange(since: VisitDate(parsing: "2019-08-01")),
                                                     language: language)
                #expect(summary.text == text)
                let days = summary.lines.filter { $0.kind == .day || $0.kind == .emptyDays }
                #expect(days.count == expectedDays, "\(days)")
                let png = path("share-\(expectedDays)-\(language).png")
                let r = eki(["visit", "share", "--db", db, "--visits", visits, "--png", png] + range + lang)
                #expect(r.status == 0, "\(r.err)")
                #expect(r.out.contains(" px, \(expectedDays) day rows, "), "\(r.out)")
                let image = try PNGImage(path: png)
                #expect(image.width == 780)
                // The picture's rows, redrawn from the same summary, are the text's lines in order.
                let picture = try SharePicture(summary: summary, stations: [], isVisited: { _ in false })
                #expect(picture.rows.map(\.text) == text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(picture.rows.filter { $0.kind == .day || $0.kind == .emptyDays }.map(\.text) == days.map(\.text))
                #expect(picture.unknownGlyphs == 0, "\(language): characters drawn as boxes")
            }
        }
        // The seed's two collapsed runs are rows of their own.
        let seedText = eki(["visit", "share", "--db", db, "--visits", seeded]).out
        #expect(seedText.contains("2019年8月15日　記録のない日\n") && seedText.contains("2019年8月17日〜19日　記録のない日が 3 日\n"))
        // A missing folder is named before anything is drawn.
        let missing = path("no/such/share.png")
        let r = eki(["visit", "share", "--db", db, "--visits", seeded, "--png", missing])
        #expect(r.status == 1 && r.err == "eki visit: \(missing): cannot write it: the folder \(path("no/such")) does not exist (create it first)\n")
    }

    /// The legend and credits of `eki render` in each language.
    @Test func renderSpeaksTheLanguageAsked() throws {
        let db = sampleDatabase(), visits = path("lang.sqlite")
        #expect(eki("visit", "add", "jr-east/c/小田原", "--date", "2019-08-13", "--db", db, "--visits", visits).status == 0)
        let box = ["--db", db, "--visits", visits, "--bbox", "139.10,35.22,139.20,35.30", "--size", "600x400",
                   "--labels", "none"]   // names would make room for the legend, whose size differs
        let ja = path("ja.png"), en = path("en.png")
        #expect(eki(["render"] + box + ["-o", ja]).status == 0)
        #expect(eki(["render", "--lang", "en"] + box + ["-o", en]).status == 0)
        // The legend's box (top left) differs; the map under it is the same.
        let a = try PNGImage(path: ja), b = try PNGImage(path: en)
        var legendDiffers = 0, mapDiffers = 0
        for y in stride(from: 0, to: 400, by: 2) {
            for x in stride(from: 0, to: 600, by: 2) where a.pixel(x, y) != b.pixel(x, y) {
                if x < 200 && y < 70 { legendDiffers += 1 } else { mapDiffers += 1 }
            }
        }
        #expect(legendDiffers > 50 && mapDiffers == 0, "legend \(legendDiffers), elsewhere \(mapDiffers)")
        let bad = eki(["render", "--lang", "de"] + box + ["-o", en])
        #expect(bad.status == 64 && bad.err == "eki render: --lang must be ja or en, got 'de'\n")
    }
}

/// `eki render --tiles URL`: tiles from the cache (no network here) drawn in place of the
/// basemap, credited, and a bad URL refused.
@Suite struct RenderTilesTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    @Test func cachedTilesReplaceTheBasemap() throws {
        let db = path("sample.gpkg")
        #expect(eki("import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv")).status == 0)
        // A "tile" that is land colour all over (a picture of inland 長野 without pins).
        let land = try MapRenderer.render(MapRequest(bbox: BoundingBox(minLon: 138.0, minLat: 36.0, maxLon: 138.001, maxLat: 36.001),
                                                     width: 256, height: 256, decorations: false),
                                          stations: [], isVisited: { _ in false }).png()
        // Port 9 (discard) on loopback: nothing answers, so every tile must come from the cache.
        let template = "http://127.0.0.1:9/{z}/{x}/{y}.png"
        let cache = path("cache")
        let box = BoundingBox(minLon: 139.10, minLat: 35.22, maxLon: 139.20, maxLat: 35.30)
        let viewport = MapViewport(fitting: box, width: 600, height: 400)
        let (z, tiles) = Tiles.cover(viewport)
        #expect(z == 12 && tiles.count == 6, "\(z) \(tiles.count)")
        for t in tiles {
            let folder = "\(cache)/eki/tiles/\(TileFetcher.folderName(template))/\(z)/\(t.x)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try land.write(to: URL(fileURLWithPath: "\(folder)/\(t.y).png"))
        }
        let out = path("tiles.png"), plain = path("plain.png")
        let env = ["XDG_CACHE_HOME": cache, "EKI_VISITS": path("none.sqlite")]
        let args = ["render", "--db", db, "--bbox", "139.10,35.22,139.20,35.30", "--size", "600x400", "--labels", "none"]
        let r = eki(args + ["--tiles", template, "-o", out], environment: env)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("tiles: 0 fetched, 6 from the cache\n"), "\(r.err)")
        #expect(eki(args + ["-o", plain], environment: env).status == 0)
        // Sagami Bay, south-east of 小田原: sea on the basemap, land colour from the tiles.
        let sea = viewport.point(Coordinate(lat: 35.23, lon: 139.19))
        #expect(try PNGImage(path: plain).pixel(Int(sea.x), Int(sea.y), matches: Basemap.sea))
        #expect(try PNGImage(path: out).pixel(Int(sea.x), Int(sea.y), matches: Basemap.land))
        // A tile that is missing from the cache is fetched, and the failure is a data error.
        try FileManager.default.removeItem(atPath: "\(cache)/eki/tiles/\(TileFetcher.folderName(template))/\(z)/\(tiles[0].x)/\(tiles[0].y).png")
        let failed = eki(args + ["--tiles", template, "-o", out], environment: env)
        #expect(failed.status == 1 && failed.err.hasPrefix("eki render: "), "\(failed.err)")
    }

    @Test func aTileURLNeedsTheThreePlaceholders() {
        let r = eki("render", "--all", "--tiles", "https://tile.example.org/{z}/{x}.png", "-o", path("x.png"))
        #expect(r.status == 64)
        #expect(r.err == "eki render: --tiles needs an http(s) URL with {z}, {x} and {y}, got 'https://tile.example.org/{z}/{x}.png'\n")
    }
}
