import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// `eki show` and the option checks of `eki serve`.
@Suite struct CommandTests {
    @Test func showPrintsOneEntryWhole() throws {
        let s = try TestServer()
        let visit = try s.write("POST", "/api/visits", json: #"{"key":"jr-central/s/小田原","date":"2019-08-13","kind":"alight"}"#)
        #expect(visit.status == 201)
        let table = runEki(["show", "jr-central/s/小田原", "--db", s.db, "--visits", s.visits])
        #expect(table.status == 0)
        #expect(table.out == """
            name        小田原
            reading     -
            latin name  -
            operator    JR東海 / 東海旅客鉄道 (jr-central)
            class       新幹線 (shinkansen)
            lines       東海道新幹線
            prefecture  神奈川県
            point       35.25621, 139.154765
            sources     n02:005217
            completed   2019-08-13
            key         jr-central/s/小田原
            visits (1):
              1  2019-08-13  alight

            """)
        let json = runEki(["show", "jr-central/s/小田原", "--db", s.db, "--visits", s.visits, "--format", "geojson"])
        #expect(parsed(json.out) == parsed(try s.get("/api/station?key=\(percent("jr-central/s/小田原"))").text))
    }

    @Test func showListsTheEntriesANameMatches() throws {
        let s = try TestServer()
        let many = runEki(["show", "小田原駅", "--db", s.db, "--visits", s.visits])
        #expect(many.status == 1)
        #expect(many.err.hasPrefix("eki show: '小田原駅' matches 5 entries; give one of their keys:\n"))
        #expect(many.err.contains("jr-central/s/小田原") && many.err.contains("izuhakone/c/小田原"))
        let one = runEki(["show", "早川", "--db", s.db, "--visits", s.visits])
        #expect(one.status == 0 && one.out.contains("key         jr-east/c/早川"))
        #expect(runEki(["show", "どこにもない", "--db", s.db, "--visits", s.visits]).status == 1)
        #expect(runEki(["show", "--db", s.db]).status == 64)
        #expect(runEki(["show", "早川", "--format", "csv", "--db", s.db]).status == 64)
    }

    @Test(arguments: [
        ["--listen", "8080"], ["--listen", "127.0.0.1:http"], ["--tiles", "ftp://x/{z}/{x}/{y}"], ["--tiles", "https://x/tile.png"],
        ["--pins", "0"], ["--threads", "100"], ["--tile-attribution", "x"], ["extra"],
        ["--aerial-tiles", "ftp://x/{z}/{x}/{y}"], ["--aerial-attribution", "x"], ["--aerial-tiles", "none", "--aerial-attribution", "x"],
    ])
    func serveRefusesBadOptions(_ options: [String]) {
        let r = runEki(["serve", "--db", "/nonexistent.gpkg"] + options)
        #expect(r.status == 64, "\(options): \(r.err)")
    }

    @Test func serveNeedsAStationDatabase() {
        let folder = TestPaths.temporaryDirectory()
        let r = runEki(["serve", "--db", folder.appendingPathComponent("none.gpkg").path, "--visits",
                        folder.appendingPathComponent("v.sqlite").path, "--listen", "127.0.0.1:0"])
        #expect(r.status == 1 && r.err.contains("no station database"))
    }
}
