import EkiCLI
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// `search --by operator` takes any name the operator table knows, as `lines --operator` does.
@Suite struct SearchOperatorAliasTests {
    func keys(_ query: String) -> [String] {
        let r = eki(["search", query, "--by", "operator", "--db", RealData.combinedDatabase, "--limit", "1000", "--format", "csv"])
        #expect(r.status == 0, "\(r.err)")
        return r.out.split(separator: "\r\n").dropFirst().map { String($0.split(separator: ",")[0]) }.sorted()
    }

    @Test(.needsN02AndStationDatabase) func shortEnglishAndIdFindTheFormalName() {
        let formal = keys("東海旅客鉄道")
        #expect(formal.count == 420)   // JR東海: 403 conventional + 17 Shinkansen open entries
        #expect(formal.allSatisfy { $0.hasPrefix("jr-central/") })
        #expect(keys("JR東海") == formal)
        #expect(keys("jr-central") == formal)
        #expect(keys("JR Central") == formal)
    }
}
