import Foundation
import Testing
import EkiTestSupport

/// The status of `Datasets/station-status.csv` as `eki show` and `--format json` give it, on
/// N02-23 + station_database.
@Suite struct StationStatusCommandTests {
    let dir = TestPaths.temporaryDirectory()
    func show(_ args: String...) -> EkiRun {
        eki(["show"] + args + ["--db", RealData.combinedDatabase, "--visits", dir.appendingPathComponent("none.sqlite").path])
    }

    @Test(.needsN02AndStationDatabase) func suspendedAndBRTStationsSayTheirStatus() throws {
        #expect(show("jr-kyushu/c/人吉").out.contains("\nstatus      suspended since 2020-07-04\n"))
        #expect(show("jr-kyushu/c/彦山").out.contains("\nstatus      brt since 2023-08-28\n"))
        #expect(!show("jr-kyushu/c/添田").out.contains("\nstatus "))
        let json = show("jr-kyushu/c/人吉", "--format", "json").out
        #expect(json.contains(#""kind":"regular","status":"suspended","status_since":"2020-07-04","sources":"#), "\(json.prefix(400))")
        // Its line counts as `eki line 肥薩線` does: the 17 suspended stations are in no total.
        #expect(json.contains(#""line_stats":[{"id":"jr-kyushu/c/肥薩線","name":"肥薩線","operator":"JR九州","visited":0,"total":11}]"#))
        #expect(show("jr-east/c/東京", "--format", "json").out.contains(#""status":"open","status_since":null,"#))
    }
}
