import Testing
import Foundation
import EkiKit
import EkiImport
import EkiTestSupport

/// GTFS import of the real feeds and peer suites in ../shared (skipped when it is absent).
@Suite("GTFS: real feeds in ../shared")
struct GTFSRealFeedTests {
    typealias D = GTFSTestData

    /// The Port Liner expectations, for the zip and the directory alike.
    func checkPortLiner(_ batch: ImportBatch) {
        #expect(batch.records.count == 12)
        #expect(batch.warnings.isEmpty)
        let entries = EntryRule().entries(from: batch.records)
        #expect(entries.count == 12)
        #expect(entries.allSatisfy { $0.reading != nil && $0.latinName != nil })
        #expect(entries.allSatisfy { $0.serviceClass == .conventional })
        #expect(entries.allSatisfy { $0.operatorRef == "7140001011983_1" && $0.operatorName == "Kobe New Transit" })
        guard let sannomiya = entries.first(where: { $0.name == "三宮" }) else {
            Issue.record("no entry named 三宮")
            return
        }
        #expect(sannomiya.reading == "さんのみや")
        #expect(sannomiya.latinName == "Sannomiya")
        #expect(sannomiya.operatorRef == "7140001011983_1")
        #expect(sannomiya.serviceClass == .conventional)
        #expect(sannomiya.lines == ["空港線", "ループ線"])
        #expect(sannomiya.sources == [SourceRef(dataset: batch.dataset, id: "1_0")])
        #expect(abs(sannomiya.coordinate.lat - 34.6949639807245) < 1e-9)
        #expect(abs(sannomiya.coordinate.lon - 135.195181421009) < 1e-9)
        // Only 空港線 beyond 市民広場, only ループ線 on the loop's own stations.
        #expect(entries.first { $0.name == "神戸空港" }?.lines == ["空港線"])
        #expect(entries.first { $0.name == "北埠頭" }?.lines == ["ループ線"])
        #expect(entries.first { $0.name == "ポートターミナル" }?.reading == "ぽーとたーみなる")
        #expect(entries.first { $0.name == "南公園" }?.latinName == "Minami Koen(IKEA Kobe Children’s Hospital Mae)")
    }

    @Test("Port Liner zip: 12 entries, 三宮 = さんのみや / Sannomiya, agency 7140001011983_1, 空港線 and ループ線",
          .needsShared(D.portLiner))
    func portLinerZip() throws {
        let batch = try GTFSImporter(path: D.shared(D.portLiner + "/gtfs-PortLiner2025v1.zip")).read()
        #expect(batch.dataset == "gtfs/gtfs-PortLiner2025v1")
        checkPortLiner(batch)
    }

    @Test("Port Liner directory: the same 12 entries as the zip",
          .needsShared(D.portLiner))
    func portLinerDirectory() throws {
        let dir = try GTFSImporter(path: D.shared(D.portLiner + "/gtfs"), feedName: "portliner").read()
        #expect(dir.dataset == "gtfs/portliner")
        checkPortLiner(dir)
        let zip = try GTFSImporter(path: D.shared(D.portLiner + "/gtfs-PortLiner2025v1.zip"), feedName: "portliner").read()
        #expect(zip.records == dir.records)
    }

    @Test("Utsunomiya LRT: 34 poles → 19 entries, every one with a record_id reading; agency_id trimmed",
          .needsShared(D.utsunomiya))
    func utsunomiya() throws {
        let batch = try GTFSImporter(path: D.shared(D.utsunomiya + "/gtfs")).read()
        #expect(batch.records.count == 34)
        #expect(batch.warnings.isEmpty)
        let entries = EntryRule().entries(from: batch.records)
        #expect(entries.count == 19)
        #expect(entries.allSatisfy { $0.reading != nil })
        #expect(entries.allSatisfy { $0.operatorName == "宇都宮ライトレール株式会社" && $0.operatorRef == "1060001027696" })
        #expect(entries.allSatisfy { $0.serviceClass == .conventional && $0.lines.isEmpty })   // the route has no name
        let east = entries.first { $0.name == "宇都宮駅東口" }
        #expect(east?.reading == "うつのみやえきひがしぐち")
        #expect(east?.sources.map(\.id) == ["1_01"])
        let mine = entries.first { $0.name == "峰" }
        #expect(mine?.reading == "みね")
        #expect(mine?.sources.map(\.id) == ["4_01", "4_02"])
        #expect(entries.first { $0.name == "芳賀・高根沢工業団地" }?.reading == "はがたかねざわこうぎょうだんち")
    }

    @Test("transitfeed: every case expected.json marks fatal fails with an ImportError",
          .needsShared(D.transitfeed + "/expected.json"))
    func transitfeedFatal() {
        let fatal = D.transitfeedCases().filter { $0.outcome == "fatal" }.map(\.path)
        #expect(!fatal.isEmpty)
        for name in fatal {
            if case .success(let batch) = D.run(D.shared(D.transitfeed + "/" + name), modes: .all) {
                Issue.record("\(name) is fatal in expected.json but imported \(batch.records.count) records")
            }
        }
    }

    @Test("transitfeed fatal cases name file, line and field",
          .needsShared(D.transitfeed))
    func transitfeedFatalDetails() throws {
        func error(_ name: String) -> ImportError? {
            if case .failure(let e) = D.run(D.shared(D.transitfeed + "/" + name)) { return e }
            Issue.record("\(name) imported")
            return nil
        }
        let null = try #require(error("contains_null"))
        #expect(null.file.hasSuffix("contains_null/stops.txt"))
        #expect(null.line == 9)
        #expect(null.field == "stop_name")
        #expect(null.message.contains("NUL"))
        let utf16 = try #require(error("utf16"))
        #expect(utf16.file.hasSuffix("utf16/agency.txt"))
        #expect(utf16.message.contains("UTF-16"))
        let empty = try #require(error("empty_file"))
        #expect(empty.file.hasSuffix("empty_file/agency.txt") && empty.line == 1)
        let column = try #require(error("missing_column"))
        #expect(column.file.hasSuffix("missing_column/agency.txt"))
        #expect(column.field == "agency_name")
        let zip = try #require(error("unknown_format.zip"))
        #expect(zip.file.hasSuffix("unknown_format.zip"))
        #expect(zip.message.contains("zip"))
    }

    @Test("transitfeed: good_feed, good_feed.zip and utf8bom import; bus-only, so 0 records by default",
          .needsShared(D.transitfeed),
          arguments: ["good_feed", "good_feed.zip", "utf8bom"])
    func transitfeedValid(name: String) throws {
        let path = D.shared(D.transitfeed + "/" + name)
        let rail = try GTFSImporter(path: path).read()
        #expect(rail.records.isEmpty)
        #expect(rail.warnings.isEmpty)
        let all = try GTFSImporter(path: path, modes: .all).read()
        #expect(all.warnings.isEmpty)
        #expect(all.records.count == 9)
        #expect(all.records.allSatisfy { $0.operatorRef == "DTA" })
        let ids = Set(all.records.map(\.source.id))
        if name == "utf8bom" {
            // An older copy of the feed: 9 stops, no station; the BOM does not hide agency_id.
            #expect(ids.contains("BEATTY_AIRPORT"))
            #expect(all.records.allSatisfy { $0.operatorName == "Demo Transit Authority" })
            #expect(all.records.first { $0.source.id == "STAGECOACH" }?.lines == ["Stagecoach - Airport Shuttle", "City"])
        } else {
            // 10 stops, of which BEATTY_AIRPORT is a platform of BEATTY_AIRPORT_STATION: 9 places.
            #expect(ids.contains("BEATTY_AIRPORT_STATION") && !ids.contains("BEATTY_AIRPORT"))
            #expect(all.records.allSatisfy { $0.operatorName == "Autorité de passage de démonstration" })
            // CITY has short name Ō and long name Bar Circle: the long name is the line.
            #expect(all.records.first { $0.source.id == "STAGECOACH" }?.lines == ["Stagecoach ⇒ Airport Shuttle", "Bar Circle"])
        }
    }

    @Test("transitfeed problem cases: what the importer does with them",
          .needsShared(D.transitfeed))
    func transitfeedProblems() throws {
        func run(_ name: String) -> Result<ImportBatch, ImportError> {
            D.run(D.shared(D.transitfeed + "/" + name), modes: .all)
        }
        // Not UTF-8 is an error (the issue asks for it; transitfeed only reports it).
        guard case .failure(let utf8) = run("bad_utf8") else { Issue.record("bad_utf8 imported"); return }
        #expect(utf8.file.hasSuffix("bad_utf8/agency.txt") && utf8.message.contains("UTF-8"))
        // A missing required file is an error naming it.
        guard case .failure(let stops) = run("missing_stops") else { Issue.record("missing_stops imported"); return }
        #expect(stops.file.hasSuffix("missing_stops/stops.txt"))
        // Warnings: exactly one each, saying what upstream says.
        let unknown = try run("unknown_file").get()
        #expect(unknown.warnings.count == 1)
        #expect(unknown.warnings.first?.file.hasSuffix("frecuencias.txt") == true)
        let unused = try run("unused_stop").get()
        #expect(unused.warnings.count == 1)
        #expect(unused.warnings.first?.message.contains("'BOGUS' (Bogus Stop (Demo))") == true)
        let undefined = try run("undefined_stop").get()
        #expect(undefined.warnings.count == 1)
        #expect(undefined.warnings.first?.field == "stop_id")
        for name in ["extra_row_cells", "missing_row_cells"] {
            let batch = try run(name).get()
            #expect(batch.warnings.count == 1)
            #expect(batch.warnings.first?.file.hasSuffix("\(name)/routes.txt") == true)
            #expect(batch.warnings.first?.line == 4)
            #expect(batch.records.count == 9)
        }
    }

    @Test("Google sample feed (dir and zip): 0 records by default, 9 stops with modes .all",
          .needsShared(D.googleSample),
          arguments: ["sample-feed", "sample-feed.zip"])
    func googleSample(name: String) throws {
        let path = D.shared(D.googleSample + "/" + name)
        #expect(GTFSImporter.looksLikeGTFS(path: path))
        let rail = try GTFSImporter(path: path).read()
        #expect(rail.dataset == "gtfs/sample-feed")
        #expect(rail.records.isEmpty)
        let all = try GTFSImporter(path: path, modes: .all).read()
        #expect(all.records.count == 9)
        #expect(EntryRule().entries(from: all.records).count == 9)
        #expect(all.records.allSatisfy { $0.operatorName == "Demo Transit Authority" && $0.operatorRef == "DTA" })
        // Rows without their trailing empty fields (stop_times.txt from line 17) are read, with one warning.
        #expect(all.warnings.count == 1)
        #expect(all.warnings.first?.file.hasSuffix("stop_times.txt") == true)
        #expect(all.warnings.first?.line == 17)
        let airport = all.records.first { $0.source.id == "BEATTY_AIRPORT" }
        #expect(airport?.name == "Nye County Airport (Demo)")
        #expect(airport?.lines == ["Airport - Bullfrog", "Stagecoach - Airport Shuttle", "Airport - Amargosa Valley"])
    }

    @Test("looksLikeGTFS: feeds yes; a text file named .zip, KML, a feed without routes.txt, a missing path no",
          .needsShared(D.transitfeed, D.portLiner))
    func detection() {
        #expect(GTFSImporter.looksLikeGTFS(path: D.shared(D.portLiner + "/gtfs")))
        #expect(GTFSImporter.looksLikeGTFS(path: D.shared(D.portLiner + "/gtfs-PortLiner2025v1.zip")))
        #expect(GTFSImporter.looksLikeGTFS(path: D.shared(D.transitfeed + "/good_feed.zip")))
        #expect(!GTFSImporter.looksLikeGTFS(path: D.shared(D.transitfeed + "/unknown_format.zip")))
        #expect(!GTFSImporter.looksLikeGTFS(path: D.shared(D.transitfeed + "/one_line.kml")))
        #expect(!GTFSImporter.looksLikeGTFS(path: D.shared(D.transitfeed + "/au-sydney-entrances")))
        #expect(!GTFSImporter.looksLikeGTFS(path: D.shared(D.transitfeed + "/no-such-feed")))
    }
}
