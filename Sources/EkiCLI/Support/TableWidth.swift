import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How wide a table may be: `--wide` for no limit, else `$COLUMNS`, else the width of the
/// terminal stdout is, else `defaultColumns` (output to a file or a pipe).
enum TableWidth {
    /// The width used when stdout is not a terminal and `COLUMNS` is not set.
    static let defaultColumns = 120

    static let help = "  --wide             table: full cell values (by default long cells are cut with … to fit\n"
        + "                     $COLUMNS, else the terminal, else \(defaultColumns) columns)\n"

    /// The width in columns, or nil for no limit.
    static func columns(wide: Bool, console: Console) -> Int? {
        if wide { return nil }
        if let c = console.environment["COLUMNS"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), c > 0 { return c }
        return console.outColumns ?? defaultColumns
    }

    /// The width of the terminal on file descriptor `fd`, or nil when it is not a terminal.
    static func terminalColumns(_ fd: Int32) -> Int? {
        guard isatty(fd) != 0 else { return nil }
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
