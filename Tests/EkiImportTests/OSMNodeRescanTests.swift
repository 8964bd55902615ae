import EkiImport
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// The pass that reads way stations' node positions again scans the bytes for `<node` tags
/// without expat: comments, CDATA and processing instructions that hold `<node` text, either
/// quote, any attribute order, deleted versions and chunk boundaries must give what expat gives.
@Suite("OSM import: node position rescan")
struct OSMNodeRescanTests {
    /// A way station over nodes 1 and 3; decoys for each construct the scan must skip.
    static let decoys = """
    <?xml version="1.0" encoding="UTF-8"?>
    <?stylesheet <node id="1" lat="10" lon="10"/> ?>
    <osm version="0.6" generator="test">
      <!-- <node id="1" lat="20" lon="20"/> -->
      <node lon='139.5' visible="true" id='1' lat='35.5'/>
      <node id="2" lat="36.0" lon="140.0"><tag k="note" v="a > b, &lt;node id=&quot;3&quot;&gt;"/></node>
      <node id="3" version="2" lat="35.7" lon="139.7" visible="false"/>
      <node id="3" version="3"
            lat="35.25" lon="139.25"/>
      <way id="10"><nd ref="1"/><nd ref="3"/><tag k="railway" v="station"/><tag k="name" v="中駅"/></way>
    </osm>
    """

    @Test("Comments, processing instructions, text and deleted versions are skipped: centroid (35.375, 139.375)")
    func decoysSkipped() throws {
        let batch = try OSMTestSupport.importXML(Self.decoys)
        let station = try #require(batch.records.first)
        #expect(batch.records.count == 1)
        #expect(station.source.id == "way/10")
        #expect(station.coordinate == Coordinate(lat: (35.5 + 35.25) / 2, lon: (139.5 + 139.25) / 2))
    }

    @Test("A character reference in a needed id: the pass falls back to expat, same centroid")
    func characterReferenceFallsBack() throws {
        let xml = Self.decoys.replacingOccurrences(of: "<node id=\"3\" version=\"3\"", with: "<node id=\"&#51;\" version=\"3\"")
        let station = try #require(try OSMTestSupport.importXML(xml).records.first)
        #expect(station.coordinate == Coordinate(lat: (35.5 + 35.25) / 2, lon: (139.5 + 139.25) / 2))
    }

    @Test("5 MB of nodes, a way station over nodes spread across 1 MiB chunk boundaries: the exact mean")
    func acrossChunks() throws {
        var xml = "<?xml version=\"1.0\"?>\n<osm version=\"0.6\">\n"
        var picked: [(Int, Double, Double)] = []
        let count = 60_000
        for id in 1...count {
            let lat = 35 + Double(id % 1000) / 10_000, lon = 139 + Double(id % 777) / 10_000
            xml += "  <node id=\"\(id)\" version=\"1\" timestamp=\"2024-01-01T00:00:00Z\" user=\"m\" lat=\"\(lat)\" lon=\"\(lon)\"/>\n"
            if id % 997 == 0 { picked.append((id, lat, lon)) }
        }
        xml += "  <way id=\"1\">" + picked.map { "<nd ref=\"\($0.0)\"/>" }.joined()
            + "<tag k=\"railway\" v=\"station\"/><tag k=\"name\" v=\"長駅\"/></way>\n</osm>\n"
        #expect(xml.utf8.count > 5_000_000)
        let station = try #require(try OSMTestSupport.importXML(xml).records.first)
        let lat = picked.map(\.1).reduce(0, +) / Double(picked.count)
        let lon = picked.map(\.2).reduce(0, +) / Double(picked.count)
        #expect(picked.count == 60)
        #expect(station.coordinate == Coordinate(lat: lat, lon: lon))
    }
}
