#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// SQL text with its arguments, built by string interpolation (after GRDB.swift's SQL
/// literals): every interpolated value becomes a `?` placeholder and an argument bound to it,
/// never text spliced into the statement.
///
///     let filter: SQL = "name = \(name) AND closed = \(false)"   // "name = ? AND closed = ?"
///     let s = try db.prepare(sql: "SELECT id FROM \(raw: table) WHERE \(sql: filter)")
///
/// - Values: `String`, `Int`, `Int64`, `Double`, `Bool` (0 or 1), `Data` and `[UInt8]` (blobs),
///   `SQLValue`, and optionals of each (nil binds NULL).
/// - `\(sql: fragment)` inserts another `SQL`, its arguments following in order.
/// - `\(raw: text)` inserts `text` verbatim: only for trusted identifiers and keywords written
///   in the code, never for input (it is not quoted or checked).
///
/// The literal text must hold no parameters of its own (`?`, `?NNN`, `:name`): they would
/// shift the arguments (preparing checks that the counts agree).
public struct SQL: Sendable, ExpressibleByStringInterpolation {
    /// The values bound to the text's `?` placeholders, in order.
    public typealias Arguments = [SQLValue]

    /// The statement text, with a `?` for every argument.
    public private(set) var text: String
    public private(set) var arguments: Arguments

    /// `text` verbatim, with no arguments: for trusted text only (see `\(raw:)`).
    public init(raw text: String) {
        self.text = text
        arguments = []
    }

    public init(stringLiteral value: String) { self.init(raw: value) }

    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
        arguments = stringInterpolation.arguments
    }

    /// Appends `other`'s text and then its arguments.
    public mutating func append(_ other: SQL) {
        text += other.text
        arguments += other.arguments
    }

    /// `parts` with `separator` (verbatim) between them, arguments in order; empty text when
    /// `parts` is empty.
    public static func joined(_ parts: [SQL], separator: String) -> SQL {
        var out = SQL(raw: "")
        for (i, part) in parts.enumerated() {
            if i > 0 { out.text += separator }
            out.append(part)
        }
        return out
    }

    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var text = ""
        var arguments: Arguments = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) { text += literal }

        public mutating func appendInterpolation(_ value: SQLValue) {
            text += "?"
            arguments.append(value)
        }
        public mutating func appendInterpolation(_ value: SQLValue?) { appendInterpolation(value ?? .null) }
        public mutating func appendInterpolation(_ value: String?) { appendInterpolation(value.map(SQLValue.text)) }
        public mutating func appendInterpolation(_ value: Int?) { appendInterpolation(value.map { .int(Int64($0)) }) }
        public mutating func appendInterpolation(_ value: Int64?) { appendInterpolation(value.map(SQLValue.int)) }
        public mutating func appendInterpolation(_ value: Double?) { appendInterpolation(value.map(SQLValue.double)) }
        public mutating func appendInterpolation(_ value: Bool?) { appendInterpolation(value.map { .int($0 ? 1 : 0) }) }
        public mutating func appendInterpolation(_ value: [UInt8]?) { appendInterpolation(value.map(SQLValue.blob)) }
        public mutating func appendInterpolation(_ value: Data?) { appendInterpolation(value.map { .blob([UInt8]($0)) }) }

        /// Another fragment: its text, then its arguments.
        public mutating func appendInterpolation(sql fragment: SQL) {
            text += fragment.text
            arguments += fragment.arguments
        }

        /// Text inserted verbatim: trusted identifiers and keywords only, never input.
        public mutating func appendInterpolation(raw text: String) { self.text += text }
    }

    /// `left` then `right`, arguments in order.
    public static func + (left: SQL, right: SQL) -> SQL {
        var out = left
        out.append(right)
        return out
    }
}
