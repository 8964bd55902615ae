import Testing
import Foundation
import EkiCLI
import EkiTestSupport

/// The `kind` of an entry in every output of the command line, and totals that leave
/// staff-only stops out unless `--include-staff-only`, on N02-23 + station_database main/.
@Suite struct StationKindCommandTests {
    let tmp = TemporaryDirectory()

    func run(_ args: String...) -> EkiRun {
        eki(args + ["--db", RealData.combinedDatabase, "--visits", tmp.file("visits.sqlite")])
    }

    @Test(.needsN02AndStationDatabase) func searchOutputsCarryTheKind() throws {
        let csv = run("search", "猫又", "--format", "csv")
        #expect(csv.status == 0, "\(csv.err)")
        let lines = csv.out.split(separator: "\r\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let kind = try #require(header.firstIndex(of: "kind"))
        #expect(header[kind - 1] == "open")
        let neko = try #require(lines.first { $0.hasPrefix("kurobe-gorge/c/猫又,") })
        #expect(neko.split(separator: ",", omittingEmptySubsequences: false).map(String.init)[kind] == "staff-only")
        let json = run("search", "猫又", "--format", "json")
        #expect(json.out.contains("\"kind\": \"staff-only\""))
        let geojson = run("search", "ラベンダー畑", "--format", "geojson")
        #expect(geojson.out.contains("\"kind\": \"seasonal\""))
        let table = run("search", "猫又")
        #expect(table.out.contains("猫又 (staff-only)"))
        let regular = run("search", "宇奈月", "--format", "json")
        #expect(regular.out.contains("\"kind\": \"regular\"") && !regular.out.contains("staff-only"))
    }

    @Test(.needsN02AndStationDatabase) func totalsLeaveStaffOnlyStopsOut() throws {
        let stats = run("stats", "--by", "operator", "--format", "csv")
        #expect(stats.status == 0, "\(stats.err)")
        #expect(stats.out.contains("\r\n黒部峡谷鉄道,0,4,0.00\r\n"))
        let all = run("stats", "--by", "operator", "--format", "csv", "--include-staff-only")
        #expect(all.out.contains("\r\n黒部峡谷鉄道,0,10,0.00\r\n"))
        func total(_ out: String) -> Int? {
            out.split(separator: "\r\n").last.flatMap { Int($0.split(separator: ",")[2]) }
        }
        let a = try #require(total(stats.out)), b = try #require(total(all.out))
        #expect(b - a == 6)
        let lines = run("lines", "--operator", "kurobe-gorge", "--format", "csv")
        #expect(lines.status == 0, "\(lines.err)")
        #expect(lines.out.hasSuffix(",0,4,0.00\r\n"))
        #expect(run("lines", "--operator", "kurobe-gorge", "--format", "csv", "--include-staff-only").out.hasSuffix(",0,10,0.00\r\n"))
    }
}
