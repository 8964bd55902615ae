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
    /// Environment variables (EKI_DB, EKI_VISITS, …).
    public var environment: [String: String]

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                errIsTerminal: Bool = false, environment: [String: String] = [:]) {
        self.out = out
        self.err = err
        self.errIsTerminal = errIsTerminal
        self.environment = environment
    }

    /// stdout / stderr of this process.
    public static var standard: Console {
        Console(out: { s in FileHandle.standardOutput.write(Data(s.utf8)) },
                err: { s in FileHandle.standardError.write(Data(s.utf8)) },
                errIsTerminal: isatty(2) != 0,
                environment: ProcessInfo.processInfo.environment)
    }
}
