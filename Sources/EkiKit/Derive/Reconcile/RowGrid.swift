import Foundation

/// A uniform grid over source rows keyed by folded station name and cell, for finding the rows
/// of the same name near a point in O(1) per look-up: the reconciler's cross-source comparisons
/// stay O(n) after one pass that fills the grid (O(n log n) with the sorts around it).
///
/// Cells are `cellDegrees` wide in latitude and longitude (0.02° ≈ 2.2 km north–south, 1.8 km
/// east–west at 35°N), so every row within `cellDegrees` of a point lies in its cell or one of
/// the eight around it; look-ups further than that are not supported.
struct RowGrid<Name: Hashable> {
    struct Cell: Hashable { var name: Name; var x: Int32; var y: Int32 }
    let cellDegrees: Double
    private(set) var cells: [Cell: [Int]] = [:]
    /// The names stored, so that a name with no rows costs one look-up instead of nine.
    private var names: Set<Name> = []

    init(cellDegrees: Double = 0.02) { self.cellDegrees = cellDegrees }

    private func xy(_ c: Coordinate) -> (Int32, Int32) {
        (Int32((c.lon / cellDegrees).rounded(.down)), Int32((c.lat / cellDegrees).rounded(.down)))
    }

    mutating func insert(_ index: Int, name: Name, at c: Coordinate) {
        let (x, y) = xy(c)
        cells[Cell(name: name, x: x, y: y), default: []].append(index)
        names.insert(name)
    }

    /// True when some row is stored under `name`.
    func has(_ name: Name) -> Bool { names.contains(name) }

    /// The indices stored under `name` in the 3 × 3 cells around `c` (a superset of those
    /// within `cellDegrees`), in ascending order.
    func near(_ name: Name, _ c: Coordinate) -> [Int] {
        guard names.contains(name) else { return [] }
        let (x, y) = xy(c)
        var out: [Int] = []
        for dy in -1...1 as ClosedRange<Int32> {
            for dx in -1...1 as ClosedRange<Int32> {
                if let v = cells[Cell(name: name, x: x + dx, y: y + dy)] { out.append(contentsOf: v) }
            }
        }
        return out.sorted()
    }
}

/// Distances between rows.
enum RowDistance {
    /// A fast distance, metres (equirectangular; within 0.1 % of the geodesic at these ranges).
    static func metres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let k = 111_195.0
        let dy = (a.lat - b.lat) * k
        let dx = (a.lon - b.lon) * k * cos((a.lat + b.lat) * 0.5 * .pi / 180)
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// Which keys occur more than once, counted by hash (no key is stored): a collision can only
/// call a key repeated that is not, which costs a grid entry and never a missed neighbour.
/// The hashes are gathered in an array and sorted once (`finish()`): 8 bytes a key and one
/// pass, where a table counting as it goes would take three times the memory and a cache miss
/// a key. Only the hashes seen twice or more are kept after `finish()`.
struct RepeatedKeys {
    private var hashes: [Int] = []
    /// Hashes seen more than once (after `finish()`).
    private var repeated: Set<Int> = []

    mutating func add(_ key: some Hashable) {
        hashes.append(key.hashValue)
    }

    /// Ends the counting; call before `isRepeated`.
    mutating func finish() {
        hashes.sort()
        var i = 0
        while i < hashes.count {
            var j = i + 1
            while j < hashes.count && hashes[j] == hashes[i] { j += 1 }
            if j - i > 1 { repeated.insert(hashes[i]) }
            i = j
        }
        hashes = []
    }

    func isRepeated(_ key: some Hashable) -> Bool { !repeated.isEmpty && repeated.contains(key.hashValue) }
}
