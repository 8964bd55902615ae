/// Which dataset is trusted most where sources disagree: the one order the entry rule, the
/// source reconciler and the line table follow (an entry's name and point, a unified name, the
/// order datasets are matched to lines).
///
/// An item is a dataset name (`n02`) or a prefix ending in `/` (`gtfs/` for every GTFS feed);
/// a dataset matching none of them ranks after all of them.
public struct SourcePriority: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// Dataset names or `/`-ended prefixes, most trusted first.
    public var order: [String]

    public init(_ order: [String]) { self.order = order }

    public init(arrayLiteral elements: String...) { order = elements }

    /// `n02` (MLIT's surveyed platform lines and official names), then `station-database` and
    /// `ekidata` (one hand-placed point per station), `gtfs/` (stop poles), `osm`
    /// (community-mapped, varies), `csv/` (user files).
    public static let `default`: SourcePriority = ["n02", "station-database", "ekidata", "gtfs/", "osm", "csv/"]

    /// The rank of `dataset`: the index of the first item it is or starts with (lower is more
    /// trusted), `order.count` when none matches.
    public func rank(_ dataset: String) -> Int {
        for (i, p) in order.enumerated() where dataset == p || (p.hasSuffix("/") && dataset.hasPrefix(p)) {
            return i
        }
        return order.count
    }
}
