/// Station keys: what visits and other records refer to.
///
/// Scheme: `<operator>/<class>/<name>`, where operator is the folded operator name
/// (`TextFold.operatorKey`, `-` when unknown), class is `s` (Shinkansen) or `c` (conventional)
/// and name is the folded name (`TextFold.nameKey`); e.g. `東日本旅客鉄道/c/東京`.
/// When one operator has two or more entries of one class and name (e.g. 市役所前 in different
/// cities), each of them gets `@` and the geohash of its point, 5 characters (≈ 4.9 km cells),
/// lengthened until they differ: `…/市役所前@xn0m7`. The key depends only on the rows'
/// content, never on their order, so rebuilding from the same data gives the same keys.
public enum StationKey {
    /// The key before place disambiguation.
    public static func base(operatorKey: String, serviceClass: ServiceClass, nameKey: String) -> String {
        let op = operatorKey.isEmpty ? "-" : operatorKey
        return "\(op)/\(serviceClass == .shinkansen ? "s" : "c")/\(nameKey)"
    }

    /// Gives every entry of one (operator, class, name) group its key: the base alone when
    /// the group has one entry, else base + `@` + geohash of increasing precision until the
    /// keys are distinct.
    static func assign(base: String, to entries: inout [Station]) {
        if entries.count == 1 {
            entries[0].key = base
            return
        }
        var precision = 5
        while true {
            let hashes = entries.map { Geohash.encode($0.coordinate, precision: precision) }
            if Set(hashes).count == hashes.count || precision >= 12 {
                for i in entries.indices { entries[i].key = "\(base)@\(hashes[i])" }
                if Set(hashes).count != hashes.count {
                    // Identical points at 12 characters (< 4 cm apart): number them in row order.
                    for i in entries.indices { entries[i].key += "-\(i + 1)" }
                }
                return
            }
            precision += 1
        }
    }
}
