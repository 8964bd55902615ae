import EkiKit
import Foundation

/// `eki visit share --png`: the summary of `VisitShare.summary` drawn as one picture for a
/// phone — the title, a small map of the stations visited in the period, then the summary's
/// lines (day headings, visits, collapsed runs of empty days, completion figures), at 2×
/// (390 logical pixels wide = 780 device pixels by default), in the summary's language with
/// the CJK font of `TextLayout`.
///
/// The rows are the summary's lines, each kept whole, so the picture says exactly what the
/// text says; each line's kind (`VisitShare.LineKind`) chooses its style.
public final class SharePicture {
    /// What a row of the picture is: the kind of the summary line it draws.
    public typealias RowKind = VisitShare.LineKind

    /// One row: its kind, text, and box top and height in logical pixels.
    public struct Row: Sendable, Equatable {
        public var kind: RowKind
        public var text: String
        public var y: Double, height: Double
    }

    public let rows: [Row]
    /// The boxes the thumbnails were drawn in (logical pixels), by the index of their day row.
    public let thumbnailBoxes: [(row: Int, x: Double, y: Double, width: Double, height: Double)]
    /// Characters of the rows drawn without a glyph (as boxes); 0 when the CJK font is there.
    public private(set) var unknownGlyphs = 0
    /// The inset map's box (logical pixels), nil when no station was visited in the period.
    public let mapBox: (x: Double, y: Double, width: Double, height: Double)?
    let canvas: Canvas

    public var pixelWidth: Int { canvas.width * canvas.scale }
    public var pixelHeight: Int { canvas.height * canvas.scale }
    public func png() throws -> Data { try canvas.pngData() }
    public func write(to path: String) throws { try canvas.writePNG(to: path) }

    static let padding = 16.0
    static let background = RGB(hex: 0xFFFFFF)

    /// A photo to draw beside a day's rows: 8-bit RGB pixels, 3 bytes a pixel, rows top to bottom.
    public struct Thumbnail: Sendable {
        public var width: Int, height: Int
        public var rgb: [UInt8]
        public init(width: Int, height: Int, rgb: [UInt8]) { (self.width, self.height, self.rgb) = (width, height, rgb) }
    }

    /// The thumbnails' column: this wide (logical pixels), each this high, at most this many a day.
    static let thumbnailWidth = 84.0, thumbnailHeight = 63.0, thumbnailsPerDay = 3

    /// Draws `summary` with a map of `stations` (the entries visited in the period;
    /// `isVisited` colours them; the map's credits in the summary's language) and, beside a
    /// day's rows, up to 3 of `thumbnails[i]` (i the index of the day's line in `summary.lines`):
    /// the day's text then wraps in a narrower column.
    /// - Throws: `RenderError` when cairo cannot make the surface.
    public init(summary: VisitShare.Summary, stations: [Station], isVisited: (String) -> Bool, width: Int = 390,
                scale: Int = 2, thumbnails: [Int: [Thumbnail]] = [:]) throws {
        let lines = summary.lines
        let inner = Double(width) - 2 * Self.padding
        // Measure on a scratch canvas, then draw on one of the final height.
        let scratch = try Canvas(width: 1, height: 1, scale: scale)
        let measure = TextLayout(canvas: scratch)
        func style(_ k: RowKind, _ t: TextLayout) {
            switch k {
            case .title: t.setFont(size: 19, bold: true)
            case .day: t.setFont(size: 14, bold: true)
            case .figures: t.setFont(size: 14, bold: true)
            default: t.setFont(size: 13)
            }
        }
        var planned: [Row] = []
        var boxes: [(row: Int, x: Double, y: Double, width: Double, height: Double)] = []
        var y = Self.padding
        var mapBox: (x: Double, y: Double, width: Double, height: Double)? = nil
        let mapHeight = (inner * 0.62).rounded()
        let column = Self.thumbnailWidth + 8
        // The day whose rows have thumbnails beside them, and where its column ends.
        var photoColumnEnd: Double? = nil
        var narrow = Set<Int>()   // rows wrapped beside the thumbnails' column
        for (i, line) in lines.enumerated() {
            let k = line.kind
            if k == .day || k == .emptyDays || k == .blank || k == .figures, let end = photoColumnEnd {
                y = max(y, end + 4)
                photoColumnEnd = nil
            }
            if k == .blank {
                if i == lines.count - 1 { break }
                y += 6
                continue
            }
            if k == .day, let shots = thumbnails[i], !shots.isEmpty {
                let n = min(shots.count, Self.thumbnailsPerDay)
                for j in 0..<n {
                    boxes.append((i, Self.padding + inner - Self.thumbnailWidth, y + 2 + Double(j) * (Self.thumbnailHeight + 4),
                                  Self.thumbnailWidth, Self.thumbnailHeight))
                }
                photoColumnEnd = y + 2 + Double(n) * (Self.thumbnailHeight + 4) - 4
            }
            style(k, measure)
            let indent = k == .visit ? 12.0 : 0
            measure.setWrap(width: inner - indent - (photoColumnEnd != nil ? column : 0))
            let h = measure.size(line.text).h + (k == .emptyDays ? 6 : 2)
            if k == .figures, planned.last?.kind != .figures { y += 6 }
            if photoColumnEnd != nil { narrow.insert(planned.count) }
            planned.append(Row(kind: k, text: line.text, y: y, height: h))
            y += h
            if k == .title, !stations.isEmpty {
                y += 8
                mapBox = (Self.padding, y, inner, mapHeight)
                y += mapHeight + 22   // the map and its attribution line
            }
        }
        if let end = photoColumnEnd { y = max(y, end + 4) }
        let height = Int((y + Self.padding).rounded(.up))
        canvas = try Canvas(width: width, height: height, scale: scale)
        rows = planned
        thumbnailBoxes = boxes
        self.mapBox = mapBox
        canvas.fillAll(Self.background)
        let text = TextLayout(canvas: canvas)

        if let box = mapBox, let bbox = MapViewport.framing(stations.map(\.coordinate), margin: 0.2) {
            let map = try MapRenderer.render(MapRequest(bbox: bbox, width: Int(box.width), height: Int(box.height),
                                                        scale: scale, labels: .auto, decorations: false,
                                                        language: summary.language),
                                             stations: stations, isVisited: isVisited)
            canvas.draw(map.canvas, x: box.x, y: box.y)
            text.setFont(size: 8)
            text.setWrap(width: inner)
            canvas.setColor(RGB(hex: 0x777777))
            text.draw(map.attribution.joined(separator: " / "), x: box.x, y: box.y + box.height + 2)
        }
        var perDay: [Int: Int] = [:]
        for box in boxes {
            let j = perDay[box.row, default: 0]
            perDay[box.row] = j + 1
            let t = thumbnails[box.row]![j]
            canvas.drawRGB(t.rgb, width: t.width, height: t.height, x: box.x, y: box.y, w: box.width, h: box.height)
        }
        for (r, row) in rows.enumerated() {
            style(row.kind, text)
            let indent = row.kind == .visit ? 12.0 : 0
            text.setWrap(width: inner - indent - (narrow.contains(r) ? column : 0))
            switch row.kind {
            case .emptyDays:
                canvas.newPath()
                canvas.rectangle(Self.padding - 4, row.y + 1, inner + 8, row.height - 2)
                canvas.setColor(RGB(hex: 0xEEEEEE))
                canvas.fill()
                canvas.setColor(RGB(hex: 0x777777))
            case .visit:
                canvas.setColor(RGB(hex: 0x333333))
            case .figures:
                canvas.setColor(MapRenderer.visitedColour)
            default:
                canvas.setColor(MapRenderer.ink)
            }
            unknownGlyphs += text.unknownGlyphs(row.text)
            text.draw(row.text, x: Self.padding + indent, y: row.y + (row.kind == .emptyDays ? 3 : 1))
        }
    }
}
