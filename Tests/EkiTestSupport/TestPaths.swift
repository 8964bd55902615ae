import Foundation

/// Paths the tests use: the package root, the shared folder of real open data and peer suites
/// (`../shared` beside the package root; absent on some machines, and then the tests that need
/// it are skipped with a reason, see `Trait.needsShared`), and fresh temporary folders.
public enum TestPaths {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// The shared folder, or nil when it is absent: `$EKI_SHARED` when that is set (an empty
    /// value or a missing folder means none, so `EKI_SHARED= swift test` runs the suite as a
    /// machine without the data would), else `../shared` beside the package root.
    public static let shared: URL? = {
        let url: URL
        if let override = ProcessInfo.processInfo.environment["EKI_SHARED"] {
            guard !override.isEmpty else { return nil }
            url = URL(fileURLWithPath: override)
        } else {
            url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        }
        return FileManager.default.fileExists(atPath: url.path) ? url.standardizedFileURL : nil
    }()

    /// A file or folder inside the shared folder, or nil when it (or the folder) is absent.
    public static func shared(_ relative: String) -> String? {
        guard let s = shared else { return nil }
        let p = s.appendingPathComponent(relative).path
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }

    /// A file or folder inside the shared folder, for a test enabled by `.needsShared(relative)`:
    /// stops the test process with a message saying which trait is missing when it is absent.
    public static func requireShared(_ relative: String) -> String {
        guard let p = shared(relative) else {
            fatalError("../shared/\(relative) is absent: the test reading it needs `.needsShared(\"\(relative)\")`")
        }
        return p
    }

    /// True when every path exists inside the shared folder.
    public static func hasShared(_ relatives: [String]) -> Bool {
        relatives.allSatisfy { shared($0) != nil }
    }

    /// A file in the package, e.g. `Datasets/n02-odawara-tokyo.csv`.
    public static func package(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    /// A new empty temporary folder, left in place (for databases built once per process);
    /// `TemporaryDirectory` removes its folder when it goes away.
    public static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("eki-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The real N02-23 UTF-8 CSV (10,240 rows), relative to the shared folder.
    public static let n02CSVFile = "datasets/csv-n02-2023-stations-ksj/N02-23_Station.utf8.csv"
    /// station_database's main/ folder, relative to the shared folder.
    public static let stationDatabaseMainFolder = "datasets/csv-station-database-ekimemo/main"

    /// The real N02-23 UTF-8 CSV, or nil when absent.
    public static var n02CSV: String? { shared(n02CSVFile) }
    /// station_database's main/ folder, or nil when absent.
    public static var stationDatabaseMain: String? { shared(stationDatabaseMainFolder) }

    /// Runs `python3 SCRIPT --check` (a generator of Scripts/ checking that the compiled-in table
    /// matches its CSV): the exit status and what it wrote to standard error.
    public static func checkGenerator(_ script: String) throws -> (status: Int32, message: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", package(script), "--check"]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, message)
    }
}
