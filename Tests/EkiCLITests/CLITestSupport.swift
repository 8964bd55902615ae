import Foundation
import EkiCLI
import EkiTestSupport

/// Runs `eki` in-process with captured output.
final class Capture: @unchecked Sendable {
    private let lock = NSLock()
    /// The environment the command sees (EKI_CACHE, EKI_GSI_ENDPOINT, …); empty by default.
    var environment: [String: String] = [:]
    private var outText = "", errText = ""
    var out: String { lock.withLock { outText } }
    var err: String { lock.withLock { errText } }

    var console: Console {
        Console(out: { s in self.lock.withLock { self.outText += s } },
                err: { s in self.lock.withLock { self.errText += s } },
                environment: environment)
    }
}

struct EkiRun {
    let status: Int32
    let out: String
    let err: String
}

/// Runs `eki arguments...`.
func eki(_ arguments: String...) -> EkiRun {
    eki(arguments)
}

func eki(_ arguments: [String], environment: [String: String] = [:]) -> EkiRun {
    let c = Capture()
    c.environment = environment
    let status = EkiCommandLine.run(arguments, console: c.console)
    return EkiRun(status: status, out: c.out, err: c.err)
}

/// Every row of the stations and station_sources tables, for comparing databases.
func dump(_ db: String) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["sqlite3", db, "SELECT key, name, reading, operator, class, lines, open, lon, lat, sources FROM stations ORDER BY key; SELECT count(*) FROM station_sources;"]
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
