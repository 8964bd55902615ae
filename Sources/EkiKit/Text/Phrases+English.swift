extension Phrases {
    /// English (`--lang en`, `Accept-Language: en`). Dates in ISO 8601 form (2019-08-13 Tue).
    /// 国土数値情報's credits keep the Japanese wording the data's terms ask for.
    public static let english: Phrases = Phrases(
        language: .en,
        weekdays: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
        knownDate: englishDate,
        joinRange: { a, b in (a.text ?? "") + " – " + (b.text ?? "") },
        openSince: { "from \($0)" },
        openUntil: { "until \($0)" },
        dayWithWeekday: { "\($0) \($1)" },
        dayUnknown: { "\($0), day unknown" },
        monthUnknown: { "\($0), month unknown" },
        dateUnknown: "date unknown",
        shareTitle: "Visits",
        noVisits: "No visits.",
        kinds: [.board: "board", .alight: "alight", .transfer: "transfer", .pass: "pass"],
        stationWithOperator: { "\($0) (\($1))" },
        append: { "\($0) \($1)" },
        notInDatabase: { "\($0) (not in the station database)" },
        note: { "— \($0)" },
        emptyDay: { "\($0): no visits" },
        emptyRun: { "\($0): no visits (\($1) days)" },
        newStationsLine: { "★ new stations: \($0)" },
        completionLine: { "Completed: \($0) of \($1) open stations (\($2))" },
        percent: { "\($0)%" },
        legendVisited: { "visited \($0)" },
        legendUnvisited: { "unvisited \($0)" },
        legendInView: { "\($0) / \($1) in view" },
        creditN02AndN03: japanese.creditN02AndN03,
        creditN02: japanese.creditN02,
        creditN03: japanese.creditN03,
        creditStationDatabase: "Station data: station_database (Seo-4d696b75), CC BY-SA 4.0",
        creditEkidata: "駅データ.jp (ekidata.jp)",
        creditGTFS: "GTFS-JP feeds (by each operator)"
    )

    /// `2019-08-13`, `2019-08`, `2019`: the stored form (`VisitDate.text`).
    static func englishDate(_ y: Int, _ m: Int?, _ d: Int?) -> String {
        VisitDate(year: y, month: m, day: d)?.text ?? String(y)
    }
}
