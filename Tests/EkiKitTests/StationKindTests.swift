import Testing
import Foundation
import EkiKit
import EkiTestSupport

/// Kinds of stop (`StationKind`): the curated table, the reconciler rule, the store column and
/// its migration from version 4, and totals that leave staff-only stops out.
@Suite struct StationKindTests {
    func row(_ id: String, _ name: String, op: String, line: String, lat: Double, lon: Double,
             dataset: String = "n02") -> SourceRecord {
        SourceRecord(source: SourceRef(dataset: dataset, id: id), name: name, operatorName: op, serviceClass: .conventional,
                     lines: [line], coordinate: Coordinate(lat: lat, lon: lon))
    }

    /// The compiled-in table is `Datasets/station-kinds.csv` as it is, every row citing a source.
    @Test func builtInTableIsTheDatasetsFile() throws {
        let csv = try String(contentsOfFile: TestPaths.package("Datasets/station-kinds.csv"), encoding: .utf8)
        let table = try StationKinds(csv: csv, file: "station-kinds.csv")
        #expect(table.entries == StationKinds.builtIn.entries)
        #expect(table.entries.count == 19)
        #expect(table.entries.filter { $0.kind == .staffOnly }.map(\.station) == ["柳橋", "森石", "笹平", "出平", "猫又", "小屋平"])
        #expect(table.entries.filter { $0.kind == .staffOnly }.allSatisfy { $0.operatorID == "kurobe-gorge" })
        #expect(table.entries.filter { $0.kind == .seasonal }.map { "\($0.operatorID) \($0.station)" }
                == ["jr-hokkaido ラベンダー畑", "jr-kyushu バルーンさが", "jr-hokkaido 原生花園", "jr-hokkaido 細岡",
                    "jr-east ガーラ湯沢", "jr-east 偕楽園", "jr-east 鹿島サッカースタジアム", "kashima-rinkai 鹿島サッカースタジアム",
                    "jr-east 猪苗代湖畔", "jr-shikoku 津島ノ宮", "jr-shikoku 田井ノ浜", "hiroden 宮島ボートレース場",
                    "nishikigawa 清流みはらし"])
        #expect(table.entries.allSatisfy { !$0.source.isEmpty })
        #expect(table.kind(operatorID: "kurobe-gorge", nameKey: TextFold.nameKey("猫又")) == .staffOnly)
        #expect(table.kind(operatorID: "kurobe-gorge", nameKey: TextFold.nameKey("宇奈月")) == nil)
        // Same name, another operator: not listed (西鉄's closed 柳橋 is a station of its own).
        #expect(table.kind(operatorID: "nishitetsu", nameKey: TextFold.nameKey("柳橋")) == nil)
    }

    @Test func badRowsNameFileLineAndField() {
        let header = "operator,station,kind,source\n"
        #expect(throws: OperatorTableError(file: "k.csv", line: 2, message: "field kind: closed is not regular, seasonal or staff-only")) {
            try StationKinds(csv: header + "kurobe-gorge,猫又,closed,timetable\n", file: "k.csv")
        }
        #expect(throws: OperatorTableError(file: "k.csv", line: 2, message: "field operator: nobody is not an operator id")) {
            try StationKinds(csv: header + "nobody,猫又,staff-only,timetable\n", file: "k.csv")
        }
        #expect(throws: OperatorTableError(file: "k.csv", line: 3, message: "field source: every row cites its source")) {
            try StationKinds(csv: header + "kurobe-gorge,猫又,staff-only,timetable\nkurobe-gorge,森石,staff-only,\n", file: "k.csv")
        }
        #expect(throws: OperatorTableError(file: "k.csv", line: 1, message: "header must be operator,station,kind,source")) {
            try StationKinds(csv: "operator,name,kind,source\n", file: "k.csv")
        }
    }

    /// The reconciler gives the listed rows their kind by operator and name; the entry takes the
    /// most restricted kind of its rows.
    @Test func reconcilerAndEntryRule() {
        let rows = [row("1", "猫又", op: "黒部峡谷鉄道", line: "本線", lat: 36.749565, lon: 137.641745),
                    row("2", "宇奈月", op: "黒部峡谷鉄道", line: "本線", lat: 36.81516, lon: 137.58563),
                    row("3", "ラベンダー畑", op: "JR北海道", line: "富良野線", lat: 43.416919, lon: 142.430681,
                        dataset: "station-database")]
        let (out, _) = SourceReconciler(boundaries: nil).reconcile([rows])
        #expect(out[0].map(\.kind) == [.staffOnly, .regular, .seasonal])
        let (none, _) = SourceReconciler(kinds: .none, boundaries: nil).reconcile([rows])
        #expect(none[0].map(\.kind) == [.regular, .regular, .regular])
        #expect(StationKind.allCases.sorted() == [.regular, .seasonal, .staffOnly])
    }

    /// Entries keep their kind in the store; a version 4 file gets the column, filled from the
    /// curated table, when opened writable.
    @Test func storedAndMigratedFromVersion4() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("kinds.gpkg").path
        let rows = [row("1", "猫又", op: "黒部峡谷鉄道", line: "本線", lat: 36.749565, lon: 137.641745),
                    row("2", "宇奈月", op: "黒部峡谷鉄道", line: "本線", lat: 36.81516, lon: 137.58563)]
        do {
            let store = try StationStore(path: path)
            try store.importRecords(rows, dataset: "n02")
            #expect(try store.entries.all().map { "\($0.name) \($0.kind.rawValue)" } == ["宇奈月 regular", "猫又 staff-only"])
            #expect(try store.entries.keys(of: .staffOnly) == ["kurobe-gorge/c/猫又"])
            try store.db.execute("""
                ALTER TABLE stations DROP COLUMN kind;
                UPDATE eki_meta SET value = '4' WHERE name = 'schema_version';
                """)
        }
        #expect(throws: StoreError.self) { try StationStore(path: path, readOnly: true) }
        let writable = try StationStore(path: path)
        #expect(try writable.db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'schema_version'") == 8)
        #expect(try writable.entries.all().map { "\($0.name) \($0.kind.rawValue)" } == ["宇奈月 regular", "猫又 staff-only"])
        // Former names are searched since version 5: the index was written again.
        #expect(try writable.db.scalarInt("SELECT count(*) FROM search_entry") == 2)
    }
}
