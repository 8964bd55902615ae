import Testing
import Foundation
import EkiKit
import EkiImport
import EkiTestSupport

/// Stations in order along their lines from OSM route relations (members with role
/// `stop`/`platform`, in member order). The shared OSM extracts hold no relations (their
/// PROVENANCE: "0 relations"), so this reads a small file written here.
@Suite struct LineOrderOSMTests {
    static func node(_ id: Int, _ name: String, _ lon: Double) -> String {
        """
          <node id="\(id)" lat="35.0" lon="\(lon)">
            <tag k="name" v="\(name)"/><tag k="operator" v="テスト鉄道"/><tag k="railway" v="station"/>
          </node>

        """
    }

    static func route(_ id: Int, _ name: String, _ members: [Int]) -> String {
        "  <relation id=\"\(id)\">\n"
            + members.map { "    <member type=\"node\" ref=\"\($0)\" role=\"stop\"/>\n" }.joined()
            + "    <tag k=\"name\" v=\"\(name)\"/><tag k=\"operator\" v=\"テスト鉄道\"/><tag k=\"route\" v=\"train\"/><tag k=\"type\" v=\"route\"/>\n"
            + "  </relation>\n"
    }

    @Test("Route members in order: 東西線 A→D main (the return D→A adds nothing), X–Y from a third route a branch")
    func routeMemberOrder() throws {
        let dir = TestPaths.temporaryDirectory()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let names = [1: "駅A", 2: "駅B", 3: "駅C", 4: "駅D", 5: "駅X", 6: "駅Y"]
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\">\n"
        for id in names.keys.sorted() { xml += Self.node(id, names[id]!, 139.0 + 0.01 * Double(id)) }
        xml += Self.route(11, "東西線 (駅A→駅D)", [1, 2, 3, 4])
        xml += Self.route(12, "東西線 (駅D→駅A)", [4, 3, 2, 1])
        xml += Self.route(13, "東西線 (駅B→駅Y)", [2, 5, 6])
        xml += "</osm>\n"
        let path = dir.appendingPathComponent("order.osm").path
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        let batch = try OSMImporter(path: path).read()
        var order: [String: Int] = [:]
        for r in batch.records { order[r.name] = r.lineOrder }
        let step = SourceRecord.lineOrderBranchStep
        #expect(order == ["駅A": 0, "駅B": 1, "駅C": 2, "駅D": 3, "駅X": step, "駅Y": step + 1])
        #expect(batch.records.allSatisfy { $0.lines == ["東西線"] })
        let store = try StationStore(path: dir.appendingPathComponent("order.gpkg").path)
        try store.importRecords(batch.records, dataset: batch.dataset)
        let d = try #require(try store.lines.named("東西線").first)
        #expect(d.stops.map { "\($0.branch):\($0.order.map(String.init) ?? "-"):\($0.station.name)" }
                == ["0:0:駅A", "0:1:駅B", "0:2:駅C", "0:3:駅D", "1:0:駅X", "1:1:駅Y"])
    }
}
