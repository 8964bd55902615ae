import EkiKit
@testable import EkiRender
import Testing

/// Web Mercator fitted to a picture, and the scale bar's round lengths.
@Suite struct MapViewportTests {
    @Test func fitsTheBoxCentredAndRoundTrips() {
        let v = MapViewport(fitting: Sample.odawara, width: 1200, height: 800)
        // The box is taller than wide at this latitude for 1200×800: its height fills the picture.
        let sw = v.point(Coordinate(lat: 35.22, lon: 139.10)), ne = v.point(Coordinate(lat: 35.30, lon: 139.20))
        #expect(abs(sw.y - 800) < 1e-6 && abs(ne.y) < 1e-6)
        #expect(abs((sw.x + ne.x) / 2 - 600) < 1e-6)
        #expect(sw.x > 0 && ne.x < 1200)
        let c = v.coordinate(x: 123.5, y: 456.25), p = v.point(c)
        #expect(abs(p.x - 123.5) < 1e-6 && abs(p.y - 456.25) < 1e-6)
        // 0.08° of latitude fill 800 px: the world is 2^n × 256 px only by chance, so compare with
        // the Mercator formula directly.
        #expect(abs(v.worldSize - 800 / (MapViewport.unitY(35.22) - MapViewport.unitY(35.30))) < 1e-6)
        let visible = v.visibleBox
        #expect(visible.minLat.isApproximately(35.22) && visible.maxLat.isApproximately(35.30))
        #expect(visible.minLon < 139.10 && visible.maxLon > 139.20)
    }

    @Test func metresPerPixelAndScaleBar() {
        // Tile zoom 0: 256 px for the world, 156,543.03 m per px at the equator.
        let world = MapViewport(fitting: BoundingBox(minLon: -180, minLat: -1e-9, maxLon: 180, maxLat: 1e-9), width: 256, height: 256)
        #expect(abs(world.metresPerPixel - 156_543.03) < 0.01)
        let v = MapViewport(fitting: Sample.odawara, width: 1200, height: 800)
        let (metres, px) = Decorations.scaleBar(viewport: v)
        // About 11 m per px here: 160 px is 1.8 km, so the bar is 1 km.
        #expect(metres == 1_000)
        #expect(px > 80 && px <= 160)
        #expect(Decorations.scaleBarText(metres) == "1 km" && Decorations.scaleBarText(500) == "500 m")
    }

    @Test func framingGrowsTheBox() throws {
        let b = try #require(MapViewport.framing([Coordinate(lat: 35.0, lon: 139.0), Coordinate(lat: 36.0, lon: 140.0)], margin: 0.1))
        #expect(b.minLon.isApproximately(138.9) && b.minLat.isApproximately(34.9))
        #expect(b.maxLon.isApproximately(140.1) && b.maxLat.isApproximately(36.1))
        #expect(MapViewport.framing([]) == nil)
    }
}

extension Double {
    func isApproximately(_ other: Double, _ tolerance: Double = 1e-9) -> Bool { abs(self - other) < tolerance }
}
