import Testing
import Foundation
@testable import EkiKit
import EkiTestSupport

/// The reconciler's rules on small hand-made rows (the real-data cases are in
/// EkiImportTests/ReconcileRealDataTests), the line and name keys, and the curated table.
@Suite struct SourceReconcilerTests {
    func row(_ dataset: String, _ id: String, _ name: String, _ op: String?, _ line: String,
             _ lat: Double, _ lon: Double, closed: Bool = false, reading: String? = nil,
             cls: ServiceClass = .conventional) -> SourceRecord {
        SourceRecord(source: SourceRef(dataset: dataset, id: id), name: name, reading: reading, operatorName: op,
                     serviceClass: cls, lines: [line], coordinate: Coordinate(lat: lat, lon: lon), isClosed: closed)
    }

    @Test func lineKeys() {
        #expect(LineKey.fold("JR北陸本線(金沢～敦賀)") == "北陸")
        #expect(LineKey.fold("北陸線") == "北陸")
        #expect(LineKey.fold("JR高山本線") == "高山")
        #expect(LineKey.fold("北陸新幹線") == "北陸新幹")
        #expect(LineKey.keys("1号線(御堂筋線)") == ["1号", "御堂筋"])
        #expect(LineKey.keys("JR北陸本線(金沢～敦賀)") == ["北陸"])
        #expect(LineKey.matches("神戸高速東西", "神戸高速"))
        #expect(!LineKey.matches("北陸", "高山"))
        #expect(!LineKey.matches("", ""))
    }

    @Test func looseKeys() {
        #expect(SourceReconciler.looseKey("神戸三宮") == "三宮")
        #expect(SourceReconciler.looseKey("モノレール浜松町") == "浜松町")
        #expect(SourceReconciler.looseKey("あすなろう四日市") == SourceReconciler.looseKey("近鉄四日市"))
        #expect(SourceReconciler.looseKey("人吉温泉") == "人吉")
        #expect(SourceReconciler.looseKey("鷹ノ巣") == SourceReconciler.looseKey("鷹巣"))
        #expect(SourceReconciler.looseKey("東山・おかでんミュージアム駅") == "東山おかでんミュージアム")
        #expect(SourceReconciler.looseKey("神戸") == "神戸")
    }

    @Test func curatedTableLoadsAndChecks() throws {
        let t = OperatorSections.builtIn
        #expect(t.sections.count == 10)
        #expect(t.sections.allSatisfy { !$0.source.isEmpty && $0.since.count == 10 })
        #expect(t.sections[1] == OperatorSections.Section(line: "北陸新幹線", lineKey: "北陸新幹", from: "金沢", to: "敦賀",
                                                          operatorID: "jr-west", since: "2024-03-16", source: t.sections[1].source))
        // The compiled-in text is the reviewed file.
        let file = try String(contentsOfFile: TestPaths.package("Datasets/operator-sections.csv"), encoding: .utf8)
        #expect(OperatorSections.builtInCSV == file)
        #expect(throws: OperatorTableError(file: "x.csv", line: 2, message: "field operator: nobody is not an operator id")) {
            try OperatorSections(csv: "line,from,to,operator,since,source\nA線,,,nobody,2024-01-01,cite\n", file: "x.csv")
        }
        #expect(throws: OperatorTableError(file: "x.csv", line: 2, message: "field from/to: give both or neither")) {
            try OperatorSections(csv: "line,from,to,operator,since,source\nA線,a,,jr-west,2024-01-01,cite\n", file: "x.csv")
        }
        #expect(throws: OperatorTableError(file: "x.csv", line: 2, message: "field source: every row cites its source")) {
            try OperatorSections(csv: "line,from,to,operator,since,source\nA線,,,jr-west,2024-01-01, \n", file: "x.csv")
        }
    }

    /// The section between two stations is the spanning-tree path: a branch off it stays out.
    @Test func sectionPath() {
        let st: [(String, Coordinate)] = [("a", Coordinate(lat: 35, lon: 135)), ("b", Coordinate(lat: 35, lon: 135.05)),
                                          ("c", Coordinate(lat: 35, lon: 135.10)), ("d", Coordinate(lat: 35, lon: 135.15)),
                                          ("x", Coordinate(lat: 35.04, lon: 135.05))]
        #expect(OperatorSections.path(from: "b", to: "d", stations: st) == ["b", "c", "d"])
        #expect(OperatorSections.path(from: "a", to: "nowhere", stations: st) == [])
    }

    @Test func missingCompanyFromLineNameOrOtherSource() {
        let rows = [row("station-database", "1", "鯖江", nil, "ハピラインふくい線", 35.944, 136.188),
                    row("station-database", "2", "峰", nil, "宇都宮芳賀ライトレール線", 36.56, 139.93),
                    row("station-database", "3", "どこか", nil, "謎線", 36.0, 139.0)]
        var r = SourceReconciler(boundaries: nil)
        r.operators = .builtIn
        let (out, report) = r.reconcile([rows])
        #expect(out[0].map(\.operatorName) == ["ハピラインふくい", "宇都宮ライトレール", nil])
        #expect(report.counts[.missingOperator] == 2)
        #expect(report.unresolved.map(\.name) == ["どこか"])
    }

    @Test func perStationOperatorWinsOverPerLineCompany() {
        let n02 = row("n02", "n1", "金沢", "西日本旅客鉄道", "北陸新幹線", 36.5779, 136.6480, cls: .shinkansen)
        let sd = row("station-database", "s1", "金沢", "JR東日本", "北陸新幹線", 36.5781, 136.6476, cls: .shinkansen)
        let (out, report) = SourceReconciler(sections: .none, boundaries: nil).reconcile([[n02], [sd]])
        #expect(out[1][0].operatorName == "西日本旅客鉄道")
        #expect(report.counts[.operatorByStation] == 1)
        // The same rows in the other order decide the same.
        let (back, _) = SourceReconciler(sections: .none, boundaries: nil).reconcile([[sd], [n02]])
        #expect(back[0][0].operatorName == "西日本旅客鉄道")
    }

    /// Open per row: a closed row of another line at the same place does not close an entry.
    @Test func openDecidedPerRow() {
        let open = row("n02", "n", "富山", "西日本旅客鉄道", "高山線", 36.7017, 137.2132)
        let otherLine = row("station-database", "s", "富山", "JR西日本", "JR北陸本線(富山～直江津)", 36.7014, 137.2130, closed: true)
        let sameLine = row("station-database", "t", "富山", "JR西日本", "JR高山本線", 36.7014, 137.2130, closed: true)
        #expect(EntryRule.isOpen([open, otherLine], closureDatasets: ["station-database"]))
        #expect(!EntryRule.isOpen([open, otherLine, sameLine], closureDatasets: ["station-database"]))
    }

    @Test func variantsAndRenamesTakeOneName() {
        let rows = [row("n02", "a", "難波", "大阪市高速電気軌道", "1号線(御堂筋線)", 34.6664, 135.5003, reading: "なんば"),
                    row("station-database", "b", "なんば", "Osaka Metro", "OsakaMetro御堂筋線", 34.6659, 135.5011, reading: "なんば"),
                    row("n02", "c", "試験場前", "西日本鉄道", "天神大牟田線", 33.302000, 130.509915),
                    row("station-database", "d", "聖マリア病院前", "西鉄", "西鉄天神大牟田線", 33.301985, 130.509923)]
        let (out, report) = SourceReconciler(boundaries: nil).reconcile([rows])
        // Osaka Metro's なんば (the newer source's kana for the same reading) is shown.
        #expect(out[0].map(\.name) == ["なんば", "なんば", "聖マリア病院前", "聖マリア病院前"])
        #expect(out[0][0].aliases == ["難波"])
        #expect(out[0][2].aliases == ["試験場前"])
        #expect(report.counts[.nameVariant] == 1)
        #expect(report.counts[.renamed] == 1)
    }
}
