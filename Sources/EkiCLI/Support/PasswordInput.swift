import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where `eki user add` and `eki user passwd` get a password: `--password-file F` (its first
/// line), else the terminal (asked twice, echo off), else standard input (its first line).
/// The password is never echoed, logged or put in a message.
enum PasswordInput {
    /// - Throws: `PasswordInputError` (an unreadable or empty file or input, two different
    ///   answers, no terminal).
    static func read(for name: String, file: String?, console: Console) throws -> String {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else { throw PasswordInputError("cannot read --password-file \(file)") }
            return try firstLine(data, source: "--password-file \(file)")
        }
        if console.inputIsTerminal {
            guard let first = prompt("password for \(name): "), let second = prompt("again: ") else {
                throw PasswordInputError("no password read from the terminal")
            }
            guard first == second else { throw PasswordInputError("the two passwords differ; nothing was changed") }
            return first
        }
        return try firstLine(console.input(), source: "standard input")
    }

    /// The first line of `data` (without its line end), which must not be empty.
    static func firstLine(_ data: Data, source: String) throws -> String {
        guard let text = String(data: data, encoding: .utf8) else { throw PasswordInputError("\(source) is not UTF-8 text") }
        // "\r\n" is one Character in Swift: every line end is a separator.
        let line = text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !line.isEmpty else { throw PasswordInputError("no password in \(source) (its first line is empty)") }
        return line
    }

    /// Asks on the terminal (the prompt on stderr) with echo turned off, and turns it back on.
    /// nil at end of input.
    static func prompt(_ text: String) -> String? {
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        let haveTerminal = tcgetattr(0, &saved) == 0
        if haveTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ICANON)
            tcsetattr(0, TCSAFLUSH, &quiet)
        }
        defer {
            if haveTerminal { tcsetattr(0, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        var bytes: [UInt8] = []
        var c: UInt8 = 0
        while Glibc.read(0, &c, 1) == 1 {
            if c == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(c)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}

/// A password could not be read (the message never holds it).
struct PasswordInputError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
