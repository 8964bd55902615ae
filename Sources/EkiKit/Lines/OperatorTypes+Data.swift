// GENERATED FILE — do not edit by hand.
// Made by Scripts/gen-line-tables.py from Datasets/operator-types.csv; to change the table, edit the CSV and run
//     python3 Scripts/gen-line-tables.py
// (`--check` tells whether this file is up to date).

extension OperatorTypes {
    /// The rows of `Datasets/operator-types.csv`, in file order: operator id, type, source.
    static let builtIn: [(operatorID: String, type: String, source: String)] = [
        ("jr-hokkaido", "JR", "station_database src/company.csv: company code 1, type 1 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("jr-east", "JR", "station_database src/company.csv: company code 2, type 1 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("jr-central", "JR", "station_database src/company.csv: company code 3, type 1 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("jr-west", "JR", "station_database src/company.csv: company code 4, type 1 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("jr-shikoku", "JR", "station_database src/company.csv: company code 5, type 1 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("jr-kyushu", "JR", "station_database src/company.csv: company code 6, type 1 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("tobu", "大手私鉄", "station_database src/company.csv: company code 11, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("seibu", "大手私鉄", "station_database src/company.csv: company code 12, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("keisei", "大手私鉄", "station_database src/company.csv: company code 13, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("keio", "大手私鉄", "station_database src/company.csv: company code 14, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("odakyu", "大手私鉄", "station_database src/company.csv: company code 15, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("tokyu", "大手私鉄", "station_database src/company.csv: company code 16, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("keikyu", "大手私鉄", "station_database src/company.csv: company code 17, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("tokyo-metro", "大手私鉄", "station_database src/company.csv: company code 18, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("sotetsu", "大手私鉄", "station_database src/company.csv: company code 19, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("meitetsu", "大手私鉄", "station_database src/company.csv: company code 20, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("kintetsu", "大手私鉄", "station_database src/company.csv: company code 21, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("nankai", "大手私鉄", "station_database src/company.csv: company code 22, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("keihan", "大手私鉄", "station_database src/company.csv: company code 23, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("hankyu", "大手私鉄", "station_database src/company.csv: company code 24, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("hanshin", "大手私鉄", "station_database src/company.csv: company code 25, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("nishitetsu", "大手私鉄", "station_database src/company.csv: company code 26, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("osaka-metro", "大手私鉄", "station_database src/company.csv: company code 249, type 2 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("kita-kyu", "準大手私鉄", "station_database src/company.csv: company code 197, type 3 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("kobe-rapid", "準大手私鉄", "station_database src/company.csv: company code 203, type 3 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
        ("sanyo", "準大手私鉄", "station_database src/company.csv: company code 206, type 3 (駅データ.jp company_type: 0 その他, 1 JR, 2 大手私鉄, 3 準大手私鉄)"),
    ]
}
