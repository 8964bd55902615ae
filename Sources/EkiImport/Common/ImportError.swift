import Foundation

/// A problem found in input data, located as precisely as the format allows.
/// Printed as `file:line:column: field: message` (parts that are unknown are left out).
public struct ImportError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file (as given by the user; inside an archive: `archive.zip/member.txt`).
    public var file: String
    /// 1-based line number, when known.
    public var line: Int?
    /// 1-based column, when known (byte column for XML, field index for CSV).
    public var column: Int?
    /// The field or column name, when known (e.g. `lat`, `stop_lat`, `N02_005`).
    public var field: String?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, field: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.message = message
    }

    /// `text` on one line: surrounding whitespace and newlines removed, inner line breaks (and
    /// the blanks around them) become one space.
    public static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let column { s += ":\(column)" }
        s += ": "
        if let field { s += "\(field): " }
        return s + message
    }
}

/// A warning found while importing (unknown file, unused stop, …): counted, listed with
/// `--verbose`, never fatal.
public struct ImportWarning: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var field: String?
    public var message: String

    public init(file: String, line: Int? = nil, field: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        s += ": "
        if let field { s += "\(field): " }
        return s + message
    }
}
