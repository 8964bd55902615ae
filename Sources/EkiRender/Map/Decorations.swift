import EkiKit
import Foundation

/// The legend (top left), scale bar (bottom left) and attribution (bottom right).
enum Decorations {
    static let margin = 8.0
    static let panel = RGB(hex: 0xFFFFFF)

    /// `● 乗下車済 12`, `● 未乗下車 30`, `表示範囲 12 / 42 駅` (`Phrases.legend`) as three rows; the
    /// box they take.
    static func legendBox(text: TextLayout, visited: Int, total: Int, language: Language) -> (box: BoxIndex.Box, rows: [String]) {
        text.setFont(size: 12)
        let rows = language.phrases.legend(visited: visited, total: total)
        let w = rows.map { text.size($0).w }.max()! + 26, h = Double(rows.count) * 18 + 8
        return (BoxIndex.Box(x0: margin, y0: margin, x1: margin + w, y1: margin + h), rows)
    }

    static func drawLegend(_ legend: (box: BoxIndex.Box, rows: [String]), visited: Int, total: Int, on canvas: Canvas,
                           text: TextLayout) {
        let b = legend.box
        canvas.newPath()
        canvas.rectangle(b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0)
        canvas.setColor(panel, alpha: 0.88)
        canvas.fill()
        text.setFont(size: 12)
        for (i, row) in legend.rows.enumerated() {
            let y = b.y0 + 4 + Double(i) * 18
            if i < 2 {
                canvas.newPath()
                canvas.circle(b.x0 + 11, y + 9, 5)
                canvas.setColor(i == 0 ? MapRenderer.visitedColour : MapRenderer.unvisited)
                canvas.fill()
            }
            canvas.setColor(MapRenderer.ink)
            text.draw(row, x: b.x0 + 21, y: y)
        }
    }

    /// The longest round length (1, 2 or 5 × 10ⁿ metres) no wider than a fifth of the picture
    /// (at most 160 px), and its width in logical pixels.
    static func scaleBar(viewport: MapViewport) -> (metres: Double, pixels: Double) {
        let target = min(Double(viewport.width) / 5, 160) * viewport.metresPerPixel
        var unit = pow(10, floor(log10(max(target, 1))))
        for f in [5.0, 2.0, 1.0] where f * unit <= target { unit *= f; break }
        return (unit, unit / viewport.metresPerPixel)
    }

    static func scaleBarText(_ metres: Double) -> String {
        metres >= 1000 ? "\(Int(metres / 1000)) km" : "\(Int(metres)) m"
    }

    static func scaleBarBox(canvas: Canvas) -> BoxIndex.Box {
        let h = Double(canvas.height)
        return BoxIndex.Box(x0: margin, y0: h - margin - 30, x1: margin + 170, y1: h - margin)
    }

    static func drawScaleBar(viewport: MapViewport, on canvas: Canvas, text: TextLayout) {
        let (metres, px) = scaleBar(viewport: viewport)
        let y = Double(viewport.height) - margin - 6
        let x = margin + 4
        canvas.newPath()
        canvas.move(x, y - 5); canvas.line(x, y); canvas.line(x + px, y); canvas.line(x + px, y - 5)
        canvas.setColor(panel, alpha: 0.9)
        canvas.setLineWidth(4)
        canvas.stroke()
        canvas.newPath()
        canvas.move(x, y - 5); canvas.line(x, y); canvas.line(x + px, y); canvas.line(x + px, y - 5)
        canvas.setColor(MapRenderer.ink)
        canvas.setLineWidth(1.5)
        canvas.stroke()
        text.setFont(size: 11)
        let label = scaleBarText(metres)
        let (w, h) = text.size(label)
        canvas.newPath()
        canvas.rectangle(x, y - 8 - h, w + 4, h)
        canvas.setColor(panel, alpha: 0.8)
        canvas.fill()
        canvas.setColor(MapRenderer.ink)
        text.draw(label, x: x + 2, y: y - 8 - h)
    }

    static func attributionBox(_ lines: [String], text: TextLayout, canvas: Canvas) -> BoxIndex.Box {
        text.setFont(size: 9)
        let w = lines.map { text.size($0).w }.max() ?? 0
        let h = lines.map { text.size($0).h }.reduce(0, +)
        let W = Double(canvas.width), H = Double(canvas.height)
        return BoxIndex.Box(x0: W - w - 6, y0: H - h - 4, x1: W, y1: H)
    }

    static func drawAttribution(_ lines: [String], box: BoxIndex.Box, on canvas: Canvas, text: TextLayout) {
        canvas.newPath()
        canvas.rectangle(box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0)
        canvas.setColor(panel, alpha: 0.8)
        canvas.fill()
        text.setFont(size: 9)
        canvas.setColor(RGB(hex: 0x444444))
        var y = box.y0 + 2
        for l in lines {
            let (w, h) = text.size(l)
            text.draw(l, x: box.x1 - w - 3, y: y)
            y += h
        }
    }
}
