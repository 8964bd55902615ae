import EkiImport
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// The first pass over a plain file read in parts on several threads (`threads`,
/// `minimumPartBytes`) must give exactly what one thread gives: rows in the same order, the
/// same warnings with the same lines, the same errors.
@Suite("OSM import: first pass in parts")
struct OSMParallelScanTests {
    /// Reads `path` on one thread and in parts of about `partBytes` bytes on `threads` threads.
    static func both(_ path: String, threads: Int = 4, partBytes: Int) throws -> (one: ImportBatch, parts: ImportBatch) {
        var one = OSMImporter(path: path)
        one.threads = 1
        var parts = OSMImporter(path: path)
        parts.threads = threads
        parts.minimumPartBytes = partBytes
        return (try one.read(), try parts.read())
    }

    static func write(_ xml: String) throws -> (TemporaryDirectory, String) {
        let dir = TemporaryDirectory()
        let file = dir.url.appendingPathComponent("parts.osm")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        return (dir, file.path)
    }

    static func lat(_ id: Int) -> Double { 35 + Double(id) / 10_000 }
    static func lon(_ id: Int) -> Double { 139 + Double(id % 97) / 1_000 }

    /// 3000 nodes (every 100th a station, every 500th of those without name), way stations
    /// over a node before them and one 500 further on (in a later part), a relation station
    /// at the start over a way at the end.
    static func unsortedXML() -> String {
        var xml = "<?xml version='1.0' encoding='UTF-8'?>\n<!-- a test file -->\n<osm version=\"0.6\" generator=\"test\">\n"
        xml += "  <relation id=\"1\"><member type=\"way\" ref=\"900\" role=\"\"/><tag k=\"railway\" v=\"station\"/><tag k=\"name\" v=\"関係駅\"/></relation>\n"
        for id in 1...3000 {
            if id % 100 == 0 {
                let name = id % 500 == 0 ? "" : "<tag k=\"name\" v=\"駅\(id)\"/>"
                xml += "  <node id=\"\(id)\" lat=\"\(lat(id))\" lon=\"\(lon(id))\">\n    <tag k=\"railway\" v=\"station\"/>\(name)\n  </node>\n"
            } else {
                xml += "  <node id=\"\(id)\" version=\"1\" lat=\"\(lat(id))\" lon=\"\(lon(id))\"/>\n"
            }
            if id % 700 == 0 {
                xml += "  <way id=\"\(id)\"><nd ref=\"\(id - 3)\"/><nd ref=\"\(min(id + 500, 3000))\"/><tag k=\"railway\" v=\"halt\"/><tag k=\"name\" v=\"道\(id)\"/></way>\n"
            }
        }
        xml += "  <way id=\"900\"><nd ref=\"10\"/><nd ref=\"2990\"/></way>\n</osm>\n"
        return xml
    }

    /// The 1-based line on which `needle` first occurs in `text`.
    static func line(of needle: String, in text: String) throws -> Int {
        let range = try #require(text.range(of: needle))
        return text[..<range.lowerBound].filter { $0 == "\n" }.count + 1
    }

    @Test("Unsorted file in 4 parts: 24 named node, 4 way and 1 relation stations; rows and warning lines as on one thread")
    func unsortedParts() throws {
        let xml = Self.unsortedXML()
        let (dir, path) = try Self.write(xml)
        defer { _ = dir }
        let (one, parts) = try Self.both(path, partBytes: 20_000)
        #expect(one.records.count == 24 + 4 + 1)
        #expect(parts.records == one.records)
        #expect(parts.warnings == one.warnings)
        #expect(one.warnings.count == 6)
        #expect(parts.warnings.last?.message == "node/3000: station without name, skipped")
        // The line expat is on when the element ends: its `</node>`, two lines below the start tag.
        #expect(parts.warnings.last?.line == (try Self.line(of: "<node id=\"3000\"", in: xml)) + 2)
        let way = try #require(parts.records.first { $0.source.id == "way/2100" })
        #expect(way.coordinate == Coordinate(lat: (Self.lat(2097) + Self.lat(2600)) / 2, lon: (Self.lon(2097) + Self.lon(2600)) / 2))
        let relation = try #require(parts.records.first { $0.source.id == "relation/1" })
        #expect(relation.coordinate == Coordinate(lat: (Self.lat(10) + Self.lat(2990)) / 2, lon: (Self.lon(10) + Self.lon(2990)) / 2))
    }

    @Test("Hokkaido JOSM file in 2, 3 and 8 parts: the same 400 rows and warnings as on one thread",
          .needsShared(OSMTestSupport.hokkaidoFile))
    func hokkaidoParts() throws {
        for threads in [2, 3, 8] {
            let (one, parts) = try Self.both(OSMTestSupport.hokkaido, threads: threads, partBytes: 64 * 1024)
            #expect(one.records.count == 400)
            #expect(parts.records == one.records)
            #expect(parts.warnings == one.warnings)
        }
    }

    @Test("A cut inside a comment that holds node lines: read on one thread, the comment's nodes are no stations")
    func cutInComment() throws {
        var xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n"
        xml += "  <node id=\"1\" lat=\"35.1\" lon=\"139.1\"><tag k=\"railway\" v=\"station\"/><tag k=\"name\" v=\"前駅\"/></node>\n  <!--\n"
        for id in 2...2000 {
            xml += "  <node id=\"\(id)\" lat=\"35.2\" lon=\"139.2\"><tag k=\"railway\" v=\"station\"/><tag k=\"name\" v=\"偽駅\"/></node>\n"
        }
        xml += "  -->\n  <node id=\"2001\" lat=\"35.3\" lon=\"139.3\"><tag k=\"railway\" v=\"station\"/><tag k=\"name\" v=\"後駅\"/></node>\n</osm>\n"
        let (dir, path) = try Self.write(xml)
        defer { _ = dir }
        let (one, parts) = try Self.both(path, partBytes: 10_000)
        #expect(parts.records.map(\.name) == ["前駅", "後駅"])
        #expect(parts.records == one.records)
    }

    @Test("An error in the last part: the same file, line and column as on one thread")
    func errorInLaterPart() throws {
        var xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n"
        for id in 1...2000 { xml += "  <node id=\"\(id)\" lat=\"35.2\" lon=\"139.2\"/>\n" }
        xml += "  <node id=\"2001\" lat=\"95.5\" lon=\"139.3\"/>\n</osm>\n"
        let (dir, path) = try Self.write(xml)
        defer { _ = dir }
        var one = OSMImporter(path: path)
        one.threads = 1
        var parts = OSMImporter(path: path)
        parts.threads = 4
        parts.minimumPartBytes = 10_000
        let e1 = try #require(throws: ImportError.self) { try one.read() }
        let e2 = try #require(throws: ImportError.self) { try parts.read() }
        #expect(e1.line == 2003)
        #expect(e2.description == e1.description)
    }

    @Test("Newlines counted eight bytes at a time")
    func newlineCount() throws {
        // A file whose only warning is on a known line, read in parts whose cuts fall at
        // different offsets within 8-byte words.
        for pad in 0..<8 {
            var xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">" + String(repeating: " ", count: pad) + "\n"
            for id in 1...1500 { xml += "  <node id=\"\(id)\" lat=\"35.2\" lon=\"139.2\"/>\n\n" }
            xml += "  <node id=\"9\" lat=\"35.2\" lon=\"139.2\"><tag k=\"railway\" v=\"station\"/></node>\n</osm>\n"
            let (dir, path) = try Self.write(xml)
            defer { _ = dir }
            let (_, parts) = try Self.both(path, threads: 3, partBytes: 10_000)
            #expect(parts.warnings.map(\.line) == [3 + 3000])
        }
    }

    @Test("gzip and bzip2 copies of a sorted 4 MB file with a way station (decompressed ahead, the node pass stopping at the first way): the plain file's rows",
          .needsTool("gzip"), .needsTool("bzip2"))
    func compressedReadAhead() throws {
        var xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n"
        for id in 1...50_000 {
            xml += "  <node id=\"\(id)\" version=\"1\" timestamp=\"2024-01-01T00:00:00Z\" lat=\"\(Self.lat(id))\" lon=\"\(Self.lon(id))\"/>\n"
        }
        xml += "  <way id=\"1\"><nd ref=\"7\"/><nd ref=\"49999\"/><tag k=\"railway\" v=\"station\"/><tag k=\"name\" v=\"圧縮駅\"/></way>\n"
        for id in 2...20_000 { xml += "  <way id=\"\(id)\"><nd ref=\"1\"/><nd ref=\"2\"/></way>\n" }
        xml += "</osm>\n"
        let (dir, path) = try Self.write(xml)
        defer { _ = dir }
        #expect(try OSMTestSupport.shell("gzip -c \"$1\" > \"$1.gz\" && bzip2 -c \"$1\" > \"$1.bz2\"", path) == 0)
        let plain = try OSMImporter(path: path).read()
        let station = try #require(plain.records.first)
        #expect(plain.records.count == 1)
        #expect(station.coordinate == Coordinate(lat: (Self.lat(7) + Self.lat(49999)) / 2, lon: (Self.lon(7) + Self.lon(49999)) / 2))
        for suffix in [".gz", ".bz2"] {
            let compressed = try OSMImporter(path: path + suffix).read()
            #expect(compressed.records == plain.records)
            #expect(compressed.warnings == plain.warnings)
        }
    }
}
