import Testing
import Foundation
import EkiKit
@testable import EkiImport

/// GTFS import of this target's own small fixtures (Fixtures/gtfs), and the pieces underneath.
@Suite("GTFS: fixtures and parts")
struct GTFSFixtureTests {
    typealias D = GTFSTestData
    static let jp = "jp-2agencies-station-shinkansen-bus-oldtranslations"

    @Test("station with platforms, Shinkansen by name and by type 101, tram stop; bus and ropeway left out")
    func railModes() throws {
        let batch = try GTFSImporter(path: D.fixture(Self.jp)).read()
        #expect(batch.dataset == "gtfs/\(Self.jp)")
        let records = batch.records
        #expect(records.count == 3)
        let shinkansen = records.first { $0.serviceClass == .shinkansen }
        #expect(shinkansen?.source.id == "OMY")                   // the station, not its platform
        #expect(shinkansen?.lines == ["東北新幹線", "Joetsu"])
        #expect(shinkansen?.coordinate == Coordinate(lat: 35.906, lon: 139.624))
        #expect(shinkansen?.reading == "おおみや")                  // old layout, katakana folded
        #expect(shinkansen?.latinName == "Omiya")
        #expect(shinkansen?.operatorRef == "1234567890123_1")       // written with a trailing space
        #expect(shinkansen?.operatorName == "東日本旅客鉄道株式会社")
        let conventional = records.first { $0.source.id == "OMY" && $0.serviceClass == .conventional }
        #expect(conventional?.lines == ["宇都宮線"])
        let tram = records.first { $0.source.id == "TRAM1" }
        #expect(tram?.name == "駅前, 北口")
        #expect(tram?.reading == "えきまえきたぐち")
        #expect(tram?.lines == ["軌道線"])                          // long name, not short "1"
        #expect(tram?.operatorRef == "9876543210987_1")
        // Entries: 大宮 Shinkansen, 大宮 conventional, 駅前, 北口.
        #expect(EntryRule().entries(from: records).count == 3)
        // Warnings: the unknown file and the stop no trip serves.
        #expect(batch.warnings.count == 2)
        #expect(batch.warnings.contains { $0.file.hasSuffix("/notes.txt") && $0.message.contains("unknown file") })
        #expect(batch.warnings.contains { $0.file.hasSuffix("/stops.txt") && $0.line == 8 && $0.message.contains("UNUSED") })
    }

    @Test("modes .all adds the bus stop and the ropeway, and bus lines at the tram stop")
    func allModes() throws {
        let records = try GTFSImporter(path: D.fixture(Self.jp), modes: .all).read().records
        #expect(records.count == 5)
        #expect(records.first { $0.source.id == "TRAM1" }?.lines == ["軌道線", "市内バス"])
        #expect(records.first { $0.source.id == "BUS1" }?.lines == ["市内バス"])
        #expect(records.first { $0.source.id == "ROPE1" }?.lines == ["ロープウェイ"])
        let busOnly = try GTFSImporter(path: D.fixture(Self.jp), modes: .bus).read().records
        #expect(busOnly.map(\.source.id).sorted() == ["BUS1", "TRAM1"])
    }

    @Test("a stop without a latitude stops the import, naming file, line and field")
    func missingCoordinates() {
        guard case .failure(let error) = D.run(D.fixture("stop-without-latitude")) else {
            Issue.record("imported")
            return
        }
        #expect(error.file.hasSuffix("stop-without-latitude/stops.txt"))
        #expect(error.line == 3)
        #expect(error.field == "stop_lat")
        #expect(error.message.contains("S2"))
    }

    @Test("zip with the feed in a folder; record_id and field_value translations")
    func zipInFolder() throws {
        let path = D.fixture("monorail-2stops-in-folder.zip")
        #expect(GTFSImporter.looksLikeGTFS(path: path))
        let batch = try GTFSImporter(path: path).read()
        #expect(batch.dataset == "gtfs/monorail-2stops-in-folder")
        #expect(batch.warnings.isEmpty)
        #expect(batch.records.count == 2)
        let a = batch.records.first { $0.source.id == "A_1" }
        #expect(a?.reading == "こうえき")
        #expect(a?.lines == ["本線"])
        let b = batch.records.first { $0.source.id == "B_1" }
        #expect(b?.reading == "おつえき")
        #expect(b?.latinName == "Otsu")
    }

    @Test("an error inside a zip names the member as feed.zip/stops.txt, with line and field, in any part size",
          arguments: [1, 2, 7, 64, 1 << 20])
    func zipMemberError(partSize: Int) throws {
        let path = D.fixture("nul-byte-in-stops-line3.zip")
        let feed = try FeedSource(path: path)
        var error: ImportError? = nil
        do throws(ImportError) {
            var reader = try FeedTableReader(feed: feed, name: "stops.txt", required: [], partSize: partSize)
            while try reader.next() != nil {}
        } catch let e {
            error = e
        }
        #expect(error?.file == path + "/stops.txt")
        #expect(error?.line == 3)
        #expect(error?.field == "stop_name")
        #expect(error?.message.contains("NUL") == true)
        // The importer reports the same.
        guard case .failure(let fromImporter) = D.run(path) else { Issue.record("imported"); return }
        #expect(fromImporter == error)
    }

    @Test("reading in small parts gives the same rows and line numbers as one part",
          arguments: [1, 2, 3, 5, 16])
    func partsMatchWhole(partSize: Int) throws {
        let feed = try FeedSource(path: D.fixture(Self.jp))
        for name in ["agency.txt", "stops.txt", "translations.txt", "stop_times.txt"] {
            func rows(_ size: Int) throws -> [[String]] {
                var reader = try FeedTableReader(feed: feed, name: name, required: [], partSize: size)
                var out: [[String]] = []
                while let row = try reader.next() { out.append(["\(row.line)"] + row.fields) }
                return out
            }
            let whole = try rows(1 << 20)
            #expect(!whole.isEmpty)
            #expect(try rows(partSize) == whole, "\(name) in parts of \(partSize)")
        }
    }

    @Test("the splitter cuts only after a line feed outside quotes and counts lines")
    func splitter() throws {
        let text = Array("a,b\r\n1,\"x\ny\"\n2,\"\"\"q\"\"\"\n3,w".utf8)
        for size in 1...text.count {
            var s = RecordSplitter()
            var parts: [(line: Int, bytes: [UInt8])] = []
            var i = 0
            while i < text.count {
                let part = try s.add(Array(text[i..<min(i + size, text.count)]))
                if !part.isEmpty { parts.append((s.line, part)); s.partDone() }
                i += size
            }
            let last = s.finish()
            if !last.isEmpty { parts.append((s.line, last)); s.partDone() }
            #expect(parts.flatMap(\.bytes) == text)
            for p in parts.dropLast() { #expect(p.bytes.last == 0x0A) }
            // Every part parses on its own: no quoted field is cut.
            for p in parts {
                var r = CSVReader(bytes: p.bytes, file: "t")
                #expect(throws: Never.self) { while try r.nextRecord() != nil {} }
            }
            // Line numbers: the part that starts with "2," starts on line 4.
            if let two = parts.first(where: { $0.bytes.starts(with: Array("2,".utf8)) }) {
                #expect(two.line == 4)
            }
        }
    }

    @Test("mode names and route_type codes")
    func modes() {
        #expect(GTFSModes(parsing: "rail,bus") == GTFSModes.rail.union(.bus))
        #expect(GTFSModes(parsing: " All ") == .all)
        #expect(GTFSModes(parsing: "aerial-lift") == .aerialLift)
        #expect(GTFSModes(parsing: "rail,nope") == nil)
        #expect(GTFSModes(parsing: "") == nil)
        #expect(GTFSModes.mode(ofRouteType: 101) == .railway)
        #expect(GTFSModes.mode(ofRouteType: 405) == .monorail)
        #expect(GTFSModes.mode(ofRouteType: 401) == .subway)
        #expect(GTFSModes.mode(ofRouteType: 1400) == .funicular)
        #expect(GTFSModes.mode(ofRouteType: 1301) == .aerialLift)
        #expect(GTFSModes.mode(ofRouteType: 204) == .bus)
        #expect(GTFSModes.mode(ofRouteType: 9999) == .other)
        let railTypes = [0, 1, 2, 5, 7, 12] + Array(100...117) + Array(400...405) + Array(900...906) + [1400]
        #expect(railTypes.allSatisfy { GTFSModes.rail.includes(routeType: $0) })
        #expect([3, 4, 6, 11, 200, 700, 715, 800, 1000, 1200, 1300, 1500].allSatisfy { !GTFSModes.rail.includes(routeType: $0) })
    }
}
