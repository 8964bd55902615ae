import EkiKit
import Foundation

/// Cuts a GeoJSON FeatureCollection into its features part by part, without holding more
/// than one feature: the bytes of each element of the root's `features` array are handed on
/// whole, with the line it starts on. Strings are bounded by `CSVLimits.maxFieldBytes`
/// (`--max-field-bytes`) and a feature by `CSVLimits.maxLineBytes` (`--max-line-bytes`), as a
/// CSV field and record are. In CP932 (`cp932`), the trail byte of a two-byte character is
/// never taken for a quote or an escape, and the backslash a JSON writer added after a 0x5C
/// trail byte is dropped (`N02GeoJSONImporter.dropEscapedTrailBackslashes`).
///
/// Only the structure around the features is followed (objects, arrays, strings); each
/// feature is parsed as JSON by the caller.
struct GeoJSONFeatureSplitter {
    let file: String
    let cp932: Bool
    let limits: CSVLimits

    /// 1-based line of the next byte.
    private(set) var line = 1
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var trailNext = false
    private var dropBackslash = false
    private var stringBytes = 0
    private var stringLine = 1
    /// The current string's bytes while it is short and at the root (keys and `type`).
    private var rootString: [UInt8] = []
    private var lastRootString: [UInt8] = []
    /// The depth inside the `features` array, once it has been opened.
    private var featuresDepth: Int? = nil
    private var featuresClosed = false
    /// True once the root says `"type": "FeatureCollection"`.
    private(set) var isFeatureCollection = false
    private var feature: [UInt8] = []
    private var inFeature = false
    private var featureLine = 0
    /// Features handed on so far.
    private(set) var featureCount = 0
    private var started = false

    init(file: String, cp932: Bool, limits: CSVLimits) {
        (self.file, self.cp932, self.limits) = (file, cp932, limits)
    }

    /// Takes the next bytes of the file; `emit` gets each feature completed in them (its
    /// bytes, 0-based index and first line).
    /// - Throws: `ImportError` for a string or feature over its limit (naming the line, the
    ///   feature, the limit and its flag), a UTF-8 BOM in CP932, an element of `features`
    ///   that is not an object; what `emit` throws.
    mutating func add(_ bytes: [UInt8], emit: ([UInt8], Int, Int) throws -> Void) throws {
        var start = 0
        if !started && !bytes.isEmpty {
            started = true
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                if cp932 { throw TextDecoding.bomContradicts(file: file) }
                start = 3
            }
        }
        for i in start..<bytes.count {
            let c = bytes[i]
            if c == 0x0A { line += 1 }
            if inString {
                if dropBackslash {
                    dropBackslash = false
                    if c == 0x5C { continue }          // the writer's extra backslash
                }
                if trailNext {
                    trailNext = false
                    dropBackslash = c == 0x5C
                } else if escaped {
                    escaped = false
                } else if c == 0x5C {
                    escaped = true
                } else if c == 0x22 {
                    inString = false
                    if depth == 1 { finishRootString() }
                } else if cp932 && ((0x81...0x9F).contains(c) || (0xE0...0xFC).contains(c)) {
                    trailNext = true
                }
                if inString {
                    stringBytes += 1
                    if stringBytes > limits.maxFieldBytes {
                        throw ImportError(file: file, line: stringLine, message: "\(place()) a string is longer than the limit of \(limits.maxFieldBytes) bytes (--max-field-bytes N raises it)")
                    }
                    if depth == 1 && rootString.count < 64 { rootString.append(c) }
                }
                try keep(c)
                continue
            }
            switch c {
            case 0x22:
                inString = true
                stringBytes = 0
                stringLine = line
                rootString.removeAll(keepingCapacity: true)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if let f = featuresDepth, depth == f, !featuresClosed {
                    guard c == UInt8(ascii: "{") else { throw notAnObject() }
                    inFeature = true
                    featureLine = line
                    feature.removeAll(keepingCapacity: true)
                }
                depth += 1
                if c == UInt8(ascii: "["), depth == 2, featuresDepth == nil, lastRootString == Array("features".utf8) {
                    featuresDepth = 2
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                try keep(c)
                depth -= 1
                if let f = featuresDepth, depth == f, inFeature {
                    inFeature = false
                    try emit(feature, featureCount, featureLine)
                    featureCount += 1
                    feature.removeAll(keepingCapacity: true)
                } else if let f = featuresDepth, depth == f - 1, !featuresClosed {
                    featuresClosed = true
                }
                continue
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"):
                break
            default:
                if let f = featuresDepth, depth == f, !featuresClosed { throw notAnObject() }
            }
            try keep(c)
        }
    }

    /// After the last bytes.
    /// - Throws: `ImportError` when the file ends inside a value, or is not a FeatureCollection.
    func finish() throws(ImportError) {
        if inString || depth != 0 {
            throw ImportError(file: file, line: line, message: "not valid JSON: the file ends inside \(inString ? "a string" : "an object or array")\(featureCount > 0 ? " (after feature \(featureCount))" : "")")
        }
        guard isFeatureCollection, featuresDepth != nil else {
            throw ImportError(file: file, line: 1, message: "not a GeoJSON FeatureCollection")
        }
    }

    private mutating func keep(_ c: UInt8) throws {
        guard inFeature else { return }
        feature.append(c)
        if feature.count > limits.maxLineBytes {
            throw ImportError(file: file, line: featureLine, message: "feature \(featureCount + 1) is longer than the limit of \(limits.maxLineBytes) bytes (--max-line-bytes N raises it)")
        }
    }

    private mutating func finishRootString() {
        if lastRootString == Array("type".utf8) && rootString == Array("FeatureCollection".utf8) { isFeatureCollection = true }
        lastRootString = rootString
    }

    private func place() -> String { inFeature ? "feature \(featureCount + 1):" : "outside the features:" }

    private func notAnObject() -> ImportError {
        ImportError(file: file, line: line, message: "feature \(featureCount + 1): not an object")
    }
}
