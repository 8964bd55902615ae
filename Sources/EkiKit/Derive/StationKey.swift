/// Station keys: what visits and other records refer to.
///
/// Scheme: `<operator>/<class>/<name>`, where operator is the entry's operator id
/// (`EntryRule.operatorID`: the operator table's id such as `jr-east`, else the folded operator
/// name, `TextFold.operatorKey`, or `-` when the rows name no operator), class is `s`
/// (Shinkansen) or `c` (conventional) and name is the folded name (`TextFold.nameKey`); e.g.
/// `jr-east/c/東京`.
///
/// When one operator has two or more entries of one class and name (柏原 in Osaka and in
/// Hyōgo, 市役所前 in different cities), each of them gets `@` and the shortest geohash of its
/// point that tells it from the others and from every key and alias already taken: 3
/// characters first (cells of 1.40625° × 1.40625°, ≈ 127 × 156 km in Japan, so that another
/// source's point for the same station almost always gives the same cell), then 4, 5, … up to
/// 12; identical points (< 4 cm apart) are numbered `-1`, `-2` in row order. On N02 and
/// station_database the keys take 3 or 4 characters (`jr-east/c/大久保@xn7`,
/// `jr-west/c/柏原@xn0k`). Which entries share a base, and so the keys, depend only on the
/// rows' content, never on their order (`EntryPlan`).
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
