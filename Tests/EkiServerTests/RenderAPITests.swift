import EkiKit
import EkiRender
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// `/api/render.png` on the sample database: the picture `eki render --bbox` draws.
@Suite struct RenderAPITests {
    let odawaraBox = "139.10,35.22,139.20,35.30"

    @Test func aPNGOfTheBoxColouredByTheLog() throws {
        let s = try TestServer()
        let r = try s.get("/api/render.png?bbox=\(odawaraBox)&width=600&height=400&scale=2")
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "image/png")
        let image = try PNGImage(data: Data(r.body))
        #expect((image.width, image.height) == (1200, 800))
        // 風祭's pin (a lone entry) is red, then green once visited through the API.
        let store = try StationStore(path: s.db, readOnly: true)
        let kazamatsuri = try #require(try store.entries.station(key: "hakone-tozan/c/風祭"))
        let p = MapViewport(fitting: try BoundingBox(parsing: odawaraBox), width: 600, height: 400).point(kazamatsuri.coordinate)
        #expect(image.pixel(Int(p.x * 2), Int(p.y * 2), matches: MapRenderer.unvisited))
        let added = try s.write("POST", "/api/visits", json: #"{"key":"hakone-tozan/c/風祭","date":"2019-08-14"}"#)
        #expect(added.status == 201, "\(added.text)")
        let after = try PNGImage(data: Data(try s.get("/api/render.png?bbox=\(odawaraBox)&width=600&height=400&scale=2").body))
        #expect(after.pixel(Int(p.x * 2), Int(p.y * 2), matches: MapRenderer.visitedColour))
        // The unvisited view leaves it out: land shows through.
        let unvisited = try PNGImage(data: Data(try s.get("/api/render.png?bbox=\(odawaraBox)&width=600&height=400&scale=2&filter=unvisited").body))
        #expect(!unvisited.pixel(Int(p.x * 2), Int(p.y * 2), matches: MapRenderer.visitedColour)
                && !unvisited.pixel(Int(p.x * 2), Int(p.y * 2), matches: MapRenderer.unvisited))
    }

    /// The legend is in the request's language: the server's picture is the library's in that language.
    @Test func theLegendInTheRequestsLanguage() throws {
        let s = try TestServer()
        let box = try BoundingBox(parsing: odawaraBox)
        let store = try StationStore(path: s.db, readOnly: true)
        let log = try VisitLog(path: s.visits, create: false)
        let visits = try VisitedStations(log: log, store: store)
        let stations = try store.spatial.stations(ViewportQuery(bbox: MapViewport(fitting: box, width: 600, height: 400).visibleBox)).stations
        var pictures: [Language: [UInt8]] = [:]
        for language in Language.allCases {
            var request = MapRequest(bbox: box, width: 600, height: 400)
            request.language = language
            pictures[language] = Array(try MapRenderer.render(request, stations: stations, visits: visits).png())
        }
        #expect(pictures[.ja] != pictures[.en])
        let target = "/api/render.png?bbox=\(odawaraBox)&width=600&height=400"
        #expect(try s.get(target).body == pictures[.ja])
        #expect(try s.get(target, headers: ["Accept-Language": "ja"]).body == pictures[.ja])
        #expect(try s.get(target, headers: ["Accept-Language": "en-GB,en;q=0.9"]).body == pictures[.en])
    }

    @Test func badParametersAre400() throws {
        let s = try TestServer()
        for (target, message) in [
            ("/api/render.png", "parameter 'bbox' is required (minLon,minLat,maxLon,maxLat)"),
            ("/api/render.png?bbox=\(odawaraBox)&scale=3", "'scale' needs a whole number 1…2, got '3'"),
            ("/api/render.png?bbox=\(odawaraBox)&width=5000", "'width' needs a whole number 1…4000, got '5000'"),
            ("/api/render.png?bbox=\(odawaraBox)&labels=few", "'labels' must be auto, all or none, got 'few'"),
        ] {
            let r = try s.get(target, headers: ["Accept-Language": "en"])
            #expect(r.status == 400 && r.object["message"] as? String == message, "\(target): \(r.text)")
        }
        #expect(try s.send("POST", "/api/render.png?bbox=\(odawaraBox)").status == 405)
    }
}
