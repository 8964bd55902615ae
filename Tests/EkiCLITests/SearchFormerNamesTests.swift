import Testing
import Foundation
import EkiCLI
import EkiTestSupport

/// Former and other names (`Station.formerNames`: renames after an older edition, name
/// variants the reconciler unified) are searched as names, on N02-23 + station_database main/.
@Suite struct SearchFormerNamesTests {
    func keys(_ query: String) -> [String] {
        let r = eki("search", query, "--db", RealData.combinedDatabase, "--format", "csv")
        #expect(r.status == 0, "\(r.err)")
        return r.out.split(separator: "\r\n").dropFirst().map { String($0.split(separator: ",")[0]) }
    }

    @Test(.needsN02AndStationDatabase) func renamedStationFoundByItsOldName() {
        // 西鉄 試験場前 was renamed 聖マリア病院前; N02-23 still has the old name.
        #expect(keys("試験場前").filter { $0.hasPrefix("nishitetsu/") } == ["nishitetsu/c/聖マリア病院前"])
        #expect(keys("宝町").contains("nagasaki-tram/c/スタジアムシティサウス"))
    }

    @Test(.needsN02AndStationDatabase) func nameVariantFoundOnce() {
        // Osaka Metro's 難波 (N02-23) and なんば (station_database) are one entry.
        #expect(keys("なんば").filter { $0.hasPrefix("osaka-metro/") }.count == 1)
        #expect(keys("モノレール浜松町").filter { $0.hasPrefix("tokyo-monorail/") }.count == 1)
    }
}
