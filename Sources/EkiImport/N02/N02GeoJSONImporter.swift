import EkiKit
import Foundation

/// The official 国土数値情報 N02 station layer as distributed: GeoJSON whose features are the
/// stations' platform centre-lines (LineString, JGD2011 lon/lat), with the properties N02_001
/// … N02_005g (see `N02CSVImporter` for their meaning). An entry's point is the mean of the
/// vertices.
///
/// Encodings: UTF-8, and Shift_JIS as MLIT ships it, which is really CP932 (it contains U+FA10
/// 塚 in 笹塚) and has a trap: the JSON writer escaped the 0x5C trail byte of two-byte
/// characters (能 = 0x94 0x5C is written 0x94 0x5C 0x5C, read as `能\\`). The extra backslash
/// after such a trail byte is dropped before decoding.
public struct N02GeoJSONImporter: StationImporter {
    public let path: String
    public let encoding: TextEncoding?

    public init(path: String, encoding: TextEncoding? = nil) {
        self.path = path
        self.encoding = encoding
    }

    /// True when the file starts like a GeoJSON FeatureCollection whose properties are N02's.
    public static func looksLikeN02GeoJSON(path: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        return matches(head: [UInt8]((try? h.read(upToCount: 4096)) ?? Data()))
    }

    /// True when a file's first bytes hold `FeatureCollection` and an `"N02_005"` property.
    public static func matches(head: [UInt8]) -> Bool {
        let text = String(decoding: head, as: UTF8.self)
        return text.contains("FeatureCollection") && text.contains("\"N02_005\"")
    }

    /// - Throws: `ImportError` for undecodable bytes, invalid JSON, a feature without the N02
    ///   properties, or a geometry that is not a LineString/Point of valid coordinates.
    public func read() throws -> ImportBatch {
        let raw = try CSVInput.readBytes(path)
        var utf8: [UInt8]
        if encoding == .utf8 || (encoding == nil && TextDecoding.firstInvalidUTF8(raw) == nil) {
            utf8 = try TextDecoding.decode(raw, file: path, encoding: .utf8).bytes
        } else {
            utf8 = try TextDecoding.decode(Self.dropEscapedTrailBackslashes(raw), file: path, encoding: .cp932).bytes
        }
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: Data(utf8))
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw ImportError(file: path, message: "not valid JSON: \(detail)")
        }
        guard let root = json as? [String: Any], root["type"] as? String == "FeatureCollection",
              let features = root["features"] as? [Any] else {
            throw ImportError(file: path, line: 1, message: "not a GeoJSON FeatureCollection")
        }
        let text = String(decoding: utf8, as: UTF8.self)
        var records: [SourceRecord] = []
        records.reserveCapacity(features.count)
        for (i, f) in features.enumerated() {
            func fail(_ field: String?, _ message: String) -> ImportError {
                ImportError(file: path, line: Self.lineOfFeature(i, in: text), field: field, message: "feature \(i + 1): \(message)")
            }
            guard let feature = f as? [String: Any], let p = feature["properties"] as? [String: Any] else {
                throw fail(nil, "no properties")
            }
            func prop(_ k: String) -> String? {
                if let s = p[k] as? String { return s }
                if let n = p[k] as? NSNumber { return n.stringValue }
                return nil
            }
            guard let kindText = prop("N02_002"), let kind = Int(kindText), (1...5).contains(kind) else {
                throw fail("N02_002", "'\(prop("N02_002") ?? "")' is not an N02 事業者種別 code (1–5)")
            }
            guard let name = prop("N02_005"), !name.isEmpty else { throw fail("N02_005", "no station name") }
            guard let code = prop("N02_005c") else { throw fail("N02_005c", "no station code") }
            guard let point = Self.meanPoint(feature["geometry"]) else {
                throw fail("geometry", "not a LineString or Point of coordinates within ±180/±90")
            }
            if PositionChecks.isPlaceholder(lat: point.lat, lon: point.lon) {
                throw fail("geometry", PositionChecks.placeholderMessage)
            }
            records.append(SourceRecord(
                source: SourceRef(dataset: N02CSVImporter.dataset, id: code), name: name,
                operatorName: prop("N02_004").flatMap { $0.isEmpty ? nil : $0 },
                serviceClass: kind == 1 ? .shinkansen : .conventional,
                lines: prop("N02_003").map { [$0] } ?? [], coordinate: point))
        }
        var batch = ImportBatch(dataset: N02CSVImporter.dataset, records: records)
        batch.edition = N02CSVImporter.edition(path: path)
        return batch
    }

    /// Removes the backslash a JSON writer added after a CP932 trail byte 0x5C.
    static func dropEscapedTrailBackslashes(_ b: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            let c = b[i]
            if (0x81...0x9F).contains(c) || (0xE0...0xFC).contains(c), i + 1 < b.count {
                out.append(c)
                out.append(b[i + 1])
                if b[i + 1] == 0x5C, i + 2 < b.count, b[i + 2] == 0x5C { i += 3 } else { i += 2 }
                continue
            }
            out.append(c)
            i += 1
        }
        return out
    }

    /// Mean of a LineString's vertices (or a Point), nil when malformed.
    static func meanPoint(_ geometry: Any?) -> Coordinate? {
        guard let g = geometry as? [String: Any], let type = g["type"] as? String else { return nil }
        var positions: [[Double]] = []
        switch type {
        case "LineString", "MultiPoint": positions = (g["coordinates"] as? [[Double]]) ?? []
        case "Point": positions = (g["coordinates"] as? [Double]).map { [$0] } ?? []
        case "MultiLineString": positions = ((g["coordinates"] as? [[[Double]]]) ?? []).flatMap { $0 }
        default: return nil
        }
        guard !positions.isEmpty, positions.allSatisfy({ $0.count >= 2 }) else { return nil }
        let lon = positions.map { $0[0] }.reduce(0, +) / Double(positions.count)
        let lat = positions.map { $0[1] }.reduce(0, +) / Double(positions.count)
        let c = Coordinate(lat: lat, lon: lon)
        return c.isValid ? c : nil
    }

    /// The line on which feature `index` (0-based) starts, found only when reporting an error.
    static func lineOfFeature(_ index: Int, in text: String) -> Int? {
        var seen = -1
        var line = 1
        var search = text.startIndex
        while let r = text.range(of: "\"Feature\"", range: search..<text.endIndex) {
            seen += 1
            line += text[search..<r.lowerBound].reduce(0) { $0 + ($1 == "\n" ? 1 : 0) }
            if seen == index { return line }
            search = r.upperBound
        }
        return nil
    }
}
