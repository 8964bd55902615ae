import EkiImport
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// OSM PBF: files made from XML by osmium-tool in the test, imported by `OSMPBFImporter` and
/// compared with the XML import of the same data (osmium's own XML, whose coordinates carry
/// the same 7 decimals as PBF, and the original file).
@Suite("OSM import: PBF")
struct OSMPBFTests {
    /// Converts `xml` with `osmium cat` into `<name>.osm.pbf` and `<name>.osm` (osmium's XML).
    static func convert(_ xml: String, in dir: TemporaryDirectory, name: String) throws -> (pbf: String, xml: String) {
        let pbf = dir.file("\(name).osm.pbf"), out = dir.file("\(name).osm")
        #expect(try OSMTestSupport.shell("osmium cat -F osm \"$1\" -o \"$2\" && osmium cat -F osm \"$1\" -o \"$3\"",
                                         xml, pbf, out) == 0)
        return (pbf, out)
    }

    /// Every field of every row, sorted: the rows of two imports are equal when these are.
    static func rows(_ batch: ImportBatch) -> [String] {
        batch.records.map {
            [$0.source.id, $0.name, $0.reading ?? "-", $0.latinName ?? "-", $0.operatorName ?? "-",
             $0.serviceClass.rawValue, $0.lines.joined(separator: ","), "\($0.coordinate.lat)", "\($0.coordinate.lon)",
             $0.lineOrder.map(String.init) ?? "-"].joined(separator: "|")
        }.sorted()
    }

    @Test("Odawara fixture (14 nodes, 1 way, 6 relations): PBF gives the XML's 5 rows, lines through routes and stop areas",
          .needsTool("osmium", package: "osmium-tool"))
    func odawara() throws {
        let dir = TemporaryDirectory()
        let files = try Self.convert(OSMTestSupport.fixture("odawara-n14w1r6.osm"), in: dir, name: "odawara")
        #expect(OSMPBFImporter.isPBF(path: files.pbf))
        #expect(!OSMPBFImporter.isPBF(path: files.xml))
        let pbf = try OSMPBFImporter(path: files.pbf).read()
        let xml = try OSMImporter(path: files.xml).read()
        let original = try OSMImporter(path: OSMTestSupport.fixture("odawara-n14w1r6.osm")).read()
        #expect(OSMTestSupport.summary(pbf.records) == [
            "小田急電鉄|conventional|小田急小田原線|node/1001",
            "東日本旅客鉄道|conventional|JR東海道線|node/1001",
            "東日本旅客鉄道|conventional|JR東海道線|node/1006",
            "東海旅客鉄道|shinkansen|東海道新幹線|node/1001",
            "箱根登山鉄道|conventional||way/2001",
        ])
        #expect(pbf.warnings.isEmpty)
        #expect(Self.rows(pbf) == Self.rows(xml))
        #expect(OSMTestSupport.summary(pbf.records) == OSMTestSupport.summary(original.records))
        #expect(EntryRule().entries(from: pbf.records) == EntryRule().entries(from: xml.records))
        #expect(pbf.dataset == "osm")
    }

    @Test("Hokkaido JOSM file: PBF gives 400 rows and entries, 小樽 within 1e-7° of the XML",
          .needsTool("osmium", package: "osmium-tool"), .needsShared(OSMTestSupport.hokkaidoFile))
    func hokkaido() throws {
        let dir = TemporaryDirectory()
        let files = try Self.convert(OSMTestSupport.hokkaido, in: dir, name: "hokkaido")
        let pbf = try OSMPBFImporter(path: files.pbf).read()
        let xml = try OSMImporter(path: files.xml).read()
        #expect(pbf.records.count == 400)
        #expect(Self.rows(pbf) == Self.rows(xml))
        let entries = EntryRule().entries(from: pbf.records)
        #expect(entries.count == 400)
        let otaru = try #require(entries.first { $0.name == "小樽" })
        #expect(otaru.reading == "おたる")
        #expect(otaru.latinName == "Otaru")
        #expect(otaru.sources == [SourceRef(dataset: "osm", id: "node/-176889")])
        #expect(abs(otaru.coordinate.lat - 43.1975700845) < 1e-7)
        #expect(abs(otaru.coordinate.lon - 140.99349796236) < 1e-7)
        // The original file's rows, coordinates aside, are the PBF's.
        let original = try OSMImporter(path: OSMTestSupport.hokkaido).read()
        #expect(OSMTestSupport.summary(pbf.records) == OSMTestSupport.summary(original.records))
        #expect(pbf.records.map(\.name).sorted() == original.records.map(\.name).sorted())
    }

    @Test("Tokyo rail geometry (386 ways, no stations): PBF gives 0 rows and the empty reason",
          .needsTool("osmium", package: "osmium-tool"), .needsShared(OSMTestSupport.tokyoRailGeoFile))
    func tokyoNoStations() throws {
        let dir = TemporaryDirectory()
        let files = try Self.convert(OSMTestSupport.tokyoRailGeo, in: dir, name: "tokyo")
        let pbf = try OSMPBFImporter(path: files.pbf).read()
        #expect(pbf.records.isEmpty)
        #expect(pbf.emptyReason != nil)
    }

    @Test("Synthetic extract (way stations, routes, stop areas): PBF rows equal the XML's",
          .needsTool("osmium", package: "osmium-tool"), .needsTool("python3"))
    func synthetic() throws {
        let dir = TemporaryDirectory()
        let source = dir.file("synthetic.osm")
        #expect(try OSMTestSupport.shell("python3 \"$1\" --megabytes 2 --output \"$2\"",
                                         TestPaths.package("Scripts/bench/gen-osm-extract.py"), source) == 0)
        let files = try Self.convert(source, in: dir, name: "synthetic-osmium")
        let pbf = try OSMPBFImporter(path: files.pbf).read()
        let xml = try OSMImporter(path: files.xml).read()
        #expect(pbf.records.count == xml.records.count)
        #expect(pbf.records.contains { $0.source.id.hasPrefix("way/") })
        #expect(pbf.records.contains { !$0.lines.isEmpty })
        #expect(Self.rows(pbf) == Self.rows(xml))
    }

    /// A relation station with a way and a node member, and a way station, in both orders: the
    /// centroids come from nodes found in a later pass (PBF) or later in the file (XML).
    static func relationStation(unsorted: Bool) -> String {
        let nodes = """
          <node id="1" lat="35.0000000" lon="139.0000000"/>
          <node id="2" lat="35.0020000" lon="139.0000000"/>
          <node id="3" lat="35.0020000" lon="139.0030000"/>
          <node id="4" lat="35.0100000" lon="139.0100000"/>
          <node id="5" lat="35.0200000" lon="139.0200000"/>
          <node id="6" lat="35.0200000" lon="139.0240000"/>
        """
        let ways = """
          <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="1"/></way>
          <way id="11"><nd ref="5"/><nd ref="6"/>
            <tag k="railway" v="station"/><tag k="name" v="東駅"/></way>
        """
        let relations = """
          <relation id="20"><member type="way" ref="10" role="outline"/><member type="node" ref="4" role=""/>
            <tag k="type" v="multipolygon"/><tag k="public_transport" v="station"/><tag k="train" v="yes"/>
            <tag k="name" v="西駅"/><tag k="operator" v="西鉄道"/></relation>
        """
        let body = unsorted ? relations + "\n" + ways + "\n" + nodes : nodes + "\n" + ways + "\n" + relations
        return "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n\(body)\n</osm>\n"
    }

    @Test("Way and relation stations, sorted and unsorted: centroids from later passes equal the XML's",
          .needsTool("osmium", package: "osmium-tool"), arguments: [false, true])
    func centroids(unsorted: Bool) throws {
        let dir = TemporaryDirectory()
        let source = dir.file("stations.osm")
        try Self.relationStation(unsorted: unsorted).write(toFile: source, atomically: true, encoding: .utf8)
        let files = try Self.convert(source, in: dir, name: "stations-osmium")
        let pbf = try OSMPBFImporter(path: files.pbf).read()
        #expect(Self.rows(pbf) == Self.rows(try OSMImporter(path: files.xml).read()))
        #expect(Self.rows(pbf) == Self.rows(try OSMImporter(path: source).read()))
        let west = try #require(pbf.records.first { $0.name == "西駅" })
        #expect(west.source.id == "relation/20")
        #expect(abs(west.coordinate.lat - (35.0 + 35.002 + 35.002 + 35.01) / 4) < 1e-12)
        #expect(abs(west.coordinate.lon - (139.0 + 139.0 + 139.003 + 139.01) / 4) < 1e-12)
        let east = try #require(pbf.records.first { $0.name == "東駅" })
        #expect(east.source.id == "way/11")
        #expect(abs(east.coordinate.lon - 139.022) < 1e-12)
        // Stations in node, way, relation order whatever the file's order.
        #expect(pbf.records.map(\.source.id) == ["way/11", "relation/20"])
    }

    @Test("The registry picks the osm format for PBF by content, whatever the name",
          .needsTool("osmium", package: "osmium-tool"))
    func registry() throws {
        let dir = TemporaryDirectory()
        let files = try Self.convert(OSMTestSupport.fixture("odawara-n14w1r6.osm"), in: dir, name: "odawara")
        let renamed = dir.file("extract.dat")
        try FileManager.default.copyItem(atPath: files.pbf, toPath: renamed)
        let input = try ImportInput(renamed)
        let format = try ImporterRegistry().format(for: input, profile: nil, options: ImportOptions())
        #expect(format.name == "osm")
        let importer = try format.importer(for: input, options: ImportOptions())
        #expect(importer is OSMPBFImporter)
        #expect(try importer.read().records.count == 5)
        // XML named .osm.pbf is read as XML; anything else so named gets the PBF importer's error.
        let misnamed = dir.file("odawara-xml.osm.pbf")
        try FileManager.default.copyItem(atPath: files.xml, toPath: misnamed)
        let xmlImporter = try OSMFormat().importer(for: try ImportInput(misnamed), options: ImportOptions())
        #expect(xmlImporter is OSMImporter)
        #expect(try xmlImporter.read().records.count == 5)
        let text = dir.file("notes.osm.pbf")
        try "station list".write(toFile: text, atomically: true, encoding: .utf8)
        let textInput = try ImportInput(text)
        #expect(OSMFormat().identify(textInput) == .maybe)
        #expect(throws: ImportError(file: text, message: "cannot read as OpenStreetMap PBF: PBF error: invalid BlobHeader size (> max_blob_header_size)")) {
            try OSMFormat().importer(for: textInput, options: ImportOptions()).read()
        }
    }

    @Test("Truncated and corrupt PBF: an ImportError naming the file, never a partial import",
          .needsTool("osmium", package: "osmium-tool"))
    func corrupt() throws {
        let dir = TemporaryDirectory()
        let files = try Self.convert(OSMTestSupport.fixture("odawara-n14w1r6.osm"), in: dir, name: "odawara")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: files.pbf))
        let truncated = dir.file("truncated.osm.pbf")
        try bytes.prefix(bytes.count - 40).write(to: URL(fileURLWithPath: truncated))
        #expect {
            try OSMPBFImporter(path: truncated).read()
        } throws: { e in
            guard let e = e as? ImportError else { return false }
            return e.file == truncated && e.message.hasPrefix("corrupt or truncated OpenStreetMap PBF: ")
        }
        let empty = dir.file("empty.osm.pbf")
        FileManager.default.createFile(atPath: empty, contents: Data())
        #expect(throws: ImportError(file: empty, message: "not OpenStreetMap PBF: the file is empty")) {
            try OSMPBFImporter(path: empty).read()
        }
        var garbled = bytes
        for i in stride(from: garbled.count / 2, to: garbled.count - 8, by: 3) { garbled[i] ^= 0x5A }
        let corrupt = dir.file("corrupt.osm.pbf")
        try garbled.write(to: URL(fileURLWithPath: corrupt))
        #expect {
            try OSMPBFImporter(path: corrupt).read()
        } throws: { e in
            guard let e = e as? ImportError else { return false }
            return e.file == corrupt && e.message.hasPrefix("corrupt or truncated OpenStreetMap PBF: ")
        }
    }

    @Test("Nodes without tags, checked in COsmium: one at (0, 0) is refused naming it; a way station's nodes before and after it are found",
          .needsTool("osmium", package: "osmium-tool"))
    func plainNodes() throws {
        let dir = TemporaryDirectory()
        var xml = "<?xml version='1.0' encoding='UTF-8'?>\n<osm version=\"0.6\">\n"
        for id in 1...3000 { xml += "  <node id=\"\(id)\" version=\"1\" lat=\"\(35 + Double(id) / 100_000)\" lon=\"139.5\"/>\n" }
        xml += "  <way id=\"1\" version=\"1\"><nd ref=\"2\"/><nd ref=\"2999\"/><tag k=\"railway\" v=\"station\"/><tag k=\"name\" v=\"両端駅\"/></way>\n</osm>\n"
        let source = dir.file("plain.osm")
        try xml.write(toFile: source, atomically: true, encoding: .utf8)
        let files = try Self.convert(source, in: dir, name: "plain-osmium")
        let pbf = try OSMPBFImporter(path: files.pbf).read()
        #expect(Self.rows(pbf) == Self.rows(try OSMImporter(path: source).read()))
        let station = try #require(pbf.records.first)
        #expect(pbf.records.count == 1)
        #expect(abs(station.coordinate.lat - (35.00002 + 35.02999) / 2) < 1e-12)

        let null = dir.file("null.osm")
        try xml.replacingOccurrences(of: "<node id=\"1500\" version=\"1\" lat=\"35.015\" lon=\"139.5\"/>",
                                     with: "<node id=\"1500\" version=\"1\" lat=\"0\" lon=\"0\"/>")
            .write(toFile: null, atomically: true, encoding: .utf8)
        let nullFiles = try Self.convert(null, in: dir, name: "null-osmium")
        #expect {
            try OSMPBFImporter(path: nullFiles.pbf).read()
        } throws: { e in
            guard let e = e as? ImportError else { return false }
            return e.file == nullFiles.pbf && e.message.hasPrefix("node/1500: ") && e.field == "lat"
        }
    }
}
