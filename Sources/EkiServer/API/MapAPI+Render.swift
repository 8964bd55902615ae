import EkiKit
import EkiRender

/// `/api/render.png`: the picture `eki render --bbox` draws, from the server's own reader.
extension MapAPI {
    /// `GET /api/render.png?bbox=minLon,minLat,maxLon,maxLat[&width=1200][&height=800][&scale=1|2]
    /// [&labels=auto|all|none][&filter=all|visited|unvisited]`: a PNG (`image/png`) of the open
    /// entries in view, coloured by the caller's visits, on the offline prefecture basemap; the legend in
    /// the request's language (`Accept-Language`, Japanese unless English). Width and
    /// height are logical pixels, 1…4000 each (the picture is scale times that).
    func renderPNG(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        let p = try APIParameters(r, allowed: ["bbox", "width", "height", "scale", "labels", "filter"])
        let box = try p.requiredBBox()
        let width = try p.int("width", default: 1200, min: 1, max: 4000)!
        let height = try p.int("height", default: 800, min: 1, max: 4000)!
        let scale = try p.int("scale", default: 1, min: 1, max: 2)!
        guard let labels = LabelMode(rawValue: p["labels"] ?? "auto") else {
            throw APIError.bad(.oneOf("labels", ["auto", "all", "none"], got: p["labels"]!))
        }
        let filter = try p.filter()
        let png = try readers.with { ctx in
            try ctx.snapshot(owner: caller.owner) { visits in
                let view = MapViewport(fitting: box, width: width, height: height).visibleBox
                let stations = try ctx.store.spatial.stations(ViewportQuery(bbox: view, filter: visits.viewportFilter(filter))).stations
                var request = MapRequest(bbox: box, width: width, height: height, scale: scale, labels: labels)
                request.language = r.language
                return try MapRenderer.render(request, stations: stations, visits: visits).png()
            }
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/png"), ("Cache-Control", "no-store")], body: Array(png))
    }
}
