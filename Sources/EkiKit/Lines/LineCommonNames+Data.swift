// GENERATED FILE — do not edit by hand.
// Made by Scripts/gen-line-tables.py from Datasets/line-common-names.csv; to change the table, edit the CSV and run
//     python3 Scripts/gen-line-tables.py
// (`--check` tells whether this file is up to date).

extension LineCommonNames {
    /// SHA-256 of the bytes of `Datasets/line-common-names.csv` this file was generated from.
    static let builtInSourceSHA256 = "2c4c447f97de22998f8157380fca11099670769bf4456c1854ae33821b833f8e"

    /// The rows of `Datasets/line-common-names.csv`, in file order.
    static let builtIn: [LineCommonName] = [
        LineCommonName(name: "山形新幹線", operatorID: "jr-east", serviceClass: .conventional, line: "奥羽本線", from: "福島", to: "新庄", source: "JR東日本「山形新幹線」: the 山形新幹線 (つばさ) runs through on the 奥羽本線 between 福島 and 新庄 (ja.wikipedia.org/wiki/山形新幹線, 路線: 奥羽本線 福島駅 - 新庄駅)"),
        LineCommonName(name: "秋田新幹線", operatorID: "jr-east", serviceClass: .conventional, line: "田沢湖線", from: "盛岡", to: "大曲", source: "JR東日本「秋田新幹線」: the こまち runs on the 田沢湖線 盛岡–大曲 and the 奥羽本線 大曲–秋田 (ja.wikipedia.org/wiki/秋田新幹線, 路線: 田沢湖線 盛岡駅 - 大曲駅, 奥羽本線 大曲駅 - 秋田駅)"),
        LineCommonName(name: "秋田新幹線", operatorID: "jr-east", serviceClass: .conventional, line: "奥羽本線", from: "大曲", to: "秋田", source: "JR東日本「秋田新幹線」: the こまち runs on the 田沢湖線 盛岡–大曲 and the 奥羽本線 大曲–秋田 (ja.wikipedia.org/wiki/秋田新幹線, 路線: 田沢湖線 盛岡駅 - 大曲駅, 奥羽本線 大曲駅 - 秋田駅)"),
    ]
}
