import EkiKit

/// The offline basemap: sea everywhere, land from the 47 prefecture polygons
/// (`PrefectureBoundaries.builtIn`: 国土数値情報 行政区域データ N03, simplified), with thin
/// prefecture borders. Polygons outside the view are skipped; points closer than half a pixel
/// to the previous one are dropped.
enum Basemap {
    static let sea = RGB(hex: 0xAAD3DF)
    static let land = RGB(hex: 0xF2EFE9)
    static let border = RGB(hex: 0xB5ABA0)

    /// Each polygon of the built-in boundaries with its bounding box, computed once.
    static let polygons: [(box: BoundingBox, rings: [[Coordinate]])] = {
        guard let b = PrefectureBoundaries.builtIn else { return [] }
        var out: [(BoundingBox, [[Coordinate]])] = []
        for region in b.regions {
            for polygon in region.polygons {
                guard let outer = polygon.first, !outer.isEmpty else { continue }
                var box = BoundingBox(minLon: 180, minLat: 90, maxLon: -180, maxLat: -90)
                for c in outer {
                    box.minLon = min(box.minLon, c.lon); box.maxLon = max(box.maxLon, c.lon)
                    box.minLat = min(box.minLat, c.lat); box.maxLat = max(box.maxLat, c.lat)
                }
                out.append((box, polygon))
            }
        }
        return out
    }()

    static func draw(on canvas: Canvas, viewport: MapViewport) {
        canvas.fillAll(sea)
        let view = viewport.visibleBox
        let visible = polygons.filter {
            $0.box.minLon <= view.maxLon && $0.box.maxLon >= view.minLon && $0.box.minLat <= view.maxLat && $0.box.maxLat >= view.minLat
        }
        canvas.newPath()
        for p in visible { trace(p.rings, on: canvas, viewport: viewport) }
        canvas.setColor(land)
        canvas.fillPreserve()
        canvas.setColor(border)
        canvas.setLineWidth(0.6)
        canvas.roundJoins()
        canvas.stroke()
    }

    private static func trace(_ rings: [[Coordinate]], on canvas: Canvas, viewport: MapViewport) {
        for ring in rings {
            var last: (x: Double, y: Double)? = nil
            for c in ring {
                let p = viewport.point(c)
                if let l = last {
                    if abs(p.x - l.x) < 0.5 && abs(p.y - l.y) < 0.5 { continue }
                    canvas.line(p.x, p.y)
                } else {
                    canvas.move(p.x, p.y)
                }
                last = p
            }
            canvas.closePath()
        }
    }
}
