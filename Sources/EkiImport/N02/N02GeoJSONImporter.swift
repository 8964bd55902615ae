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

    /// The bounds of the read (`--max-field-bytes` for a string, `--max-line-bytes` for one
    /// feature).
    public var limits = CSVLimits()
    /// Bytes read from the file at a time (1 MiB unless a test asks for less).
    var partSize = 1 << 20

    /// Reads the features one at a time (`GeoJSONFeatureSplitter`): memory holds the records
    /// and one feature, whatever the file's size. With no encoding given the file is read as
    /// UTF-8, and read again as CP932 from the start when a feature is not UTF-8.
    /// - Throws: `ImportError` for undecodable bytes, invalid JSON, a string or feature over
    ///   its limit, a feature without the N02 properties, or a geometry that is not a
    ///   LineString/Point of valid coordinates (naming the line and the feature).
    public func read() throws -> ImportBatch {
        var records: [SourceRecord]
        do {
            records = try readFeatures(cp932: encoding == .cp932)
        } catch is NotUTF8 {
            records = try readFeatures(cp932: true)
        }
        var batch = ImportBatch(dataset: N02CSVImporter.dataset, records: records)
        batch.edition = N02CSVImporter.edition(path: path)
        return batch
    }

    /// A feature that is not UTF-8 while the encoding is being detected.
    private struct NotUTF8: Error {}

    private func readFeatures(cp932: Bool) throws -> [SourceRecord] {
        let stream = try FileByteStream(path: path)
        var splitter = GeoJSONFeatureSplitter(file: path, cp932: cp932, limits: limits)
        var records: [SourceRecord] = []
        while true {
            let part = try stream.read(upTo: partSize)
            if part.isEmpty { break }
            try splitter.add(part) { bytes, index, line in
                var utf8 = bytes
                if cp932 {
                    do throws(ImportError) { utf8 = try TextDecoding.cp932ToUTF8(bytes, file: path) } catch {
                        var e = error
                        e.line = (e.line ?? 1) + line - 1
                        e.message = "feature \(index + 1): " + e.message
                        throw e
                    }
                } else if let bad = TextDecoding.firstInvalidUTF8(bytes) {
                    if encoding == nil { throw NotUTF8() }
                    throw ImportError(file: path, line: line + TextDecoding.lineNumber(bytes, at: bad) - 1,
                                      message: "feature \(index + 1): invalid UTF-8 byte 0x\(String(bytes[bad], radix: 16, uppercase: true)); use --encoding cp932 if the file is Shift_JIS")
                }
                records.append(try record(utf8, index: index, line: line))
            }
        }
        try splitter.finish()
        return records
    }

    /// The record of one feature (UTF-8 JSON bytes), the `index`-th (0-based) at `line`.
    private func record(_ bytes: [UInt8], index i: Int, line: Int) throws(ImportError) -> SourceRecord {
        func fail(_ field: String?, _ message: String) -> ImportError {
            ImportError(file: path, line: line, field: field, message: "feature \(i + 1): \(message)")
        }
        let f: Any
        do { f = try JSONSerialization.jsonObject(with: Data(bytes)) } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw fail(nil, "not valid JSON: \(detail)")
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
        return SourceRecord(
            source: SourceRef(dataset: N02CSVImporter.dataset, id: code), name: name,
            operatorName: prop("N02_004").flatMap { $0.isEmpty ? nil : $0 },
            serviceClass: kind == 1 ? .shinkansen : .conventional,
            lines: prop("N02_003").map { [$0] } ?? [], coordinate: point)
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
}
