import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes: results to `out`, messages and progress to `err`. Tests capture
/// both; the executable writes to stdout and stderr.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    /// True when stderr is a terminal (progress is shown only then).
    public var errIsTerminal: Bool
    /// Environment variables (EKI_DB, EKI_VISITS, COLUMNS, …).
    public var environment: [String: String]
    /// The width of the terminal stdout is, in columns; nil when stdout is not a terminal.
    public var outColumns: Int?
    /// All of standard input (read when called; `eki user add` reads a password from it).
    public var input: @Sendable () -> Data
    /// True when standard input is a terminal (a password is then asked for, echo off).
    public var inputIsTerminal: Bool

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                errIsTerminal: Bool = false, environment: [String: String] = [:], outColumns: Int? = nil,
                input: @escaping @Sendable () -> Data = { Data() }, inputIsTerminal: Bool = false) {
        self.out = out
        self.err = err
        self.errIsTerminal = errIsTerminal
        self.environment = environment
        self.outColumns = outColumns
        self.input = input
        self.inputIsTerminal = inputIsTerminal
    }

    /// stdout / stderr of this process.
    public static var standard: Console {
        Console(out: { s in FileHandle.standardOutput.write(Data(s.utf8)) },
                err: { s in FileHandle.standardError.write(Data(s.utf8)) },
                errIsTerminal: isatty(2) != 0,
                environment: ProcessInfo.processInfo.environment,
                outColumns: TableWidth.terminalColumns(1),
                input: { FileHandle.standardInput.readDataToEndOfFile() },
                inputIsTerminal: isatty(0) != 0)
    }
}
