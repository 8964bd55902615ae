import EkiImport
import EkiSQLite
import EkiTestSupport
import Foundation
import Testing
@testable import EkiKit

/// The one folding (`TextFold.fold`) and its users: the entry rule's name key, station search,
/// `visit add`'s lookup (`StationQuery.candidates(in:)`) and the search index's fold version.
@Suite struct TextFoldTests {
    @Test func foldExamples() {
        // 丁目 numerals: kanji, full-width and ASCII digits are one.
        for s in ["本町一丁目", "本町１丁目", "本町1丁目"] { #expect(TextFold.fold(s) == "本町1丁目", "\(s)") }
        #expect(TextFold.fold("萱町６丁目") == "萱町6丁目" && TextFold.fold("萱町六丁目") == "萱町6丁目")
        #expect(TextFold.fold("一丁田") == "一丁田")                 // not before 丁目: unchanged
        // Variant kanji (Datasets/kanji-variants.csv).
        #expect(TextFold.fold("麴町") == "麹町")
        #expect(TextFold.fold("髙島屋前") == "高島屋前")
        #expect(TextFold.fold("濵町") == "浜町" && TextFold.fold("濱町") == "浜町")
        #expect(TextFold.fold("渡邉") == "渡辺" && TextFold.fold("渡邊") == "渡辺")
        #expect(TextFold.fold("湯檜曽") == "湯桧曽" && TextFold.fold("下祗園") == "下祇園")
        #expect(TextFold.fold("鶯谷") == "鴬谷" && TextFold.fold("遙堪") == "遥堪")
        // ヶ/ヵ/ケ, ッ/ツ; katakana kept unless asked.
        #expect(TextFold.fold("市ヶ谷") == "市ケ谷" && TextFold.fold("四ッ谷") == "四ツ谷")
        #expect(TextFold.fold("ｵﾀﾞﾜﾗ") == "オダワラ" && TextFold.fold("ｵﾀﾞﾜﾗ", hiragana: true) == "おだわら")
        #expect(TextFold.fold("霞ヶ関", hiragana: true) == "霞け関")
        // The entry rule's name key and search's name fold start from it.
        #expect(TextFold.nameKey("六本木一丁目") == "六本木1丁目")
        #expect(TextFold.nameKey("麴町（東京）") == "麹町")
        #expect(SearchFold.name("六本木１丁目") == SearchFold.name("六本木一丁目"))
        #expect(SearchFold.name("麴町") == "麹町")
    }

    /// The compiled pairs are `Datasets/kanji-variants.csv`'s rows, each with a source, and
    /// the generator finds the Swift file up to date.
    @Test(.needsTool("python3")) func variantTableMatchesItsCSV() throws {
        let csv = try String(contentsOfFile: TestPaths.package("Datasets/kanji-variants.csv"), encoding: .utf8)
        #expect(KanjiVariants.pairs.count == csv.split(separator: "\n").count - 1)
        #expect(KanjiVariants.pairs.map { "\($0.variant)\($0.standard)" }
                == ["麴麹", "髙高", "濱浜", "濵浜", "邊辺", "邉辺", "遙遥", "檜桧", "鶯鴬", "祗祇", "﨑崎", "曾曽"])
        #expect(KanjiVariants.pairs.allSatisfy { !$0.source.isEmpty })
        let check = try TestPaths.checkGenerator("Scripts/gen-kanji-variants.py")
        #expect(check.status == 0, "\(check.message)")
    }

    /// On every real station name (N02-23 and station_database): names the entry rule joins
    /// (one `nameKey`) are one name for search (one `SearchFold.name`), so the entry rule,
    /// search, `visit add` and the gazetteer (which match through search and `nameKey`) agree.
    /// Names with a bracketed part are left out: `nameKey` drops the bracket, search keeps it
    /// searchable.
    @Test(.needsN02AndStationDatabase) func entryRuleAndSearchAgreeOnEveryRealName() {
        let names = Set(RealData.n02Records.map(\.name) + RealData.stationDatabase.records.map(\.name))
        let plain = names.filter { !$0.contains { "(（〈".contains($0) } }
        var disagree: [String] = []
        var byKey: [String: Set<String>] = [:]
        for n in plain {
            if SearchFold.name(TextFold.nameKey(n)) != SearchFold.name(n) { disagree.append(n) }
            byKey[TextFold.nameKey(n), default: []].insert(SearchFold.name(n))
            #expect(TextFold.fold(TextFold.fold(n)) == TextFold.fold(n), "\(n)")
        }
        #expect(disagree.isEmpty, "\(disagree.prefix(10))")
        #expect(byKey.values.allSatisfy { $0.count == 1 })
        #expect(names.count == 8937 && plain.count == 8905 && byKey.count == 8850)
        // Spelt two ways across the two sources, one name for both.
        #expect(plain.contains("下祗園") && plain.contains("下祇園") && plain.contains("鴬の森") && plain.contains("鶯の森"))
        #expect(TextFold.nameKey("下祗園") == TextFold.nameKey("下祇園") && TextFold.nameKey("鴬の森") == TextFold.nameKey("鶯の森"))
    }

    /// A 麴町 row 5 m from the real 麹町 (N02-23's point) is one entry with it.
    @Test func variantKanjiRowIsOneEntry() {
        func row(_ id: String, _ name: String, _ lat: Double, _ lon: Double) -> SourceRecord {
            SourceRecord(source: SourceRef(dataset: "t", id: id), name: name, operatorName: "東京地下鉄",
                         serviceClass: .conventional, lines: ["8号線有楽町線"], coordinate: Coordinate(lat: lat, lon: lon))
        }
        let entries = EntryRule().entries(from: [row("1", "麹町", 35.684785, 139.737350),
                                                 row("2", "麴町", 35.684830, 139.737350)])
        #expect(entries.map(\.key) == ["tokyo-metro/c/麹町"])
        #expect(entries.first?.sources.map(\.description) == ["t:1", "t:2"])
    }
}

/// The searches on N02-23 + station_database (`RealData.combinedDatabase`).
@Suite(.serialized, .needsN02AndStationDatabase) struct FoldedSearchTests {
    let store = RealData.open(RealData.combinedDatabase)

    @Test func choumeNumeralsFindTheStation() throws {
        for q in ["本町一丁目", "本町１丁目", "本町1丁目"] {
            let exact = try store.search.stations(matching: q).filter(\.isExact).map(\.station)
            #expect(exact.map(\.name) == ["本町一丁目"], "\(q)")
            #expect(exact.first?.operatorName == "伊予鉄道", "\(q)")
        }
        let kaya = try store.search.stations(matching: "萱町６丁目").filter(\.isExact).map(\.station)
        #expect(kaya.map(\.name) == ["萱町六丁目"])
        let roppongi = try store.search.stations(matching: "六本木1丁目").filter(\.isExact).map(\.station)
        #expect(roppongi.map(\.key) == ["tokyo-metro/c/六本木1丁目"])
        #expect(roppongi.map(\.name) == ["六本木一丁目"])
        // `visit add 六本木1丁目` looks the station up the same way: exactly one candidate.
        #expect(try StationQuery(text: "六本木1丁目").candidates(in: store).map(\.key) == ["tokyo-metro/c/六本木1丁目"])
        #expect(try StationQuery(text: "本町1丁目").candidates(in: store).map(\.name) == ["本町一丁目"])
    }

    @Test func variantKanjiFindEachOther() throws {
        for q in ["麴町", "麹町"] {
            let exact = try store.search.stations(matching: q).filter(\.isExact).map(\.station)
            #expect(exact.map(\.key) == ["tokyo-metro/c/麹町"], "\(q)")
        }
        #expect(try store.search.stations(matching: "湯桧曽").filter(\.isExact).map(\.station.name).allSatisfy { $0 == "湯檜曽" || $0 == "湯桧曽" })
        #expect(try store.search.stations(matching: "湯檜曽").filter(\.isExact).count == 1)
    }

    @Test func realDatabaseRecordsTheFoldVersion() throws {
        #expect(try store.search.foldVersion() == TextFold.foldVersion)
    }
}

/// A database whose search index was built with an older fold is rebuilt by the next writable
/// open, not by a read-only one.
@Suite struct SearchRefoldTests {
    @Test func writableOpenRebuildsAStaleIndex() throws {
        let dir = TestPaths.temporaryDirectory()
        let path = dir.appendingPathComponent("refold.gpkg").path
        let rows = [SourceRecord(source: SourceRef(dataset: "t", id: "1"), name: "六本木一丁目", operatorName: "東京地下鉄",
                                 serviceClass: .conventional, lines: ["7号線南北線"],
                                 coordinate: Coordinate(lat: 35.665075, lon: 139.738900))]
        do {
            let store = try StationStore(path: path)
            #expect(try store.search.foldVersion() == TextFold.foldVersion)
            try store.importRecords(rows, dataset: "t")
            #expect(try store.search.stations(matching: "六本木1丁目").map(\.station.name) == ["六本木一丁目"])
        }
        // Make the index look like one of fold version 1: no version recorded, forms of the
        // old fold (六本木一丁目 as it was stored then, without the numeral step).
        do {
            let db = try Database(path: path)
            try db.execute("DELETE FROM eki_meta WHERE name = 'search_fold'")
            try db.execute("UPDATE search_term SET form = replace(form, '1丁目', '一丁目')")
            try db.execute("UPDATE search_entry SET name_h = replace(name_h, '1丁目', '一丁目')")
        }
        let readOnly = try StationStore(path: path, readOnly: true)
        #expect(try readOnly.search.foldVersion() == nil)
        #expect(try readOnly.search.stations(matching: "六本木1丁目").isEmpty)
        let writable = try StationStore(path: path)
        #expect(try writable.search.foldVersion() == TextFold.foldVersion)
        #expect(try writable.search.stations(matching: "六本木1丁目").map(\.station.name) == ["六本木一丁目"])
        #expect(try writable.search.stations(matching: "六本木一丁目").map(\.station.name) == ["六本木一丁目"])
    }
}
