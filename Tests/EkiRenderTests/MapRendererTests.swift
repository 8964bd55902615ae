import EkiKit
@testable import EkiRender
import EkiTestSupport
import Foundation
import Testing

/// Pictures of the N02 sample around 小田原: size and scale, a pin of the right colour at every
/// entry, one marker for 小田原's five entries, the 小田原 name drawn, and a golden image.
@Suite struct MapRendererTests {
    static let request = MapRequest(bbox: Sample.odawara, width: 1200, height: 800)

    @Test func pngSizeAndScale() throws {
        let stations = try Sample.stations()
        let (one, image1) = try Sample.draw(Self.request, stations)
        let data = try one.png()
        #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(image1.width == 1200 && image1.height == 800)
        var twice = Self.request
        twice.scale = 2
        let (two, image2) = try Sample.draw(twice, stations)
        #expect(image2.width == 2400 && image2.height == 1600)
        #expect((two.pixelWidth, two.pixelHeight) == (2400, 1600))
        // The same layout in logical pixels at both scales.
        #expect(two.markers == one.markers && two.labels == one.labels)
        var bad = Self.request
        bad.scale = 3
        #expect(throws: RenderError.self) { try MapRenderer.render(bad, stations: stations) { _ in false } }
        bad = Self.request
        bad.width = 0
        #expect(throws: RenderError.self) { try MapRenderer.render(bad, stations: stations) { _ in false } }
    }

    @Test func everyEntryHasOnePinOfItsColour() throws {
        let stations = try Sample.stations()
        #expect(stations.count == 21)
        let visited: Set = ["hakone-tozan/c/箱根湯本", "hakone-tozan/c/風祭"]
        for scale in [1, 2] {
            var request = Self.request
            request.scale = scale
            let (picture, image) = try Sample.draw(request, stations, visited: visited)
            // Every entry in exactly one marker.
            #expect(picture.markers.flatMap(\.keys).sorted() == stations.map(\.key).sorted())
            #expect((picture.total, picture.visited) == (21, 2))
            // 小田原's five entries are one marker with a count.
            let odawara = try #require(picture.markers.first { $0.name == "小田原" })
            #expect(odawara.keys.count == 5 && odawara.keys.allSatisfy { $0.hasSuffix("/小田原") })
            for m in picture.markers {
                let colour = m.isVisited ? MapRenderer.visitedColour : MapRenderer.unvisited
                #expect(image.pixel(Int(m.x * Double(scale)), Int(m.y * Double(scale)), matches: colour),
                        "\(m.name) at \(m.x),\(m.y)")
                // A lone entry's pin is where the entry projects.
                if m.count == 1, let s = stations.first(where: { $0.key == m.keys[0] }) {
                    let p = picture.viewport.point(s.coordinate)
                    #expect(p.x == m.x && p.y == m.y)
                }
            }
            let kazamatsuri = try #require(picture.markers.first { $0.name == "風祭" })
            #expect(kazamatsuri.isVisited && !odawara.isVisited)
        }
    }

    @Test func visitsChangeThePinColour() throws {
        let stations = try Sample.stations()
        let (before, image0) = try Sample.draw(Self.request, stations)
        let m = try #require(before.markers.first { $0.name == "風祭" })
        #expect(image0.pixel(Int(m.x), Int(m.y), matches: MapRenderer.unvisited))
        let (_, image1) = try Sample.draw(Self.request, stations, visited: ["hakone-tozan/c/風祭"])
        #expect(image1.pixel(Int(m.x), Int(m.y), matches: MapRenderer.visitedColour))
        // Without the entry (the --unvisited view once it is visited), no pin is drawn there:
        // the land shows through.
        let (_, image2) = try Sample.draw(Self.request, stations.filter { $0.key != "hakone-tozan/c/風祭" })
        #expect(image2.pixel(Int(m.x), Int(m.y), matches: Basemap.land))
        // Closed entries are never drawn.
        var closed = stations
        for i in closed.indices where closed[i].key == "hakone-tozan/c/風祭" { closed[i].isOpen = false }
        let (p3, _) = try Sample.draw(Self.request, closed)
        #expect(p3.total == 20 && !p3.markers.contains { $0.name == "風祭" })
    }

    @Test func theOdawaraNameIsDrawnBesideItsPin() throws {
        let stations = try Sample.stations()
        let (picture, image) = try Sample.draw(Self.request, stations)
        let label = try #require(picture.labels.first { $0.text == "小田原" })
        let pin = try #require(picture.markers.first { $0.name == "小田原" })
        #expect(abs(label.y + label.height / 2 - pin.y) < 30 && abs(label.x - pin.x) < 80)
        // Dark text pixels inside the label's box (its background is the white halo over land).
        let ink = image.count(differingFrom: RGB(hex: 0xFFFFFF), x: Int(label.x), y: Int(label.y),
                              width: Int(label.width), height: Int(label.height), tolerance: 90)
        #expect(ink > 60, "\(ink) ink pixels")
        // With labels none, the same box is plain land.
        var none = Self.request
        none.labels = .none
        let (bare, bareImage) = try Sample.draw(none, stations)
        #expect(bare.labels.isEmpty)
        #expect(bareImage.count(differingFrom: Basemap.land, x: Int(label.x), y: Int(label.y),
                                width: Int(label.width), height: Int(label.height), tolerance: 90) == 0)
        // Auto places names without overlapping each other or any pin.
        for (i, a) in picture.labels.enumerated() {
            for b in picture.labels[(i + 1)...] {
                #expect(!(a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height))
            }
            for m in picture.markers {
                #expect(!(a.x < m.x + m.radius && m.x - m.radius < a.x + a.width && a.y < m.y + m.radius
                          && m.y - m.radius < a.y + a.height), "\(a.text) over \(m.name)")
            }
        }
    }

    @Test func legendAndAttribution() throws {
        let stations = try Sample.stations()
        let (picture, _) = try Sample.draw(Self.request, stations, visited: ["hakone-tozan/c/風祭"])
        #expect(picture.attribution == ["出典：国土数値情報（鉄道データ・行政区域データ）（国土交通省）を加工して作成"])
        var tiles = Self.request
        tiles.attribution = ["© OpenStreetMap contributors"]
        #expect(try Sample.draw(tiles, stations).0.attribution.last == "© OpenStreetMap contributors")
        let text = TextLayout(canvas: try Canvas(width: 1, height: 1, scale: 1))
        let legend = Decorations.legendBox(text: text, visited: picture.visited, total: picture.total, language: .ja)
        #expect(legend.rows == ["乗下車済 1", "未乗下車 20", "表示範囲 1 / 21 駅"])
        #expect(legend.rows.allSatisfy { text.unknownGlyphs($0) == 0 })
        let english = Decorations.legendBox(text: text, visited: 1234, total: 9585, language: .en)
        #expect(english.rows == ["visited 1,234", "unvisited 8,351", "1,234 / 9,585 in view"])
        // The credits: 国土数値情報's wording in both languages, station_database's in each.
        let sd = try Sample.stations().map { s -> Station in
            var s = s; s.sources = [SourceRef(dataset: "station-database", id: "1")]; return s
        }
        #expect(Attribution.lines(for: sd, extra: [], language: .ja)
                == ["出典：国土数値情報（行政区域データ）（国土交通省）を加工して作成", "駅データ：station_database（Seo-4d696b75）CC BY-SA 4.0"])
        #expect(Attribution.lines(for: sd, extra: [], language: .en)
                == ["出典：国土数値情報（行政区域データ）（国土交通省）を加工して作成", "Station data: station_database (Seo-4d696b75), CC BY-SA 4.0"])
    }

    /// The golden image (Fixtures/odawara-1200x800.png, made by this renderer): at most 1 % of
    /// the pixels may differ by more than 48 per component (fonts and cairo versions differ).
    /// EKI_UPDATE_GOLDEN=1 rewrites it.
    @Test func matchesTheGoldenImage() throws {
        let golden = TestPaths.package("Tests/EkiRenderTests/Fixtures/odawara-1200x800.png")
        let (picture, image) = try Sample.draw(Self.request, try Sample.stations(),
                                               visited: ["hakone-tozan/c/箱根湯本", "jr-east/c/小田原"])
        if ProcessInfo.processInfo.environment["EKI_UPDATE_GOLDEN"] == "1" { try picture.write(to: golden) }
        let expected = try PNGImage(path: golden)
        let diff = image.difference(from: expected, tolerance: 48)
        #expect(diff < 0.01, "\(diff * 100)% of the pixels differ")
    }
}

/// The optional polylines (a line's stations in order, as `eki render --line` gives) are drawn
/// under the pins, and framing it gives a box holding every point.
@Suite struct PolylineTests {
    @Test func drawnThroughItsPointsUnderThePins() throws {
        let stations = try Sample.stations()
        let store = try StationStore(path: Sample.database, readOnly: true)
        // 箱根登山鉄道 in order: 小田原 → 箱根板橋 → 風祭 → 入生田 → 箱根湯本.
        let keys = ["小田原", "箱根板橋", "風祭", "入生田", "箱根湯本"].map { "hakone-tozan/c/\($0)" }
        let line = try keys.map { try #require(try store.entries.station(key: $0)).coordinate }
        let box = try #require(MapViewport.framing(line))
        #expect(line.allSatisfy { box.contains($0) })
        var request = MapRequest(bbox: box, width: 800, height: 600, labels: .none)
        request.polylines = [line]
        let (picture, image) = try Sample.draw(request, stations)
        // Halfway between 箱根板橋 and 風祭 (no pin there): the line's colour over land.
        let a = picture.viewport.point(line[1]), b = picture.viewport.point(line[2])
        let mid = (x: Int((a.x + b.x) / 2), y: Int((a.y + b.y) / 2))
        let p = image.pixel(mid.x, mid.y), land = Basemap.land.bytes
        #expect(Int(p.b) > Int(p.r) + 40, "\(p)")
        let (_, bare) = try Sample.draw(MapRequest(bbox: box, width: 800, height: 600, labels: .none), stations)
        #expect(bare.pixel(mid.x, mid.y, matches: RGB(r: Double(land.r) / 255, g: Double(land.g) / 255, b: Double(land.b) / 255)))
        // The pins stay on top of the line.
        let kazamatsuri = try #require(picture.markers.first { $0.name == "風祭" })
        #expect(image.pixel(Int(kazamatsuri.x), Int(kazamatsuri.y), matches: MapRenderer.unvisited))
    }

    @Test func theGoldenComparisonSeesAnotherView() throws {
        // A view 0.01° to the east differs from the golden image by far more than the tolerance.
        let shifted = BoundingBox(minLon: 139.11, minLat: 35.22, maxLon: 139.21, maxLat: 35.30)
        let (_, image) = try Sample.draw(MapRequest(bbox: shifted, width: 1200, height: 800), try Sample.stations(shifted))
        let golden = try PNGImage(path: TestPaths.package("Tests/EkiRenderTests/Fixtures/odawara-1200x800.png"))
        #expect(image.difference(from: golden, tolerance: 48) > 0.02)
    }
}
