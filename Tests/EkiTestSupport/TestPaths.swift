import Foundation

/// Paths the tests use: the package root, `../shared` beside it (real open data and peer
/// suites; absent on some machines, and then the tests that need it skip with a message), and
/// fresh temporary folders.
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

    /// `../shared` beside the package root, or nil when it is absent.
    public static let shared: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// A file or folder inside `../shared`, or nil (with a printed note saying what is skipped)
    /// when it is absent.
    public static func shared(_ relative: String) -> String? {
        guard let s = shared else {
            print("skipped: ../shared is absent, so \(relative) cannot be read")
            return nil
        }
        let p = s.appendingPathComponent(relative).path
        guard FileManager.default.fileExists(atPath: p) else {
            print("skipped: ../shared/\(relative) is absent")
            return nil
        }
        return p
    }

    /// True when ../shared exists (for `.enabled(if:)`).
    public static var hasShared: Bool { shared != nil }

    /// A file in the package, e.g. `Datasets/odawara-tokyo-n02.csv`.
    public static func package(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    /// A new empty temporary folder.
    public static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("eki-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The real N02-23 UTF-8 CSV.
    public static var n02CSV: String? { shared("datasets/csv-n02-2023-stations-ksj/N02-23_Station.utf8.csv") }
    /// station_database's main/ folder.
    public static var stationDatabaseMain: String? { shared("datasets/csv-station-database-ekimemo/main") }
}
