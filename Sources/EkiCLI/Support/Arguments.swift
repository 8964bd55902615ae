import EkiKit

/// A usage error: exit status 64 (EX_USAGE) with one line saying what is wrong.
public struct UsageError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Command-line arguments of one subcommand: `--name value`, `--name=value`, `-k N`, `-kN`,
/// flags and positionals. Unknown options are usage errors.
struct Arguments {
    private(set) var options: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// - Parameters:
    ///   - valued: option names that take a value (without dashes; one-letter ones are `-x`).
    ///   - flags: option names without a value.
    init(_ args: [String], valued: Set<String>, flags known: Set<String>) throws(UsageError) {
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let a = args[i]
            i += 1
            // A negative number or bbox (`-180,-90,180,90`) is a value, not an option.
            let looksNumeric = a.count > 1 && a.hasPrefix("-") && (a.dropFirst().first.map { $0.isNumber || $0 == "." } ?? false)
            if onlyPositionals || a == "-" || !a.hasPrefix("-") || looksNumeric {
                positionals.append(a)
                continue
            }
            if a == "--" { onlyPositionals = true; continue }
            var name = String(a.drop(while: { $0 == "-" }))
            var value: String? = nil
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            } else if !a.hasPrefix("--"), name.count > 1, let letter = name.first,
                      valued.contains(String(letter)), !valued.contains(name), !known.contains(name) {
                // `-k1`: a one-letter option with its value attached.
                value = String(name.dropFirst())
                name = String(letter)
            }
            if valued.contains(name) {
                if value == nil {
                    guard i < args.count else { throw UsageError("option --\(name) needs a value") }
                    value = args[i]
                    i += 1
                }
                options[name] = value
            } else if known.contains(name) {
                if value != nil { throw UsageError("option --\(name) takes no value") }
                flags.insert(name)
            } else {
                let close = name.count < 2 ? [] : Suggestions.closest(
                    to: name, among: (valued.union(known)).filter { $0.count > 1 }.sorted().map { .init(label: "--\($0)", names: [$0]) })
                throw UsageError("unknown option \(a)\(Suggestions.didYouMean(close))")
            }
        }
    }

    subscript(_ name: String) -> String? { options[name] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The one QUERY positional of `eki search` and `eki geocode`.
    /// - Throws: `UsageError` for no or several positionals, or a query of spaces only.
    func query() throws(UsageError) -> String {
        guard positionals.count == 1 else {
            throw UsageError("expected one QUERY, got \(positionals.count) arguments (quote a query with spaces)")
        }
        guard !positionals[0].trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("QUERY is empty") }
        return positionals[0]
    }

    /// An integer option with a lower bound.
    func int(_ name: String, default d: Int, min: Int = 0) throws(UsageError) -> Int {
        guard let v = options[name] else { return d }
        guard let n = Int(v), n >= min else {
            throw UsageError("\(name.count == 1 ? "-" : "--")\(name) needs a whole number ≥ \(min), got '\(v)'")
        }
        return n
    }

    /// A floating-point option in a range.
    func double(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let v = options[name] else { return nil }
        guard let d = DecimalNumber.parse(v), range.contains(d) else {
            throw UsageError("--\(name) needs a number in \(range.lowerBound)...\(range.upperBound), got '\(v)'")
        }
        return d
    }
}
