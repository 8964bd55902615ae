import Testing
import Foundation
@testable import EkiKit
@testable import EkiImport
import EkiTestSupport

/// 40 open entries of N02-23 + station_database drawn at random (SplitMix64, fixed seed), each
/// checked against its own source rows as the sources gave them: an operator (never `-`) that
/// one of its rows names or a curated section gives, a name one of its rows gives (or a former
/// name), a reading when station_database reads the station, lines, the prefecture
/// station_database gives, and a point within 300 m of station_database's.
@Suite struct ReconcileSampleTests {
    @Test(.needsN02AndStationDatabase) func fortyRandomEntries() throws {
        let store = RealData.open(RealData.combinedDatabase)
        let open = try store.entries.all(includeClosed: false).filter { $0.retired == nil }
        #expect(open.count == 9_571)
        var rng = SplitMix64(state: 14)
        var sample: [Station] = []
        var picked = Set<Int>()
        while sample.count < 40 {
            let i = Int(rng.next() % UInt64(open.count))
            if picked.insert(i).inserted { sample.append(open[i]) }
        }
        let rows = try store.info.sourceRecords()
        var byRef: [SourceRef: [SourceRecord]] = [:]
        for r in rows { byRef[r.source, default: []].append(r) }
        let table = OperatorTable.builtIn
        let curated = Set(OperatorSections.builtIn.sections.map(\.operatorID))
        var errors: [String] = []
        for e in sample {
            let own = e.sources.flatMap { byRef[$0] ?? [] }
            let sd = own.filter { $0.source.dataset == "station-database" }
            let ops = Set(own.compactMap { r in r.operatorName.flatMap { table.resolve($0)?.id } })
            if e.operatorID == "-" || !(ops.contains(e.operatorID) || curated.contains(e.operatorID)) {
                errors.append("\(e.key): operator \(e.operatorID) not among \(ops.sorted())")
            }
            let names = Set(own.map { TextFold.nameKey($0.name) })
            if !names.contains(TextFold.nameKey(e.name)) { errors.append("\(e.key): name \(e.name) not among \(names.sorted())") }
            if e.reading == nil && sd.contains(where: { $0.reading != nil }) { errors.append("\(e.key): no reading") }
            if e.lines.isEmpty { errors.append("\(e.key): no lines") }
            if e.prefecture == nil { errors.append("\(e.key): no prefecture") }
            if let p = sd.compactMap(\.prefecture).first, p != e.prefecture {
                errors.append("\(e.key): prefecture \(e.prefecture ?? "-") ≠ station_database's \(p)")
            }
            if !sd.isEmpty, !sd.contains(where: { ((try? Geodesic.distance($0.coordinate, e.coordinate)) ?? .infinity) <= 300 }) {
                errors.append("\(e.key): point over 300 m from station_database's")
            }
        }
        #expect(sample.count == 40)
        #expect(errors == [])
    }
}
