/// One curated common name of a line section (`Datasets/line-common-names.csv`, compiled in by
/// `Scripts/gen-line-tables.py`): 山形新幹線 is JR東日本's 奥羽本線 from 福島 to 新庄. Each row
/// cites its source in `source`.
public struct LineCommonName: Hashable, Sendable {
    /// The common name (山形新幹線).
    public var name: String
    /// The operator's id in the operator table (`jr-east`).
    public var operatorID: String
    /// The class of the stations the section runs through (a mini-Shinkansen's are conventional).
    public var serviceClass: ServiceClass
    /// A name of the line the section lies on (any alias: 奥羽本線).
    public var line: String
    /// The stations at the two ends of the section, by name.
    public var from: String, to: String
    /// Where the fact comes from.
    public var source: String
}

/// The curated common names of line sections.
public enum LineCommonNames {
    /// The rows of `Datasets/line-common-names.csv`.
    public static var all: [LineCommonName] { builtIn }
}
