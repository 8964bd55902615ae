/// Station keys: what visits and other records refer to.
///
/// Scheme: `<operator>/<class>/<name>`, where operator is the folded operator name
/// (`TextFold.operatorKey`, `-` when unknown), class is `s` (Shinkansen) or `c` (conventional)
/// and name is the folded name (`TextFold.nameKey`); e.g. `東日本旅客鉄道/c/東京`.
/// When one operator has two or more entries of one class and name (e.g. 市役所前 in different
/// cities), each of them gets `@` and the geohash of its point, 3 characters (≈ 156 km cells, so
/// that another source's point for the same station almost always gives the same cell),
/// lengthened until they differ: `…/市役所前@xn7`. The key depends only on the rows' content,
/// never on their order, so rebuilding from the same data gives the same keys.
public enum StationKey {
    /// The key before place disambiguation.
    public static func base(operatorKey: String, serviceClass: ServiceClass, nameKey: String) -> String {
        let op = operatorKey.isEmpty ? "-" : operatorKey
        return "\(op)/\(serviceClass == .shinkansen ? "s" : "c")/\(nameKey)"
    }

    /// Gives every entry of one (operator, class, name) group its key: the base alone when
    /// the group has one entry (and `forcePlace` is false), else base + `@` + geohash of
    /// increasing precision until the keys are distinct from each other and from `avoiding`.
    static func assign(base: String, to entries: inout [Station], forcePlace: Bool = false,
                       avoiding taken: Set<String> = []) {
        if entries.count == 1 && !forcePlace && !taken.contains(base) {
            entries[0].key = base
            return
        }
        var precision = 3
        while true {
            let keys = entries.map { "\(base)@\(Geohash.encode($0.coordinate, precision: precision))" }
            if Set(keys).count == keys.count && taken.isDisjoint(with: keys) {
                for i in entries.indices { entries[i].key = keys[i] }
                return
            }
            if precision >= 12 {
                // Identical points (< 4 cm apart): number them in row order.
                var n = 1
                for i in entries.indices {
                    while taken.contains("\(keys[i])-\(n)") { n += 1 }
                    entries[i].key = "\(keys[i])-\(n)"
                    n += 1
                }
                return
            }
            precision += 1
        }
    }
}
