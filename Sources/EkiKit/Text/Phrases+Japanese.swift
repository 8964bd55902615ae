extension Phrases {
    /// 日本語: the default. Dates as 2019年8月13日（火）, ranges with 〜, full-width brackets and
    /// colons, a space on each side of a number (`記録のない日が 3 日`).
    public static let japanese: Phrases = Phrases(
        language: .ja,
        weekdays: ["月", "火", "水", "木", "金", "土", "日"],
        knownDate: japaneseDate,
        joinRange: japaneseRange,
        openSince: { "\($0)〜" },
        openUntil: { "〜\($0)" },
        dayWithWeekday: { "\($0)（\($1)）" },
        dayUnknown: { "\($0)（日付不明）" },
        monthUnknown: { "\($0)（月日不明）" },
        dateUnknown: "日付不明",
        shareTitle: "乗下車記録",
        noVisits: "この期間の記録はありません。",
        kinds: [.board: "乗車", .alight: "降車", .transfer: "乗換", .pass: "通過"],
        stationWithOperator: { "\($0)（\($1)）" },
        // No space after a closing full-width bracket: 小田原（JR東日本）乗車 ★, 風祭（箱根登山鉄道）★.
        append: { $0.hasSuffix("）") || $0.hasSuffix("」") ? $0 + $1 : "\($0) \($1)" },
        notInDatabase: { "\($0)（駅データにない駅）" },
        note: { "「\($0)」" },
        emptyDay: { "\($0)　記録のない日" },
        emptyRun: { "\($0)　記録のない日が \($1) 日" },
        newStationsLine: { "★ 初めて乗下車した駅：\($0) 駅" },
        completionLine: { "降りつぶし：\($0) / \($1) 駅（\($2)）" },
        percent: { "\($0) %" },
        legendVisited: { "乗下車済 \($0)" },
        legendUnvisited: { "未乗下車 \($0)" },
        legendInView: { "表示範囲 \($0) / \($1) 駅" },
        creditN02AndN03: "出典：国土数値情報（鉄道データ・行政区域データ）（国土交通省）を加工して作成",
        creditN02: "出典：国土数値情報（鉄道データ）（国土交通省）を加工して作成",
        creditN03: "出典：国土数値情報（行政区域データ）（国土交通省）を加工して作成",
        creditStationDatabase: "駅データ：station_database（Seo-4d696b75）CC BY-SA 4.0",
        creditEkidata: "駅データ.jp",
        creditGTFS: "GTFS-JP（各事業者）"
    )

    /// `2019年8月13日`, `2019年8月`, `2019年`.
    static func japaneseDate(_ y: Int, _ m: Int?, _ d: Int?) -> String {
        var s = "\(y)年"
        if let m { s += "\(m)月" }
        if let d { s += "\(d)日" }
        return s
    }

    /// Two dates of the same precision and year: the second without its year (and month when
    /// it is the same): `2019年8月17日〜19日`, `2019年8月28日〜9月2日`, `2019年8月〜9月`.
    static func japaneseRange(_ a: VisitDate, _ b: VisitDate) -> String {
        let first = a.year.map { japaneseDate($0, a.month, a.day) } ?? "", whole = b.year.map { japaneseDate($0, b.month, b.day) } ?? ""
        let samePrecision = (a.month == nil) == (b.month == nil) && (a.day == nil) == (b.day == nil)
        guard a.year != nil, a.year == b.year, samePrecision, let mb = b.month else { return first + "〜" + whole }
        if let db = b.day { return first + "〜" + (a.month == mb ? "\(db)日" : "\(mb)月\(db)日") }
        return first + "〜\(mb)月"
    }
}
