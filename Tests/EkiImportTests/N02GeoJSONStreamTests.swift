import Foundation
import Testing
import EkiKit
@testable import EkiImport
import EkiTestSupport

/// The N02 GeoJSON is read one feature at a time, within `--max-field-bytes` (a string) and
/// `--max-line-bytes` (a feature), whatever part size the file is read in.
@Suite struct N02GeoJSONStreamTests {
    let dir = TemporaryDirectory()

    static func feature(_ name: String, code: String, lon: Double) -> String {
        #"{"type":"Feature","properties":{"N02_001":"12","N02_002":"4","N02_003":"本線","N02_004":"テスト鉄道","N02_005":"\#(name)","N02_005c":"\#(code)","N02_005g":"\#(code)"},"geometry":{"type":"LineString","coordinates":[[\#(lon),35.1],[\#(lon + 0.002),35.1]]}}"#
    }

    static func collection(_ features: [String]) -> String {
        "{\"type\":\"FeatureCollection\",\"name\":\"N02-23_Station\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    func write(_ bytes: [UInt8], _ name: String = "t.geojson") throws -> String {
        let path = dir.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func names(_ path: String, partSize: Int, limits: CSVLimits = CSVLimits()) throws -> [String] {
        var importer = N02GeoJSONImporter(path: path)
        importer.partSize = partSize
        importer.limits = limits
        return try importer.read().records.map(\.name)
    }

    /// UTF-8 and CP932 (with the writer's extra backslash after a 0x5C trail byte: 能, 十, ソ)
    /// give the same names in parts of any size, braces and quotes inside names included.
    @Test(arguments: [1, 2, 3, 7, 64, 1 << 20]) func anyPartSizeGivesTheSameFeatures(partSize: Int) throws {
        let names = ["能登中島", "十国峠", "ソ{[}]", "A \\\"B\\\"", "笹塚"]
        let text = Self.collection(names.enumerated().map { Self.feature($1, code: "\($0)", lon: 139 + Double($0) / 10) })
        let utf8 = try write(Array(text.utf8), "u.geojson")
        #expect(try self.names(utf8, partSize: partSize) == ["能登中島", "十国峠", "ソ{[}]", "A \"B\"", "笹塚"])
        // As MLIT ships it: CP932, each 0x5C trail byte followed by an extra backslash.
        var sjis: [UInt8] = []
        for ch in text {
            let b = String(ch).data(using: .shiftJIS).map { [UInt8]($0) } ?? Array(String(ch).utf8)
            sjis += b
            if b.count == 2 && b[1] == 0x5C { sjis.append(0x5C) }
        }
        let cp932 = try write(sjis, "s.geojson")
        #expect(try self.names(cp932, partSize: partSize) == ["能登中島", "十国峠", "ソ{[}]", "A \"B\"", "笹塚"])
    }

    /// A name past `--max-field-bytes` is refused naming the line and the feature; a feature
    /// past `--max-line-bytes` too; raising the limit reads it.
    @Test func limitsBoundAStringAndAFeature() throws {
        let long = String(repeating: "駅", count: 400_000)   // 1.2 MB of UTF-8
        let path = try write(Array(Self.collection([Self.feature("短", code: "1", lon: 139), Self.feature(long, code: "2", lon: 139.1)]).utf8))
        #expect(throws: ImportError(file: path, line: 3, message: "feature 2: a string is longer than the limit of 1048576 bytes (--max-field-bytes N raises it)")) {
            _ = try N02GeoJSONImporter(path: path).read()
        }
        #expect(throws: ImportError(file: path, line: 3, message: "feature 2 is longer than the limit of 1000000 bytes (--max-line-bytes N raises it)")) {
            _ = try self.names(path, partSize: 1 << 20, limits: CSVLimits(maxFieldBytes: 2_000_000, maxLineBytes: 1_000_000))
        }
        #expect(try names(path, partSize: 1 << 20, limits: CSVLimits(maxFieldBytes: 2_000_000, maxLineBytes: 2_000_000)).map(\.count) == [1, 400_000])
    }

    @Test func truncatedAndWrongShapesAreRefused() throws {
        let whole = Self.collection([Self.feature("短", code: "1", lon: 139)])
        let cut = try write(Array(whole.utf8.prefix(whole.utf8.count - 20)), "cut.geojson")
        #expect(throws: ImportError(file: cut, line: 2, message: "not valid JSON: the file ends inside an object or array")) {
            _ = try N02GeoJSONImporter(path: cut).read()
        }
        let notCollection = try write(Array(#"{"type":"Feature","features":[]}"#.utf8), "f.geojson")
        #expect(throws: ImportError(file: notCollection, line: 1, message: "not a GeoJSON FeatureCollection")) {
            _ = try N02GeoJSONImporter(path: notCollection).read()
        }
        let number = try write(Array(#"{"type":"FeatureCollection","features":[1]}"#.utf8), "n.geojson")
        #expect(throws: ImportError(file: number, line: 1, message: "feature 1: not an object")) {
            _ = try N02GeoJSONImporter(path: number).read()
        }
    }
}
