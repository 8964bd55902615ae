/// Single-link clustering of points by geodesic distance: two points within `distance` of each
/// other are in one cluster, and so is a chain of points each within the distance of the next.
///
/// Used by the entry rule (rows of one operator, class and name → entries) and by the station
/// gazetteer (entries of one name → places). All pairs are compared (O(n²)): the groups it is
/// given are small (one name's rows or entries).
public enum SingleLink {
    /// The clusters of `points`, as indices into it: clusters in order of their first member,
    /// members in index order. Distances are `Geodesic.distance` (metres, WGS84); the points
    /// are valid ones (`Coordinate.isValid`), as importers accept them.
    public static func clusters(_ points: [Coordinate], within distance: Double) -> [[Int]] {
        if points.count <= 1 { return points.isEmpty ? [] : [[0]] }
        var parent = Array(points.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        for i in points.indices {
            for j in (i + 1)..<points.count where root(i) != root(j) {
                if Geodesic.distance(valid: points[i], points[j]) <= distance {
                    let (a, b) = (root(i), root(j))
                    parent[max(a, b)] = min(a, b)
                }
            }
        }
        var members: [Int: [Int]] = [:]
        var order: [Int] = []
        for i in points.indices {
            let r = root(i)
            if members[r] == nil { order.append(r) }
            members[r, default: []].append(i)
        }
        return order.map { members[$0]! }
    }
}
