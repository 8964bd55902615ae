/// One curated fact about a line as its operator defines it (`Datasets/line-definitions.csv`,
/// compiled in by `Scripts/gen-line-tables.py`). Each row cites its source in `source`.
///
/// - `alias`: `name` is a service route (湘南新宿ライン, 中央・総武線) or a former name
///   (北リアス線) a source lists as a line of its own. A tram route number (広電１系統,
///   伊予鉄 ５系統: `isRouteNumber`) is one without a row. Its stations belong to other lines: a
///   source line of that name makes no line, and the name becomes an alias of `line` when given
///   (リアス線), else of the line of the operator sharing the most of its stations.
/// - `part`: `name` is a section of `line` a source lists as a line of its own (汐見橋線, the
///   高野線's 汐見橋–岸里玉出; 丸ノ内線分岐線): it makes no line, and its stations and order join
///   `line` (a branch where they do not meet its ends); the name becomes an alias of `line`.
/// - `closed`: the line of that name (or alias) is closed as a whole since `since`, even where one
///   of its stations stays open for another line (留萌本線, 2026-04-01); with `from` and `to`,
///   only that section is closed, and its stations leave the line (JR西日本 北陸本線 富山–直江津).
/// - `ends`: the line of that name runs from the station `from` to the station `to` (奈良線 京都–木津):
///   stations a source places beyond them on the same sequence are through-service stops of
///   another line and are not the line's.
/// - `branch`: the line of that name has a branch from the station `from` (the junction) to the
///   station `to` (its end), which an ordered source lists inside the main run (室蘭本線's
///   東室蘭–室蘭 between 本輪西 and 東室蘭) or after its end (丸ノ内線's 方南町 after 荻窪): those
///   stations become a branch of their own, starting at the junction.
/// - `whole`: every station a source places on the line of that name is the line's, even one
///   another line of the operator orders (総武本線's 西船橋, on the 武蔵野線's order too).
///   Without the row, a station only unordered sources place on a line is left to the line
///   that orders it: a service route a source lists (中央線快速) must not take a line's stations.
public struct LineDefinition: Hashable, Sendable {
    /// What the row says.
    public enum Kind: String, Hashable, Sendable { case alias, part, closed, ends, branch, whole }
    public var kind: Kind
    /// The operator's id in the operator table (`jr-east`).
    public var operatorID: String
    /// The class of the line's stations.
    public var serviceClass: ServiceClass
    /// The name the row is about, as a source writes it without the operator (湘南新宿ライン).
    public var name: String
    /// For `alias`: the line the name is an alias of (リアス線), empty: the line sharing most
    /// stations; for `part`: the line the section belongs to.
    public var line: String
    /// For `ends`, `branch` (junction, end) and a closed section: the stations at the two ends,
    /// by name; empty otherwise.
    public var from: String, to: String
    /// The date the fact holds from: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or empty when not known.
    public var since: String
    /// Where the fact comes from.
    public var source: String
}

/// The curated definitions of lines.
public enum LineDefinitions {
    /// The rows of `Datasets/line-definitions.csv`.
    public static var all: [LineDefinition] { builtIn }

    /// The `alias` or `part` row for a source line of an operator and class, if any: a row's
    /// name is the line's display name (湘南新宿ライン), or, when it has a bracket, the source's
    /// name without its brand (`中央線(快速)` is station_database's `JR中央線(快速)`, not N02's
    /// 中央線).
    static func alias(operatorID: String, serviceClass: String, display: String, name: String, brand: String?) -> LineDefinition? {
        let form = SearchFold.name(display)
        let bare = SearchFold.name(brand.map { name.hasPrefix($0) ? String(name.dropFirst($0.count)) : name } ?? name)
        let row = builtIn.first {
            guard ($0.kind == .alias || $0.kind == .part) && $0.operatorID == operatorID && $0.serviceClass.rawValue == serviceClass
            else { return false }
            return LineNames.parts($0.name).brackets.isEmpty ? SearchFold.name($0.name) == form : SearchFold.name($0.name) == bare
        }
        if let row { return row }
        guard isRouteNumber(display) else { return nil }
        return LineDefinition(kind: .alias, operatorID: operatorID, serviceClass: ServiceClass(rawValue: serviceClass) ?? .conventional,
                              name: display, line: "", from: "", to: "", since: "", source: routeNumberSource)
    }

    /// Whether a line name is a tram route number (`１系統`, `広電Ｌ系統`, `Ａ系統`): a 運転系統, a
    /// service over the operator's lines, and so an alias as a service route row is.
    static func isRouteNumber(_ display: String) -> Bool {
        let n = display.precomposedStringWithCompatibilityMapping
        guard n.hasSuffix("系統"), let c = n.dropLast(2).last else { return false }
        return c.isASCII && (c.isNumber || c.isLetter)
    }

    /// Where the route-number rule comes from.
    static let routeNumberSource = "a tram's 系統 is a service over its lines, crossing them section by section "
        + "(rail-dream.net/hiroshimastreetcar: 「路線名と走行している系統が区間によって異なる」; dic.pixiv.net/a/本線(広島電鉄): "
        + "「市内線の全系統が乗り入れる唯一の路線」)"

    /// The `ends` row for a line of an operator and class, known by any of `names`, if any.
    static func ends(operatorID: String, serviceClass: String, names: [String]) -> LineDefinition? {
        sections(operatorID: operatorID, serviceClass: serviceClass, names: names).first { $0.kind == .ends }
    }

    /// The `ends`, `branch` and closed-section rows for a line of an operator and class known by
    /// any of `names`.
    static func sections(operatorID: String, serviceClass: String, names: [String]) -> [LineDefinition] {
        let forms = Set(names.map(SearchFold.name))
        return builtIn.filter {
            ($0.kind == .ends || $0.kind == .closed || $0.kind == .branch) && !$0.from.isEmpty && $0.operatorID == operatorID && $0.serviceClass.rawValue == serviceClass
                && forms.contains(SearchFold.name($0.name))
        }
    }

    /// Whether a line of an operator and class, known by any of `names`, has a `whole` row.
    static func isWhole(operatorID: String, serviceClass: String, names: [String]) -> Bool {
        let forms = Set(names.map(SearchFold.name))
        return builtIn.contains {
            $0.kind == .whole && $0.operatorID == operatorID && $0.serviceClass.rawValue == serviceClass
                && forms.contains(SearchFold.name($0.name))
        }
    }

    /// Whether a line of an operator and class, known by any of `names`, is closed as a whole.
    static func isClosed(operatorID: String, serviceClass: String, names: [String]) -> Bool {
        let forms = Set(names.map(SearchFold.name))
        return builtIn.contains {
            $0.kind == .closed && $0.from.isEmpty && $0.operatorID == operatorID && $0.serviceClass.rawValue == serviceClass
                && forms.contains(SearchFold.name($0.name))
        }
    }
}
