import Foundation
import Testing
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

/// Runs `eki arguments` with `stdin` as standard input (not a terminal) and `environment`.
func eki(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) -> EkiRun {
    let c = Capture()
    c.environment = environment
    var console = c.console
    console.input = { Data(stdin.utf8) }
    let status = EkiCommandLine.run(arguments, console: console)
    return EkiRun(status: status, out: c.out, err: c.err)
}

/// The N02 sample of Datasets/ (39 entries around 小田原 and 東京) imported into
/// `dir/sample.gpkg` the first time it is asked for; its path.
func sampleDatabase(in dir: URL) -> String {
    let db = dir.appendingPathComponent("sample.gpkg").path
    if !FileManager.default.fileExists(atPath: db) {
        #expect(eki("import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv")).status == 0)
    }
    return db
}

/// Every row of the stations and station_sources tables, for comparing databases.
func dump(_ db: String) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["sqlite3", db, "SELECT key, name, reading, operator, class, lines, open, lon, lat, (SELECT json_group_array(dataset || ':' || source_id) FROM station_sources WHERE station_fid = fid) FROM stations ORDER BY key; SELECT count(*) FROM station_sources;"]
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

/// The `eki` executable built beside the test bundle, or nil when it has not been built.
let builtEki: String? = {
    let candidates = [Bundle.main.executableURL?.deletingLastPathComponent(), Bundle.main.bundleURL,
                      TestPaths.packageRoot.appendingPathComponent(".build/debug")]
    for dir in candidates.compactMap({ $0 }) {
        let p = dir.appendingPathComponent("eki").path
        if FileManager.default.isExecutableFile(atPath: p) { return p }
    }
    return nil
}()

/// XDG_CACHE_HOME, XDG_RUNTIME_DIR and XDG_DATA_HOME for the `eki` processes of this test run.
let testHomeFolders: [String: String] = {
    let root = TestPaths.temporaryDirectory()
    var out: [String: String] = [:]
    for (k, name) in [("XDG_CACHE_HOME", "cache"), ("XDG_RUNTIME_DIR", "runtime"), ("XDG_DATA_HOME", "data")] {
        let url = root.appendingPathComponent(name)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        out[k] = url.path
    }
    return out
}()

/// Runs the built `eki` with `stdin` piped to it.
func ekiProcess(_ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]) throws -> EkiRun {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: builtEki!)
    p.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    // The user's own cache, runtime and data folders are never touched: unless a test names
    // them, they are folders of this test run (shared by its processes).
    for (k, v) in testHomeFolders { env[k] = v }
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let input = Pipe(), output = Pipe(), error = Pipe()
    p.standardInput = input
    p.standardOutput = output
    p.standardError = error
    try p.run()
    input.fileHandleForWriting.write(stdin)
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return EkiRun(status: p.terminationStatus, out: String(decoding: out, as: UTF8.self), err: String(decoding: err, as: UTF8.self))
}
