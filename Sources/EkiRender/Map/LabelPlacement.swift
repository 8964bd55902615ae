/// How many station names a picture shows.
public enum LabelMode: String, Sendable, CaseIterable {
    /// Every name that fits without touching another name or a pin, most important first.
    case auto
    /// Every name: where no free position exists, the first (right of the pin) is used anyway.
    case all
    /// No names.
    case none
}

/// A placed label: the text and its box (logical pixels, top-left corner and size).
public struct MapLabel: Sendable, Equatable {
    public var text: String
    public var x: Double, y: Double, width: Double, height: Double
}

/// Axis-aligned boxes in a uniform grid, for "does this box touch any placed box" in about
/// constant time.
struct BoxIndex {
    struct Box { var x0, y0, x1, y1: Double }
    private let cell: Double
    private var cells: [Int64: [Int]] = [:]
    private(set) var boxes: [Box] = []

    init(cell: Double) { self.cell = cell }

    private func range(_ b: Box) -> (ClosedRange<Int>, ClosedRange<Int>) {
        (Int((b.x0 / cell).rounded(.down))...Int((b.x1 / cell).rounded(.down)),
         Int((b.y0 / cell).rounded(.down))...Int((b.y1 / cell).rounded(.down)))
    }
    private static func key(_ x: Int, _ y: Int) -> Int64 { Int64(x) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: y))) }

    func intersects(_ b: Box) -> Bool {
        let (xs, ys) = range(b)
        for x in xs { for y in ys {
            for i in cells[Self.key(x, y)] ?? [] {
                let o = boxes[i]
                if b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1 { return true }
            }
        } }
        return false
    }

    mutating func insert(_ b: Box) {
        let (xs, ys) = range(b)
        for x in xs { for y in ys { cells[Self.key(x, y), default: []].append(boxes.count) } }
        boxes.append(b)
    }
}

/// Greedy label placement: markers in importance order (highlighted, visited, larger, then the
/// rest); each name tries four positions (right, left, above, below its pin) and takes the
/// first that stays inside the picture and touches no pin, no placed name and no reserved box
/// (legend, scale bar, attribution). A highlighted marker is named even when no position is
/// free (as with `LabelMode.all`), unless the mode is `none`.
enum LabelPlacement {
    static let gap = 2.0

    static func place(_ markers: [MapMarker], mode: LabelMode, width: Double, height: Double,
                      reserved: [BoxIndex.Box], measure: (String) -> (w: Double, h: Double)) -> [MapLabel] {
        guard mode != .none else { return [] }
        var index = BoxIndex(cell: 48)
        for m in markers {
            index.insert(.init(x0: m.x - m.radius, y0: m.y - m.radius, x1: m.x + m.radius, y1: m.y + m.radius))
            if let b = m.badge { index.insert(.init(x0: b.x, y0: b.y, x1: b.x + b.w, y1: b.y + b.h)) }
        }
        for r in reserved { index.insert(r) }
        var labels: [MapLabel] = []
        for m in markers {
            // Pins off the picture have no label.
            guard m.x >= 0, m.y >= 0, m.x <= width, m.y <= height else { continue }
            let (w, h) = measure(m.name)
            let r = m.radius + gap
            let options: [(Double, Double)] = [
                (m.x + r, m.y - h / 2), (m.x - r - w, m.y - h / 2), (m.x - w / 2, m.y - r - h), (m.x - w / 2, m.y + r),
            ]
            var chosen: BoxIndex.Box? = nil
            for (x, y) in options {
                let b = BoxIndex.Box(x0: x, y0: y, x1: x + w, y1: y + h)
                guard b.x0 >= 0, b.y0 >= 0, b.x1 <= width, b.y1 <= height, !index.intersects(b) else { continue }
                chosen = b
                break
            }
            if chosen == nil, mode == .all || m.isHighlighted {
                chosen = BoxIndex.Box(x0: options[0].0, y0: options[0].1, x1: options[0].0 + w, y1: options[0].1 + h)
            }
            guard let b = chosen else { continue }
            index.insert(b)
            labels.append(MapLabel(text: m.name, x: b.x0, y: b.y0, width: w, height: h))
        }
        return labels
    }
}
