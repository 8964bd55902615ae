import Testing
import Foundation
@testable import EkiKit
import EkiTestSupport

/// Readings with bracketed alternatives, curated readings by operator, and the operator chosen
/// by a line's majority, on small hand-made rows (points and names from N02-23 and
/// station_database; the real-data cases are in EkiImportTests/ReconcileFidelityTests).
@Suite struct SourceReconcilerReadingTests {
    func row(_ dataset: String, _ id: String, _ name: String, _ op: String?, _ line: String,
             _ lat: Double, _ lon: Double, reading: String? = nil) -> SourceRecord {
        SourceRecord(source: SourceRef(dataset: dataset, id: id), name: name, reading: reading, operatorName: op,
                     serviceClass: .conventional, lines: [line], coordinate: Coordinate(lat: lat, lon: lon))
    }

    @Test func bracketParts() {
        #expect(SourceReconciler.bracketParts("さいいん(さい)") == ["さいいん", "さい"])
        #expect(SourceReconciler.bracketParts("近鉄四日市（あすなろう四日市）") == ["近鉄四日市", "あすなろう四日市"])
        #expect(SourceReconciler.bracketParts("どっきょうだいがくまえ〈そうかまつばら〉") == ["どっきょうだいがくまえ", "そうかまつばら"])
        #expect(SourceReconciler.bracketParts("とうきょう") == ["とうきょう"])
        #expect(SourceReconciler.bracketParts("") == [])
    }

    /// 西院: one station_database record read さいいん(さい) on both lines; 京福 shows さい and
    /// 阪急 さいいん (the curated table), each keeping the other reading as an alias.
    @Test func curatedReadingByOperator() {
        let rows = [row("n02", "k", "西院", "京福電気鉄道", "嵐山本線", 35.003619, 135.732447),
                    row("n02", "h", "西院", "阪急電鉄", "京都線", 35.004060, 135.731500),
                    row("station-database", "3400304", "西院", "京福電鉄", "京福電鉄嵐山本線", 35.003619, 135.732447, reading: "さいいん(さい)"),
                    row("station-database", "3400304", "西院", "阪急電鉄", "阪急京都本線", 35.003619, 135.732447, reading: "さいいん(さい)")]
        let (out, _) = SourceReconciler(boundaries: nil).reconcile([rows])
        #expect(out[0].map(\.reading) == ["さい", "さいいん", "さい", "さいいん"])
        #expect(out[0][0].aliases == ["さいいん"])
        #expect(out[0][2].aliases == ["さいいん"])
        #expect(out[0][3].aliases == ["さい"])
        // Without the table, the reading outside the brackets, the other one an alias.
        let (plain, _) = SourceReconciler(readings: .none, boundaries: nil).reconcile([rows])
        #expect(plain[0].map(\.reading) == ["さいいん", "さいいん", "さいいん", "さいいん"])
        #expect(plain[0][2].aliases == ["さい"])
    }

    /// 三宮(神戸三宮) read さんのみや(こうべさんのみや): the row shown as 神戸三宮 (阪急, N02's name)
    /// takes こうべさんのみや, the one shown as 三宮 (神戸市交通局) さんのみや.
    @Test func readingPairedWithTheNameShown() {
        let rows = [row("n02", "a", "神戸三宮", "阪急電鉄", "神戸線", 34.693145, 135.192855),
                    row("station-database", "9963001", "三宮(神戸三宮)", "阪急電鉄", "阪急神戸本線", 34.694, 135.1935,
                        reading: "さんのみや(こうべさんのみや)"),
                    row("n02", "b", "三宮", "神戸市", "山手線", 34.6945, 135.1950),
                    row("station-database", "9963001", "三宮(神戸三宮)", "神戸市交通局", "神戸市営地下鉄西神・山手線", 34.694, 135.1935,
                        reading: "さんのみや(こうべさんのみや)")]
        let (out, _) = SourceReconciler(boundaries: nil).reconcile([rows])
        #expect(out[0][1].name == "神戸三宮")
        #expect(out[0][1].reading == "こうべさんのみや")
        #expect(out[0][1].aliases.contains("さんのみや"))
        #expect(TextFold.nameKey(out[0][3].name) == "三宮")   // 三宮(神戸三宮): the same name to the entry rule
        #expect(out[0][3].reading == "さんのみや")
        #expect(out[0][3].aliases.contains("こうべさんのみや"))
    }

    /// 新開地: N02-23 has 阪急, 阪神 and 神戸電鉄 on 神戸高速線; station_database files its
    /// 神戸高速東西線 and 神戸高速南北線 under 神戸高速鉄道. Each line's row takes the operator the
    /// per-station source has at the most of that line's stations, not the nearest.
    @Test func operatorByTheLinesMajority() {
        let n02 = [row("n02", "1", "新開地", "神戸電鉄", "神戸高速線", 34.676620, 135.168970),
                   row("n02", "2", "新開地", "阪神電気鉄道", "神戸高速線", 34.676455, 135.169930),
                   row("n02", "3", "新開地", "阪急電鉄", "神戸高速線", 34.676455, 135.169930),
                   row("n02", "4", "大開", "阪神電気鉄道", "神戸高速線", 34.671520, 135.162155),
                   row("n02", "5", "西代", "阪神電気鉄道", "神戸高速線", 34.662400, 135.143990),
                   row("n02", "6", "湊川", "神戸電鉄", "神戸高速線", 34.679280, 135.166115)]
        let sd = [row("station-database", "9963006", "新開地", "神戸高速鉄道", "神戸高速東西線", 34.676600, 135.169000),
                  row("station-database", "9963006", "新開地", "神戸高速鉄道", "神戸高速南北線", 34.676600, 135.169000),
                  row("station-database", "9963007", "大開", "神戸高速鉄道", "神戸高速東西線", 34.671500, 135.162100),
                  row("station-database", "9963009", "西代", "神戸高速鉄道", "神戸高速東西線", 34.662400, 135.144000),
                  row("station-database", "9963102", "湊川", "神戸高速鉄道", "神戸高速南北線", 34.679300, 135.166100)]
        for segments in [[n02, sd], [sd, n02]] {
            let (out, _) = SourceReconciler(sections: .none, boundaries: nil).reconcile(segments)
            let rows = out.flatMap { $0 }.filter { $0.source.dataset == "station-database" }
            #expect(rows.map(\.operatorName) == ["阪神電気鉄道", "神戸電鉄", "阪神電気鉄道", "阪神電気鉄道", "神戸電鉄"])
        }
    }

    @Test func readingTableLoadsAndChecks() throws {
        let t = StationReadings.builtIn
        #expect(t.entries.prefix(2).map { "\($0.operatorID) \($0.station) \($0.reading)" } == ["keifuku 西院 さい", "hankyu 西院 さいいん"])
        #expect(t.entries.count == 50)
        #expect(t.reading(operatorID: "jr-kyushu", nameKey: "人吉") == "ひとよし")
        #expect(t.entries.allSatisfy { !$0.source.isEmpty })
        let file = try String(contentsOfFile: TestPaths.package("Datasets/station-readings.csv"), encoding: .utf8)
        #expect(StationReadings.builtInCSV == file)
        #expect(throws: OperatorTableError(file: "x.csv", line: 2, message: "field operator: nobody is not an operator id")) {
            try StationReadings(csv: "operator,station,reading,source\nnobody,西院,さい,cite\n", file: "x.csv")
        }
        #expect(throws: OperatorTableError(file: "x.csv", line: 2, message: "field reading: empty")) {
            try StationReadings(csv: "operator,station,reading,source\nkeifuku,西院,,cite\n", file: "x.csv")
        }
        #expect(throws: OperatorTableError(file: "x.csv", line: 1, message: "header must be operator,station,reading,source")) {
            try StationReadings(csv: "operator,station,kind,source\n", file: "x.csv")
        }
    }
}

/// What counts as one name spelt otherwise (`SourceReconciler.spellingOnly`).
@Suite struct SpellingOnlyTests {
    @Test func formsOfOneName() {
        #expect(SourceReconciler.spellingOnly("保土ケ谷", of: "保土ヶ谷", reading: "ほどがや"))
        #expect(SourceReconciler.spellingOnly("下祇園", of: "下祗園", reading: nil))
        #expect(SourceReconciler.spellingOnly("遙堪", of: "遥堪", reading: nil))
        #expect(SourceReconciler.spellingOnly("なんば", of: "難波", reading: "なんば"))
        #expect(SourceReconciler.spellingOnly("ベイサイド・ステーション", of: "ベイサイド･ステーション", reading: nil))
        // Not spellings: another reading, the same text, brackets, width, another name.
        #expect(!SourceReconciler.spellingOnly("なんば", of: "難波", reading: "なにわ"))
        #expect(!SourceReconciler.spellingOnly("なんば", of: "なんば", reading: "なんば"))
        #expect(!SourceReconciler.spellingOnly("市ケ谷(市ヶ谷)", of: "市ヶ谷", reading: "いちがや"))
        #expect(!SourceReconciler.spellingOnly("北１２条", of: "北12条", reading: nil))
        #expect(!SourceReconciler.spellingOnly("鷹巣", of: "鷹ノ巣", reading: "たかのす"))
    }

    @Test func theCuratedTableKeepsKeys() throws {
        #expect(StationNames.builtIn.name(operatorID: "jr-central", nameKey: TextFold.nameKey("各務ヶ原")) == "各務ケ原")
        #expect(throws: OperatorTableError.self) {
            try StationNames(csv: "operator,station,name,source\njr-east,保土ケ谷,程ヶ谷,x\n", file: "t.csv")
        }
    }
}
