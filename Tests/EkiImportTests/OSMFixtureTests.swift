import EkiImport
import EkiKit
import Foundation
import Testing

/// Modern (PTv2) tagging: stations, platforms, stop areas, routes and route masters.
@Suite("OSM import: stations, routes and Shinkansen class")
struct OSMFixtureTests {
    let odawara = OSMTestSupport.fixture("odawara-n14w1r6.osm")

    @Test("小田原 fixture: JR東海 Shinkansen apart from the conventional entries")
    func odawaraRows() throws {
        let batch = try OSMImporter(path: odawara).read()
        #expect(batch.warnings.isEmpty)
        // Platforms, stop positions, the bus stop, the disused, proposed and aerialway
        // stations give no rows; lines come through the stop_area, route directions are cut.
        #expect(OSMTestSupport.summary(batch.records) == [
            "小田急電鉄|conventional|小田急小田原線|node/1001",
            "東日本旅客鉄道|conventional|JR東海道線|node/1001",
            "東日本旅客鉄道|conventional|JR東海道線|node/1006",
            "東海旅客鉄道|shinkansen|東海道新幹線|node/1001",
            "箱根登山鉄道|conventional||way/2001",
        ])
    }

    @Test("小田原 fixture: five entries, names, readings and the station area's centroid")
    func odawaraEntries() throws {
        let entries = EntryRule().entries(from: try OSMImporter(path: odawara).read().records)
        #expect(entries.map(\.key) == [
            "hakone-tozan/c/箱根板橋", "jr-central/s/小田原", "jr-east/c/小田原", "jr-east/c/鴨宮",
            "odakyu/c/小田原",
        ])
        let shinkansen = try #require(entries.first { $0.serviceClass == .shinkansen })
        #expect(shinkansen.name == "小田原")
        #expect(shinkansen.reading == "おだわら")  // name:ja-Kana folded
        #expect(shinkansen.latinName == "Odawara")
        #expect(shinkansen.lines == ["東海道新幹線"])
        #expect(shinkansen.coordinate == Coordinate(lat: 35.25641, lon: 139.15531))
        #expect(!entries.contains { $0.key == "jr-central/c/小田原" })
        let kamonomiya = try #require(entries.first { $0.name == "鴨宮" })
        #expect(kamonomiya.reading == "かものみや")
        // A closed way: the mean of its four distinct nodes (read in a second pass).
        let itabashi = try #require(entries.first { $0.name == "箱根板橋" })
        #expect(itabashi.reading == "はこねいたばし")
        #expect(abs(itabashi.coordinate.lat - 35.2512) < 1e-9)
        #expect(abs(itabashi.coordinate.lon - 139.1449) < 1e-9)
        #expect(itabashi.sources == [SourceRef(dataset: "osm", id: "way/2001")])
    }

    @Test("A stop_area with two stations gives each only its own operator's route")
    func stopAreaWithTwoStations() throws {
        let batch = try OSMTestSupport.importXML(osm("""
            \(node(1, 35.5066, 139.6175, ["railway": "station", "name": "新横浜", "operator": "東海旅客鉄道;東日本旅客鉄道"]))
            \(node(2, 35.5070, 139.6170, ["railway": "station", "name": "新横浜", "operator": "横浜市交通局", "station": "subway"]))
            \(node(3, 35.5067, 139.6176, ["public_transport": "stop_position", "train": "yes"]))
            \(node(4, 35.5071, 139.6171, ["public_transport": "stop_position", "subway": "yes"]))
            \(node(5, 35.5068, 139.6177, ["public_transport": "stop_position", "train": "yes"]))
            \(relation(10, [("node", 1, ""), ("node", 2, ""), ("node", 3, "stop"), ("node", 4, "stop"), ("node", 5, "stop")],
                       ["type": "public_transport", "public_transport": "stop_area"]))
            \(relation(11, [("node", 3, "stop")], ["type": "route", "route": "train", "name": "東海道新幹線", "operator": "東海旅客鉄道"]))
            \(relation(12, [("node", 4, "stop")], ["type": "route", "route": "subway", "name": "ブルーライン", "operator": "横浜市交通局"]))
            \(relation(13, [("node", 5, "stop")], ["type": "route", "route": "train", "name": "横浜線", "operator": "東日本旅客鉄道"]))
            """))
        #expect(OSMTestSupport.summary(batch.records) == [
            "東日本旅客鉄道|conventional|横浜線|node/1",
            "東海旅客鉄道|shinkansen|東海道新幹線|node/1",
            "横浜市交通局|conventional|ブルーライン|node/2",
        ])
    }

    @Test("An operator-less station area in the stop area of a same-named station is a part of it")
    func duplicatePart() throws {
        let batch = try OSMTestSupport.importXML(osm("""
            \(node(1, 35.0, 139.0, ["railway": "station", "name": "駅前", "operator": "テスト鉄道"]))
            \(node(2, 35.0, 139.1, [:]))
            \(node(3, 35.1, 139.1, [:]))
            \(node(4, 35.0001, 139.0001, ["public_transport": "stop_position", "train": "yes"]))
              <way id="5"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="1"/>
                <tag k="public_transport" v="station"/><tag k="train" v="yes"/><tag k="name" v="駅前"/></way>
            \(relation(6, [("node", 1, ""), ("way", 5, ""), ("node", 4, "stop")],
                       ["type": "public_transport", "public_transport": "stop_area"]))
            \(relation(7, [("way", 5, ""), ("node", 4, "stop")], ["type": "route", "route": "train", "name": "本線"]))
            """))
        #expect(OSMTestSupport.summary(batch.records) == ["テスト鉄道|conventional|本線|node/1"])
    }

    @Test("A DOCTYPE without internal subset or external id is harmless and accepted")
    func plainDoctype() throws {
        let batch = try OSMTestSupport.importXML("""
            <?xml version="1.0"?>
            <!DOCTYPE osm>
            <osm version="0.6"><node id="1" lat="35" lon="139"><tag k="railway" v="halt"/><tag k="name" v="駅"/></node></osm>
            """)
        #expect(batch.records.count == 1)
    }

    @Test("One operator on a Shinkansen and a conventional route yields both entries")
    func bothClassesOneOperator() throws {
        let batch = try OSMTestSupport.importXML(osm("""
            \(node(1, 35.1264, 138.9108, ["railway": "station", "name": "三島", "operator": "東海旅客鉄道"]))
            \(relation(20, [("node", 1, "stop")], ["type": "route", "route": "train", "name": "東海道本線", "operator": "東海旅客鉄道"]))
            \(relation(21, [("node", 1, "stop")], ["type": "route", "route": "train", "highspeed": "yes", "name": "こだま"]))
            \(relation(22, [("relation", 21, "")], ["type": "route_master", "route_master": "train", "name": "東海道新幹線"]))
            """))
        // Route 21 has no operator of its own nor on its master: the station's only operator.
        #expect(OSMTestSupport.summary(batch.records) == [
            "東海旅客鉄道|conventional|東海道本線|node/1",
            "東海旅客鉄道|shinkansen|東海道新幹線|node/1",
        ])
        #expect(EntryRule().entries(from: batch.records).map(\.key) == ["jr-central/c/三島", "jr-central/s/三島"])
    }

    @Test("A route named 新幹線 is Shinkansen without service or highspeed tags")
    func shinkansenByName() throws {
        let batch = try OSMTestSupport.importXML(osm("""
            \(node(1, 39.7016, 141.1365, ["railway": "station", "name": "盛岡"]))
            \(relation(30, [("node", 1, "stop")], ["type": "route", "route": "train", "name": "秋田新幹線 (盛岡→秋田)", "operator": "東日本旅客鉄道"]))
            """))
        #expect(OSMTestSupport.summary(batch.records) == ["東日本旅客鉄道|shinkansen|秋田新幹線|node/1"])
    }

    @Test("Which tags make a station", arguments: [
        (["public_transport": "station", "subway": "yes"], true),
        (["public_transport": "station", "station": "monorail"], true),
        (["public_transport": "station", "train": "yes", "funicular": "yes"], true),
        (["railway": "halt"], true),
        (["railway": "tram_stop", "public_transport": "stop_position"], true),
        (["public_transport": "station", "bus": "yes"], false),
        (["public_transport": "station"], false),
        (["railway": "station", "station": "aerialway"], false),
        (["aerialway": "station", "public_transport": "station"], false),
        (["railway": "station", "disused": "yes"], false),
        (["railway": "station", "construction": "yes"], false),
        (["railway": "station", "abandoned": "no"], true),
        (["abandoned:railway": "station"], false),
        (["railway": "platform", "public_transport": "platform", "train": "yes"], false),
        (["railway": "stop", "public_transport": "stop_position", "train": "yes"], false),
        (["highway": "bus_stop"], false),
    ])
    func stationRule(tags: [String: String], isStation: Bool) throws {
        var t = tags
        t["name"] = "駅"
        let batch = try OSMTestSupport.importXML(osm(node(1, 35, 139, t)))
        #expect(batch.records.count == (isStation ? 1 : 0))
    }

    @Test("Names: name:ja over name; reading name:ja-Hira over ja_kana over ja-Kana; operator from network")
    func namePrecedence() throws {
        let batch = try OSMTestSupport.importXML(osm(node(1, 35, 139, [
            "railway": "station", "name": "Tokyo 東京", "name:ja": "東京", "name:ja-Hira": "とうきょう",
            "name:ja_kana": "トウキョウエキ", "name:ja-Kana": "ﾄｳｷｮｳ", "name:en": "Tokyo", "name:ja-Latn": "Tōkyō",
            "network": "JR東日本",
        ])))
        let r = try #require(batch.records.first)
        #expect(r.name == "東京")
        #expect(r.reading == "とうきょう")
        #expect(r.latinName == "Tōkyō")
        #expect(r.operatorName == "JR東日本")
        let kana = try OSMTestSupport.importXML(osm(node(1, 35, 139, ["railway": "station", "name": "東京", "name:ja-Kana": "ﾄｳｷｮｳ"])))
        #expect(kana.records.first?.reading == "とうきょう")  // half-width katakana: NFKC, then hiragana
    }

    @Test("Overpass `out center` and unsorted `out body; >; out skel` output need one pass")
    func overpassShapes() throws {
        let center = try OSMTestSupport.importXML(osm("""
              <way id="7"><center lat="35.5" lon="139.5"/><nd ref="70"/><nd ref="71"/>
                <tag k="railway" v="station"/><tag k="name" v="中心"/></way>
            """))
        #expect(center.records.first?.coordinate == Coordinate(lat: 35.5, lon: 139.5))
        let unsorted = try OSMTestSupport.importXML(osm("""
              <way id="7"><nd ref="70"/><nd ref="71"/><tag k="railway" v="station"/><tag k="name" v="順不同"/></way>
            \(node(70, 35.0, 139.0, [:]))
            \(node(71, 35.2, 139.4, [:]))
            """))
        let c = try #require(unsorted.records.first?.coordinate)
        #expect(abs(c.lat - 35.1) < 1e-12 && abs(c.lon - 139.2) < 1e-12)
    }

    @Test("A multipolygon station: centroid of its ways' nodes (three passes over a sorted file)")
    func relationStation() throws {
        let batch = try OSMTestSupport.importXML(osm("""
            \(node(1, 35.0, 139.0, [:]))
            \(node(2, 35.0, 139.2, [:]))
            \(node(3, 35.2, 139.2, [:]))
            \(node(4, 35.2, 139.0, [:]))
              <way id="5"><nd ref="1"/><nd ref="2"/><nd ref="3"/></way>
              <way id="6"><nd ref="3"/><nd ref="4"/><nd ref="1"/></way>
            \(relation(9, [("way", 5, "outer"), ("way", 6, "outer"), ("way", 404, "outer")],
                       ["type": "multipolygon", "railway": "station", "name": "多角形", "operator": "テスト鉄道"]))
            """))
        let r = try #require(batch.records.first)
        #expect(r.source.id == "relation/9")
        // Nodes 1, 2, 3 from way 5 and 3, 4, 1 from way 6 (a mean over member nodes).
        #expect(abs(r.coordinate.lat - 35.1) < 1e-12)
        #expect(abs(r.coordinate.lon - 139.1) < 1e-12)
        #expect(batch.warnings.isEmpty)
    }

    @Test("Missing members are skipped; stations without nodes or name are warnings")
    func missingParts() throws {
        let batch = try OSMTestSupport.importXML(osm("""
            \(node(1, 35.0, 139.0, ["railway": "station"]))
              <way id="2"><nd ref="404"/><nd ref="405"/><tag k="railway" v="station"/><tag k="name" v="幻"/></way>
            \(relation(3, [("node", 999, "stop"), ("way", 998, "platform"), ("relation", 997, "")],
                       ["type": "route", "route": "train", "name": "どこか線"]))
            """))
        #expect(batch.records.isEmpty)
        #expect(batch.warnings.count == 2)
        #expect(batch.warnings.contains { $0.message == "node/1: station without name, skipped" })
        #expect(batch.warnings.contains { $0.message == "way/2 幻: none of its nodes are in the file, skipped" })
    }

    @Test("An Overpass remark that is not a runtime error is only a warning")
    func overpassRemark() throws {
        let batch = try OSMTestSupport.importXML(osm("""
            \(node(1, 35.0, 139.0, ["railway": "station", "name": "駅"]))
            <remark> runtime remark: Timeout is 180 and maxsize is 536870912. </remark>
            """))
        #expect(batch.records.count == 1)
        #expect(batch.warnings.map(\.message) == ["Overpass remark: runtime remark: Timeout is 180 and maxsize is 536870912."])
    }

    // MARK: building small files

    func osm(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"test\">\n\(body)\n</osm>\n"
    }

    func tags(_ t: [String: String]) -> String {
        t.sorted { $0.key < $1.key }.map { "<tag k=\"\($0.key)\" v=\"\($0.value)\"/>" }.joined()
    }

    func node(_ id: Int, _ lat: Double, _ lon: Double, _ t: [String: String]) -> String {
        "  <node id=\"\(id)\" lat=\"\(lat)\" lon=\"\(lon)\">\(tags(t))</node>"
    }

    func relation(_ id: Int, _ members: [(String, Int, String)], _ t: [String: String]) -> String {
        let m = members.map { "<member type=\"\($0.0)\" ref=\"\($0.1)\" role=\"\($0.2)\"/>" }.joined()
        return "  <relation id=\"\(id)\">\(m)\(tags(t))</relation>"
    }
}
