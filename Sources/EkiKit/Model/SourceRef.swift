/// Where an entry's data came from: a dataset name and the id of the row in that dataset.
/// Written as `dataset:id`, e.g. `n02:003766/東海道線`, `station-database:1130101`.
public struct SourceRef: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The dataset, e.g. `n02`, `station-database`, `ekidata`, `gtfs/<feed>`, `osm`, `csv/<file>`.
    /// Never contains `:` (sub-names use `/`), so `dataset:id` splits at the first colon.
    public var dataset: String
    /// The row's id inside that dataset.
    public var id: String

    public init(dataset: String, id: String) {
        self.dataset = dataset
        self.id = id
    }

    public var description: String { "\(dataset):\(id)" }

    public static func < (a: SourceRef, b: SourceRef) -> Bool {
        (a.dataset, a.id) < (b.dataset, b.id)
    }
}
