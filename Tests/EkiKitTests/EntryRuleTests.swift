import Testing
@testable import EkiKit

@Suite struct EntryRuleTests {
    func record(_ id: String, _ name: String, _ op: String?, _ cls: ServiceClass, _ line: String,
                _ lat: Double, _ lon: Double, closed: Bool = false) -> SourceRecord {
        SourceRecord(source: SourceRef(dataset: "t", id: id), name: name, operatorName: op, serviceClass: cls,
                     lines: [line], coordinate: Coordinate(lat: lat, lon: lon), isClosed: closed)
    }

    var tokyoRows: [SourceRecord] {
        [record("1", "東京", "東日本旅客鉄道", .conventional, "東海道線", 35.6812, 139.7671),
         record("2", "東京", "東日本旅客鉄道", .conventional, "京葉線", 35.6772, 139.7649),
         record("3", "東京", "東日本旅客鉄道", .shinkansen, "東北新幹線", 35.6811, 139.7679),
         record("4", "東京", "東海旅客鉄道", .shinkansen, "東海道新幹線", 35.6811, 139.7679),
         record("5", "東京", "東京地下鉄", .conventional, "4号線丸ノ内線", 35.6820, 139.7645)]
    }

    @Test func oneEntryPerOperatorClassAndPlace() {
        let entries = EntryRule().entries(from: tokyoRows)
        #expect(entries.map(\.key) == ["jr-central/s/東京", "jr-east/c/東京", "jr-east/s/東京", "tokyo-metro/c/東京"])
        let jrEast = entries.first { $0.key == "jr-east/c/東京" }!
        #expect(jrEast.lines == ["東海道線", "京葉線"])
        #expect(abs(jrEast.coordinate.lat - 35.6792) < 1e-9)
        #expect(jrEast.sources.map(\.description) == ["t:1", "t:2"])
    }

    @Test func resultDoesNotDependOnRowOrder() {
        let a = EntryRule().entries(from: tokyoRows)
        let b = EntryRule().entries(from: tokyoRows.reversed())
        #expect(a == b)
    }

    @Test func singleLinkChainsAndSplitsBeyond1500m() {
        // Three rows 1.0 km apart in a chain (0–2 km end to end) are one entry; a fourth 20 km
        // away is another, and both get place-qualified keys.
        let rows = [record("a", "市役所前", "X軌道", .conventional, "L", 35.000, 139.000),
                    record("b", "市役所前", "X軌道", .conventional, "L", 35.009, 139.000),
                    record("c", "市役所前", "X軌道", .conventional, "L", 35.018, 139.000),
                    record("d", "市役所前", "X軌道", .conventional, "L", 35.200, 139.000)]
        let entries = EntryRule().entries(from: rows)
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.key.hasPrefix("x軌道/c/市役所前@") })
        #expect(Set(entries.map { $0.sources.count }) == [3, 1])
    }

    @Test func namesAndOperatorsAreFolded() {
        let rows = [record("1", "霞ヶ関", "WILLER　TRAINS", .conventional, "L", 35.0, 139.0),
                    record("2", "霞ケ関", "WILLER TRAINS株式会社", .conventional, "M", 35.001, 139.0)]
        let entries = EntryRule().entries(from: rows)
        #expect(entries.count == 1)
        #expect(entries[0].key == "willer-trains/c/霞ケ関")
        #expect(entries[0].name == "霞ヶ関")
    }

    @Test func openWhenAnyRowIsOpen() {
        let rows = [record("1", "A", "O", .conventional, "closed line", 35.0, 139.0, closed: true),
                    record("1", "A", "O", .conventional, "open line", 35.0, 139.0)]
        #expect(EntryRule().entries(from: rows)[0].isOpen)
        #expect(!EntryRule().entries(from: [rows[0]])[0].isOpen)
    }

    @Test func halfWidthKanaFoldsToFullWidth() {
        #expect(TextFold.nfkc("ｵﾀﾞﾜﾗ") == "オダワラ")
        #expect(TextFold.nameKey("東京ディズニーランド･ステーション") == "東京ディズニーランドステーション")
        #expect(TextFold.hiragana("オダワラ") == "おだわら")
    }

    @Test func oneSourcePriorityForTheRuleAndItsReconciler() {
        let d = SourcePriority.default
        #expect([d.rank("n02"), d.rank("station-database"), d.rank("gtfs/odpt-toei"), d.rank("csv/mine"), d.rank("other")] == [0, 1, 3, 5, 6])
        // 小田原 from N02 and from OSM 120 m apart: one entry, at the more trusted source's point.
        func row(_ dataset: String, _ lat: Double) -> SourceRecord {
            SourceRecord(source: SourceRef(dataset: dataset, id: "1"), name: "小田原", operatorName: "東日本旅客鉄道",
                         serviceClass: .conventional, lines: ["東海道線"], coordinate: Coordinate(lat: lat, lon: 139.1552))
        }
        let rows = [row("n02", 35.2564), row("osm", 35.2575)]
        #expect(EntryRule().entries(from: rows).map(\.coordinate.lat) == [35.2564])
        var rule = EntryRule(sourcePriority: ["osm", "n02"], reconciler: SourceReconciler(boundaries: nil))
        #expect(rule.reconciler.sourcePriority == ["osm", "n02"])
        #expect(rule.entries(from: rows).map(\.coordinate.lat) == [35.2575])
        rule.sourcePriority = .default
        #expect(rule.reconciler.sourcePriority == .default)
        #expect(rule.rank("osm") == 4)
    }
}
