import Foundation

/// JSON text read with Foundation's `JSONSerialization`, and where it stops when the text is
/// not JSON: the one reading behind `eki visit import` of a JSON file, `POST /api/visits` and
/// `POST /api/sync`, so that each names the same position.
public enum JSONParse {
    /// The value `bytes` hold (a dictionary or an array at the top; strings, `NSNumber`,
    /// `NSNull` inside).
    /// - Throws: `JSONSyntaxError` with the line, column and byte offset where the parser stopped.
    public static func value(_ bytes: [UInt8]) throws(JSONSyntaxError) -> Any {
        do { return try JSONSerialization.jsonObject(with: Data(bytes)) } catch { throw JSONSyntaxError(error, bytes) }
    }
}

/// Text that is not JSON: where the parser stopped and why.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 1-based line (lines end at LF).
    public var line: Int
    /// 1-based column on that line, in characters (Unicode scalars), not bytes.
    public var column: Int
    /// 0-based byte offset from the start of the text.
    public var offset: Int
    /// The parser's reason, without its position (`Invalid value`, `Unexpected end of file
    /// during JSON parse`).
    public var reason: String

    public init(line: Int, column: Int, offset: Int, reason: String) {
        self.line = line
        self.column = column
        self.offset = offset
        self.reason = reason
    }

    /// The position from Foundation's error: it says `around character N`, a byte offset; the
    /// end of the text when it names none.
    init(_ error: Error, _ b: [UInt8]) {
        let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        var offset = b.count
        if let r = detail.range(of: "character "), let n = Int(detail[r.upperBound...].prefix { $0.isNumber }) { offset = min(n, b.count) }
        var line = 1, column = 1
        for k in 0..<offset { if b[k] == 0x0A { line += 1; column = 1 } else if b[k] & 0xC0 != 0x80 { column += 1 } }
        var reason = detail
        if let r = reason.range(of: " around character") { reason = String(reason[..<r.lowerBound]) }
        if reason.hasSuffix(".") { reason.removeLast() }
        self.init(line: line, column: column, offset: offset, reason: reason)
    }

    /// `line L, column C: REASON`.
    public var description: String { "line \(line), column \(column): \(reason)" }
}
