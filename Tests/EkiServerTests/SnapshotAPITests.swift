import EkiCLI
import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// `GET /api/snapshot`: the page's offline copy of the station database — its shape, its search
/// forms (the search index's own), gzip on the wire, the entity tag and 304, the service worker's
/// headers.
@Suite struct SnapshotAPITests {
    /// The answer's body decoded from gzip with the system's gzip (a tool outside this package).
    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let folder = TestPaths.temporaryDirectory()
        let file = folder.appendingPathComponent("snapshot.json.gz")
        try Data(bytes).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/gzip")
        p.arguments = ["-dc", file.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "gzip -d accepts the body")
        return Array(data)
    }

    @Test func theSampleSnapshotHoldsEveryOpenEntryWithItsSearchForms() throws {
        let s = try TestServer()
        let r = try s.get("/api/snapshot")
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "application/json; charset=utf-8")
        #expect(r.headers["content-encoding"] == nil && r.headers["vary"] == "Accept-Encoding")
        #expect(r.headers["cache-control"] == "no-cache")
        let o = r.object
        let fields = o["fields"] as? [String] ?? []
        #expect(fields == ["key", "name", "reading", "operator_short", "class", "lines", "prefecture", "lon", "lat", "kind",
                           "name_forms", "reading_forms", "romaji_forms", "line_forms", "status"])
        let entries = o["entries"] as? [[Any]] ?? []
        let store = try StationStore(path: s.db, readOnly: true)
        let open = try store.entries.count(includeClosed: false)
        #expect(o["count"] as? Int == entries.count && entries.count == open)
        #expect(o["fold"] as? Int == TextFold.foldVersion)
        let column = { (name: String) in fields.firstIndex(of: name)! }
        // In search result order, and each entry's forms are the folds `eki search` compares with.
        let keys = entries.map { $0[column("key")] as? String ?? "" }
        let byKey = Dictionary(uniqueKeysWithValues: zip(keys, entries))
        let odawara = try #require(byKey["jr-east/c/小田原"])
        // (N02 gives no readings: null, and no reading or romaji forms.)
        #expect(odawara[column("name")] as? String == "小田原" && odawara[column("reading")] is NSNull)
        #expect((odawara[column("name_forms")] as? String)?.split(separator: "\t").first.map(String.init) == SearchFold.name("小田原"))
        #expect(odawara[column("reading_forms")] as? String == "" && odawara[column("romaji_forms")] as? String == "")
        let prefectures = o["prefectures"] as? [String] ?? []
        #expect(prefectures.count == 47 && prefectures[odawara[column("prefecture")] as? Int ?? -1] == "神奈川県")
        let lines = o["lines"] as? [[Any]] ?? []
        let lineNames = (odawara[column("lines")] as? [Int] ?? []).map { lines[$0][1] as? String ?? "" }
        #expect(!lineNames.isEmpty && lineNames.allSatisfy { !$0.isEmpty })
        #expect(abs((odawara[column("lat")] as? Double ?? 0) - 35.2564) < 0.01)
        let hits = try store.search.stations(matching: "小田原", options: SearchOptions(by: .name, limit: nil))
        #expect(hits.count >= 5)
        #expect(Set(hits.map(\.station.key)).isSubset(of: Set(keys)))
        // The variant-kanji table of the fold, for the page's query fold.
        let variants = o["kanji_variants"] as? [String: String] ?? [:]
        #expect(variants["麴"] == "麹" && variants.count == KanjiVariants.pairs.count)
        #expect(o["aliases"] is [String: String])
    }

    @Test func gzipOnTheWireTheEntityTagAndNotModified() throws {
        let s = try TestServer()
        let plain = try s.get("/api/snapshot")
        let zipped = try s.get("/api/snapshot", headers: ["Accept-Encoding": "br;q=1, gzip;q=0.8"])
        #expect(zipped.status == 200 && zipped.headers["content-encoding"] == "gzip")
        #expect(zipped.body.count < plain.body.count / 2)
        #expect(try Self.gunzip(zipped.body) == plain.body)
        let etag = try #require(plain.headers["etag"])
        #expect(etag.hasPrefix("\"") && zipped.headers["etag"] == etag)
        let again = try s.get("/api/snapshot", headers: ["If-None-Match": etag, "Accept-Encoding": "gzip"])
        #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == etag)
        #expect(try s.get("/api/snapshot", headers: ["If-None-Match": "\"other\""]).status == 200)
        #expect(try s.get("/api/snapshot", headers: ["Accept-Encoding": "gzip;q=0"]).headers["content-encoding"] == nil)
        #expect(try s.get("/api/snapshot?x=1").status == 400)
        // Another import changes the data, and with it the tag and the count.
        let csv = s.folder.appendingPathComponent("one-more.csv")
        try "id,name,reading,lat,lon,operator,line,class\n999001,試験駅,しけんえき,35.30,139.20,試験鉄道,試験線,在来線\n"
            .write(to: csv, atomically: true, encoding: .utf8)
        let status = EkiCommandLine.run(["import", "--db", s.db, csv.path], console: Console(out: { _ in }, err: { _ in }))
        #expect(status == 0)
        let changed = try s.get("/api/snapshot", headers: ["If-None-Match": etag])
        #expect(changed.status == 200 && changed.headers["etag"] != etag)
        #expect(changed.object["count"] as? Int == (plain.object["count"] as? Int ?? 0) + 1)
        // Its reading's fold and the romaji derived from it (Hepburn) come with it.
        let fields = changed.object["fields"] as? [String] ?? []
        let added = (changed.object["entries"] as? [[Any]] ?? []).first { $0[1] as? String == "試験駅" } ?? []
        #expect(added.count == fields.count)
        #expect(added[fields.firstIndex(of: "reading_forms")!] as? String == SearchFold.reading("しけんえき"))
        #expect(added[fields.firstIndex(of: "romaji_forms")!] as? String == "shikeneki")
    }

    @Test func theServiceWorkerAndTheManifestAreServedForAnInstallablePage() throws {
        let s = try TestServer()
        let sw = try s.get("/sw.js")
        #expect(sw.status == 200 && sw.headers["content-type"] == "text/javascript; charset=utf-8")
        // At the root its scope may be the whole site without Service-Worker-Allowed; no-cache: a
        // new version is fetched at the next visit.
        #expect(sw.headers["cache-control"] == "no-cache")
        let m = try s.get("/manifest.webmanifest")
        #expect(m.status == 200 && m.headers["content-type"] == "application/manifest+json")
        #expect(m.object["short_name"] as? String == "降りつぶし" && m.object["display"] as? String == "standalone")
        let icons = m.object["icons"] as? [[String: Any]] ?? []
        for size in [192, 512] {
            let png = try s.get("/icon-\(size).png")
            #expect(png.status == 200 && png.headers["content-type"] == "image/png")
            // IHDR: width and height, big-endian, at bytes 16…23.
            let be = { (i: Int) in png.body[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
            #expect(png.body.count > 24 && be(16) == size && be(20) == size)
            #expect(icons.contains { $0["src"] as? String == "/icon-\(size).png" && $0["purpose"] as? String == "maskable" })
        }
        let page = try s.get("/")
        #expect(page.text.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">"))
        #expect(page.text.contains("<meta name=\"eki-csrf\" content=\"\(s.token)\">"))
        #expect(try s.get("/login.html").status == 200)
    }
}
