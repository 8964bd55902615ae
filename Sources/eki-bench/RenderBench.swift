import EkiKit
import EkiRender
import Foundation

// MARK: render

/// `eki-bench render --db D.gpkg [--runs 5]`
///
/// Times `eki render`'s work in process, after one warm-up run (which also reads the built-in
/// prefecture polygons once, timed apart as `basemap_load_ms`): (1) the whole of Japan — every
/// open entry read with `allStations`, drawn at 2400×2400 with labels auto and encoded as PNG;
/// (2) a 1200×800 viewport of central Tokyo (139.70,35.65,139.80,35.71) — the box query, the
/// drawing and the PNG. Each run is timed alone (monotonic clock); prints one JSON object with
/// the median and maximum in milliseconds (and the median of the PNG encoding alone, timed again
/// on the finished picture), the entries, pins and names drawn. Run by
/// Scripts/bench/bench-render.sh.
func runRender(_ args: [String]) throws {
    guard let db = option("db", args) else { throw BenchUsageError("render: --db D.gpkg is required") }
    let runs = Int(option("runs", args) ?? "5") ?? 5
    let store = try StationStore(path: db, readOnly: true)
    let t0 = now()
    _ = PrefectureBoundaries.builtIn
    let basemapLoad = Double(now() - t0) / 1e6

    func whole() throws -> MapPicture {
        let all = try store.entries.all(includeClosed: false)
        let box = MapViewport.framing(all.map(\.coordinate), margin: 0.02)!
        let picture = try MapRenderer.render(MapRequest(bbox: box, width: 2400, height: 2400, labels: .auto),
                                             stations: all, visits: nil)
        _ = try picture.png()
        return picture
    }
    let tokyo = BoundingBox(minLon: 139.70, minLat: 35.65, maxLon: 139.80, maxLat: 35.71)
    func viewport() throws -> MapPicture {
        let view = MapViewport(fitting: tokyo, width: 1200, height: 800).visibleBox
        let stations = try store.spatial.stations(in: view)
        let picture = try MapRenderer.render(MapRequest(bbox: tokyo, width: 1200, height: 800, labels: .auto),
                                             stations: stations, visits: nil)
        _ = try picture.png()
        return picture
    }
    func time(_ body: () throws -> MapPicture) throws -> [String: Any] {
        let first = try body()   // warm-up
        var ms: [Double] = [], png: [Double] = []
        for _ in 0..<runs {
            let t = now()
            let p = try body()
            ms.append(Double(now() - t) / 1e6)
            let t1 = now()
            _ = try p.png()
            png.append(Double(now() - t1) / 1e6)
        }
        ms.sort()
        png.sort()
        return ["median_ms": round2(percentile(ms, 50)), "max_ms": round2(ms.last ?? 0), "runs": runs,
                "png_encode_median_ms": round2(percentile(png, 50)),
                "entries": first.total, "pins": first.markers.count, "names": first.labels.count,
                "pixels": "\(first.pixelWidth)x\(first.pixelHeight)"]
    }
    emit(["basemap_load_ms": round2(basemapLoad), "japan_2400": try time(whole), "tokyo_1200x800": try time(viewport)])
}
