import EkiImport
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// Tag values longer than `--max-field-bytes` (`ImportOptions.maxFieldBytes`): refused with
/// the limit and the flag named, before the value is buffered whole. Small limits keep the
/// generated files small.
@Suite("OSM import: value length limit")
struct OSMLimitTests {
    static func xml(name: String, extraKey: String = "note", extra: String = "x") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6" generator="test">
          <node id="1" lat="35.0" lon="139.0">
            <tag k="railway" v="station"/>
            <tag k="\(extraKey)" v="\(extra)"/>
            <tag k="name" v="\(name)"/>
          </node>
        </osm>
        """
    }

    static func write(_ text: String, in dir: TemporaryDirectory, _ name: String) throws -> String {
        let path = dir.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("A 5,000-byte name under a 1,000-byte limit: error at line 6 naming the key, limit and flag")
    func longName() throws {
        let dir = TemporaryDirectory()
        let path = try Self.write(Self.xml(name: String(repeating: "駅", count: 1_000) + String(repeating: "a", count: 2_000)), in: dir, "long-name.osm")
        let error = try #require(throws: ImportError.self) {
            try OSMImporter(path: path, maxValueBytes: 1_000).read()
        }
        #expect(error.file == path)
        #expect(error.line == 6)
        #expect(error.field == "name")
        #expect(error.message == "the value of 'name' is 5000 bytes, longer than the limit of 1000 bytes (--max-field-bytes N raises it)")
    }

    @Test("A value of exactly the limit is read")
    func atTheLimit() throws {
        let dir = TemporaryDirectory()
        let name = String(repeating: "あ", count: 300) + "a"  // 901 bytes
        let path = try Self.write(Self.xml(name: name), in: dir, "at-limit.osm")
        let batch = try OSMImporter(path: path, maxValueBytes: 901).read()
        #expect(batch.records.map(\.name) == [name])
    }

    @Test("A 3 MB value of a key the importer does not keep: refused before it is buffered")
    func longUnknownValue() throws {
        let dir = TemporaryDirectory()
        let path = try Self.write(Self.xml(name: "小田原", extra: String(repeating: "b", count: 3_000_000)), in: dir, "long-note.osm")
        let error = try #require(throws: ImportError.self) {
            try OSMImporter(path: path, maxValueBytes: 1_000).read()
        }
        #expect(error.file == path)
        #expect(error.message == "more than 5096 bytes without markup after this line: an attribute value or text longer than the limit of 1000 bytes (--max-field-bytes N raises it)")
        // With the default limit (1 MiB) the same file is refused too, a larger one is not.
        #expect(throws: ImportError.self) { try OSMImporter(path: path).read() }
        #expect(try OSMImporter(path: path, maxValueBytes: 4_000_000).read().records.map(\.name) == ["小田原"])
    }

    @Test("A 20 MB value in a gzip file of 20 KB: refused before it is inflated whole",
          .needsTool("gzip"))
    func longValueGzip() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("long-name.osm.gz")
        let head = Self.xml(name: "X").components(separatedBy: "<tag k=\"name\"")[0] + "<tag k=\"name\" v=\""
        #expect(try OSMTestSupport.shell("{ printf '%s' \"$1\"; head -c 20000000 /dev/zero | tr '\\0' 'a'; printf '\"/></node></osm>'; } | gzip -c > \"$2\"",
                                         head, path) == 0)
        let error = try #require(throws: ImportError.self) { try OSMImporter(path: path).read() }
        #expect(error.message == "more than 1052672 bytes without markup after this line: an attribute value or text longer than the limit of 1048576 bytes (--max-field-bytes N raises it)")
        #expect(error.line == 6)
    }

    @Test("The limit comes from ImportOptions.maxFieldBytes through the osm format")
    func throughOptions() throws {
        let dir = TemporaryDirectory()
        let path = try Self.write(Self.xml(name: String(repeating: "a", count: 2_000)), in: dir, "options.osm")
        let input = try ImportInput(path)
        let importer = try OSMFormat().importer(for: input, options: ImportOptions(maxFieldBytes: 1_000))
        #expect(throws: ImportError.self) { try importer.read() }
        let roomy = try OSMFormat().importer(for: input, options: ImportOptions(maxFieldBytes: 2_000))
        #expect(try roomy.read().records.count == 1)
    }

    // osmium writes no value over 1,024 bytes (OSM's 255 characters), hence the smaller sizes.
    @Test("PBF: a 500-byte name under a 100-byte limit names the node, the limit and the flag",
          .needsTool("osmium", package: "osmium-tool"))
    func longNamePBF() throws {
        let dir = TemporaryDirectory()
        let xml = try Self.write(Self.xml(name: String(repeating: "a", count: 500)), in: dir, "long-name.osm")
        let pbf = dir.file("long-name.osm.pbf")
        #expect(try OSMTestSupport.shell("osmium cat -F osm \"$1\" -o \"$2\"", xml, pbf) == 0)
        let error = try #require(throws: ImportError.self) {
            try OSMPBFImporter(path: pbf, maxValueBytes: 100).read()
        }
        #expect(error.file == pbf)
        #expect(error.field == "name")
        #expect(error.message == "node/1: the value of 'name' is 500 bytes, longer than the limit of 100 bytes (--max-field-bytes N raises it)")
        #expect(try OSMPBFImporter(path: pbf).read().records.count == 1)
    }
}
