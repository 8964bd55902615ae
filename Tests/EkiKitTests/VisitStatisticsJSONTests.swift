import Testing
@testable import EkiKit

/// The one JSON form of the completion figures: compact for the map server's `/api/stats`,
/// pretty for `eki stats --format json`.
@Suite struct VisitStatisticsJSONTests {
    static let stats = VisitStatistics(total: VisitTally(group: "total", visited: 1, total: 3),
                                       groups: [VisitTally(group: "JR東海", visited: 1, total: 3)],
                                       closedVisited: 0, orphanedKeys: 2)

    @Test func compactAsTheServerAnswers() {
        #expect(Self.stats.json(groupName: "operator").text() == #"{"groups":[{"operator":"JR東海","visited":1,"total":3,"percent":33.33}],"total":{"operator":"total","visited":1,"total":3,"percent":33.33},"closed_visited":0,"orphaned_keys":2}"#)
    }

    @Test func prettyAsTheCommandLineWritesIt() {
        let empty = VisitStatistics(total: VisitTally(group: "total", visited: 0, total: 0), groups: [], closedVisited: 0, orphanedKeys: 0)
        #expect(empty.json(groupName: "group").text(pretty: true) == """
        {
          "groups": [],
          "total": {
            "group": "total",
            "visited": 0,
            "total": 0,
            "percent": 0
          },
          "closed_visited": 0,
          "orphaned_keys": 0
        }
        """)
    }
}
