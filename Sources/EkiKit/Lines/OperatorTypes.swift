/// Operator types (事業者区分) by which `eki lines` groups operators, as the app's 路線 tab
/// does: `Datasets/operator-types.csv` (compiled in by `Scripts/gen-line-tables.py`), each row
/// citing its source. It records JR, 大手私鉄 and 準大手私鉄 from station_database's company
/// table (駅データ.jp `company_type`); an operator it does not list is `その他`.
public enum OperatorTypes {
    /// The type of an operator the table does not list.
    public static let other = "その他"
    /// Types in display order.
    public static let order = ["JR", "大手私鉄", "準大手私鉄", "公営", "第三セクター", "中小私鉄", "路面電車",
                               "モノレール・新交通", "ケーブルカー", other]

    private static let byID: [String: String] = Dictionary(builtIn.map { ($0.operatorID, $0.type) }, uniquingKeysWith: { a, _ in a })

    /// The type of the operator with `id` (`jr-central` → JR), else `その他`.
    public static func type(of id: String) -> String { byID[id] ?? other }

    /// Position of a type in `order` (unknown types last).
    public static func rank(_ type: String) -> Int { order.firstIndex(of: type) ?? order.count }
}

extension OperatorTypes {
    /// `lines` grouped by operator type in `order`, keeping their order within a type (the
    /// store's: operator, class, name): the order of `eki lines` and the map's 路線 panel.
    public static func grouped(_ lines: [Line]) -> [Line] {
        lines.enumerated().sorted { (rank($0.element.operatorType), $0.offset) < (rank($1.element.operatorType), $1.offset) }
            .map(\.element)
    }
}
