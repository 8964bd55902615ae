import EkiCLI
import EkiKit
@testable import EkiRender
import EkiTestSupport
import Foundation
import Testing

/// `eki render --line`: the line framed and drawn through its stations in order, on the
/// N02-23 + station_database database `RealData` builds once.
@Suite struct RenderLineTests {
    let dir = TestPaths.temporaryDirectory()

    /// 東京メトロ 銀座線 (19 stations 浅草 → 渋谷): the stroke passes between each pair of
    /// neighbours, so most midpoints (those no pin or name covers) carry the line's blue.
    @Test(.needsN02AndStationDatabase) func ginzaLineIsFramedAndDrawnInOrder() throws {
        let out = dir.appendingPathComponent("ginza.png").path
        let r = eki(["render", "--db", RealData.combinedDatabase, "--visits", dir.appendingPathComponent("v.sqlite").path,
                     "--line", "銀座線", "--size", "800x800", "--labels", "none", "-o", out])
        #expect(r.status == 0, "\(r.err)")
        let store = RealData.open(RealData.combinedDatabase)
        let stops = try #require(try store.lines.line(id: "tokyo-metro/c/銀座線")).stops
        #expect(stops.count == 19)
        let box = try #require(MapViewport.framing(stops.map(\.station.coordinate), margin: 0.08))
        let viewport = MapViewport(fitting: box, width: 800, height: 800)
        let image = try PNGImage(path: out)
        var blue = 0
        for (a, b) in zip(stops, stops.dropFirst()) {
            let p = viewport.point(Coordinate(lat: (a.station.coordinate.lat + b.station.coordinate.lat) / 2,
                                              lon: (a.station.coordinate.lon + b.station.coordinate.lon) / 2))
            let px = image.pixel(Int(p.x), Int(p.y))
            if px.b > 150 && px.r < 120 { blue += 1 }
        }
        #expect(blue >= 12, "\(blue) of 18 midpoints are on the stroke")
        // Every station of the line is in the picture, so the legend counts at least 19.
        let drawn = try #require(r.out.split(separator: " ").firstIndex(of: "entries").map { Int(r.out.split(separator: " ")[$0 - 1])! })
        #expect(drawn >= 19)
    }

    /// The line's stations are drawn above the other pins, ringed in the line colour, and each
    /// is named, even in central Tokyo where names crowd.
    @Test(.needsN02AndStationDatabase) func theLinesStationsAreOnTopAndNamed() throws {
        let out = dir.appendingPathComponent("ginza-named.png").path
        let r = eki(["render", "--db", RealData.combinedDatabase, "--visits", dir.appendingPathComponent("v2.sqlite").path,
                     "--line", "銀座線", "--size", "800x600", "-o", out])
        #expect(r.status == 0, "\(r.err)")
        let store = RealData.open(RealData.combinedDatabase)
        let stops = try #require(try store.lines.line(id: "tokyo-metro/c/銀座線")).stops
        let keys = Set(stops.map(\.station.key))
        #expect(keys.count == 19)
        let box = try #require(MapViewport.framing(stops.map(\.station.coordinate), margin: 0.08))
        let view = MapViewport(fitting: box, width: 800, height: 600).visibleBox
        let stations = try store.spatial.stations(ViewportQuery(bbox: view)).stations
        let picture = try MapRenderer.render(MapRequest(bbox: box, width: 800, height: 600, highlighted: keys),
                                             stations: stations, isVisited: { _ in false })
        let ringed = picture.markers.filter(\.isHighlighted)
        // Every station of the line is in a ringed marker, and every ringed marker is named.
        #expect(keys.allSatisfy { k in ringed.contains { $0.keys.contains(k) } })
        let named = Set(picture.labels.map(\.text))
        #expect(ringed.allSatisfy { named.contains($0.name) }, "\(ringed.map(\.name).filter { !named.contains($0) })")
        // Ringed markers come first: they are drawn last, above the rest.
        #expect(picture.markers.prefix(ringed.count).allSatisfy { $0.isHighlighted })
        let image = try PNGImage(path: out)
        var rings = 0
        // The ring, seen on a diagonal of the pin (names are placed beside, above or below it).
        for m in ringed {
            let d = (m.radius + 2) * 0.7071
            let seen = [(d, d), (-d, d), (d, -d), (-d, -d)].contains { dx, dy in
                let x = Int((m.x + dx).rounded()), y = Int((m.y + dy).rounded())
                guard (0..<800).contains(x), (0..<600).contains(y) else { return false }
                let p = image.pixel(x, y)
                return p.b > 150 && p.r < 120
            }
            if seen { rings += 1 }
        }
        #expect(rings >= ringed.count * 3 / 4, "\(rings) of \(ringed.count) rings seen")
    }

    @Test(.needsN02AndStationDatabase) func unknownAndAmbiguousLines() {
        let out = dir.appendingPathComponent("x.png").path
        let unknown = eki(["render", "--db", RealData.combinedDatabase, "--line", "存在しない線", "-o", out])
        #expect(unknown.status == 1 && unknown.err == "eki render: no line is called '存在しない線' (`eki lines` lists them)\n")
        let close = eki(["render", "--db", RealData.combinedDatabase, "--line", "銀坐線", "-o", out])
        #expect(close.status == 1 && close.err == "eki render: no line is called '銀坐線'; did you mean 銀座線 (東京メトロ)?\n")
        let both = eki(["render", "--db", RealData.combinedDatabase, "--line", "銀座線", "--all", "-o", out])
        #expect(both.status == 64 && both.err.contains("give exactly one of --bbox, --place, --line or --all"))
    }
}
