import EkiKit
import Foundation

/// A drawn map: the picture and where everything went (markers, labels), so callers and tests
/// can find a station's pin or a label on it.
public final class MapPicture {
    let canvas: Canvas
    public let viewport: MapViewport
    /// Markers, most important first (positions in logical pixels).
    public let markers: [MapMarker]
    /// Names placed, in placement order.
    public let labels: [MapLabel]
    /// Entries drawn and how many of them are visited (the legend's figures).
    public let total: Int, visited: Int
    public let attribution: [String]

    init(canvas: Canvas, viewport: MapViewport, markers: [MapMarker], labels: [MapLabel], total: Int, visited: Int,
         attribution: [String]) {
        self.canvas = canvas
        self.viewport = viewport
        self.markers = markers
        self.labels = labels
        self.total = total
        self.visited = visited
        self.attribution = attribution
    }

    /// Device pixels per logical pixel.
    public var scale: Int { canvas.scale }
    /// Size in device pixels (the PNG's size).
    public var pixelWidth: Int { canvas.width * canvas.scale }
    public var pixelHeight: Int { canvas.height * canvas.scale }

    /// The PNG bytes.
    /// - Throws: `RenderError.writePNG` when cairo cannot encode.
    public func png() throws -> Data { try canvas.pngData() }

    /// Writes the PNG to `path`.
    /// - Throws: `RenderError.writePNG` naming the path.
    public func write(to path: String) throws { try canvas.writePNG(to: path) }
}

/// Draws stations as pins on the offline basemap, in Web Mercator, with cairo and Pango.
///
/// Order: sea and prefecture land (`Basemap`), the polylines, pins (red unvisited, green
/// visited; closed entries are never drawn; the request's highlighted entries above the rest,
/// ringed in the line colour), names (`LabelPlacement`), then the legend
/// (visited / total in view, top left), a scale bar (a round number of metres, bottom left)
/// and the attribution lines (bottom right).
///
/// ```swift
/// let request = MapRequest(bbox: BoundingBox(minLon: 139.0, minLat: 35.1, maxLon: 139.3, maxLat: 35.35))
/// let stations = try store.spatial.stations(ViewportQuery(bbox: request.bbox)).stations
/// try MapRenderer.render(request, stations: stations, visits: visited).png()   // PNG bytes
/// ```
public enum MapRenderer {
    public static let unvisited = RGB(hex: 0xD7263D)
    public static let visitedColour = RGB(hex: 0x1B9E4B)
    static let ink = RGB(hex: 0x222222)
    static let lineColour = RGB(hex: 0x2B59C3)

    /// Draws `stations` (closed ones skipped) with `isVisited` telling which are visited; with
    /// `tiles`, raster tiles replace the prefecture basemap (the request's `attribution` should
    /// then credit them).
    /// - Throws: `RenderError` for a request out of range or a surface cairo cannot make; what
    ///   `tiles` throws.
    public static func render(_ request: MapRequest, stations: [Station], tiles: TileSource? = nil,
                              isVisited: (String) -> Bool) throws -> MapPicture {
        try request.validate()
        let canvas = try Canvas(width: request.width, height: request.height, scale: request.scale)
        let viewport = MapViewport(fitting: request.bbox, width: request.width, height: request.height)
        let text = TextLayout(canvas: canvas)
        Basemap.draw(on: canvas, viewport: viewport)
        if let tiles { try Tiles.draw(tiles, on: canvas, viewport: viewport) }
        for line in request.polylines { drawPolyline(line, on: canvas, viewport: viewport) }

        let view = viewport.visibleBox
        let shown = stations.filter { $0.isOpen && view.contains($0.coordinate) }
        let markers = PinMarkers.build(shown, visited: isVisited, viewport: viewport, highlighted: request.highlighted)
        let visitedCount = markers.reduce(0) { $0 + $1.visited }
        let attribution = Attribution.lines(for: shown, extra: request.attribution, basemap: tiles == nil,
                                            language: request.language)

        // Boxes the decorations will take, reserved before the names are placed.
        var reserved: [BoxIndex.Box] = []
        let legend = request.decorations ? Decorations.legendBox(text: text, visited: visitedCount, total: shown.count,
                                                                           language: request.language) : nil
        if let legend { reserved.append(legend.box) }
        let attributionBox = request.decorations ? Decorations.attributionBox(attribution, text: text, canvas: canvas) : nil
        if let attributionBox { reserved.append(attributionBox) }
        if request.decorations { reserved.append(Decorations.scaleBarBox(canvas: canvas)) }

        // Pins, least important first so the important ones (highlighted, then visited) end on top.
        for m in markers.reversed() { drawPin(m, on: canvas, text: text) }

        text.setFont(size: 12)
        let labels = LabelPlacement.place(markers, mode: request.labels, width: Double(request.width),
                                          height: Double(request.height), reserved: reserved) { text.size($0) }
        for l in labels {
            // A white halo keeps names readable over borders and lines.
            canvas.setColor(RGB(hex: 0xFFFFFF), alpha: 0.75)
            canvas.rectangle(l.x - 1, l.y, l.width + 2, l.height)
            canvas.fill()
            canvas.setColor(ink)
            text.draw(l.text, x: l.x, y: l.y)
        }
        if request.decorations {
            Decorations.drawLegend(legend!, visited: visitedCount, total: shown.count, on: canvas, text: text)
            Decorations.drawScaleBar(viewport: viewport, on: canvas, text: text)
            Decorations.drawAttribution(attribution, box: attributionBox!, on: canvas, text: text)
        }
        return MapPicture(canvas: canvas, viewport: viewport, markers: markers, labels: labels, total: shown.count,
                          visited: visitedCount, attribution: attribution)
    }

    /// Convenience: `render(_:stations:isVisited:)` with a `VisitedStations` (nil: nothing visited).
    public static func render(_ request: MapRequest, stations: [Station], tiles: TileSource? = nil,
                              visits: VisitedStations?) throws -> MapPicture {
        try render(request, stations: stations, tiles: tiles) { visits?.isVisited($0) ?? false }
    }

    static func drawPolyline(_ line: [Coordinate], on canvas: Canvas, viewport: MapViewport) {
        guard line.count >= 2 else { return }
        canvas.newPath()
        for (i, c) in line.enumerated() {
            let p = viewport.point(c)
            if i == 0 { canvas.move(p.x, p.y) } else { canvas.line(p.x, p.y) }
        }
        canvas.roundJoins()
        canvas.setColor(lineColour, alpha: 0.8)
        canvas.setLineWidth(3)
        canvas.stroke()
    }

    /// A filled circle with a white outline; a marker of several entries gets a count badge at
    /// its upper right (so its centre keeps the pin colour) and, when only some are visited, a
    /// green ring; a highlighted one a ring in the line colour around it.
    static func drawPin(_ m: MapMarker, on canvas: Canvas, text: TextLayout) {
        canvas.newPath()
        canvas.circle(m.x, m.y, m.radius)
        canvas.setColor(m.isVisited ? visitedColour : unvisited)
        canvas.fillPreserve()
        canvas.setColor(m.visited > 0 && !m.isVisited ? visitedColour : RGB(hex: 0xFFFFFF))
        canvas.setLineWidth(m.visited > 0 && !m.isVisited ? 2 : 1.2)
        canvas.stroke()
        if m.isHighlighted {
            canvas.newPath()
            canvas.circle(m.x, m.y, m.radius + 2)
            canvas.setColor(lineColour)
            canvas.setLineWidth(2)
            canvas.stroke()
        }
        guard let (bx, by, bw, bh) = m.badge else { return }
        text.setFont(size: 10, bold: true)
        let label = String(m.count)
        let (w, h) = text.size(label)
        canvas.newPath()
        canvas.rectangle(bx, by, bw, bh)
        canvas.setColor(RGB(hex: 0xFFFFFF))
        canvas.fillPreserve()
        canvas.setColor(ink)
        canvas.setLineWidth(0.8)
        canvas.stroke()
        text.draw(label, x: bx + (bw - w) / 2, y: by + (bh - h) / 2)
    }
}
