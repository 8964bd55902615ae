import Foundation
import Testing

/// Conditions under which a test runs; otherwise Swift Testing reports it as skipped, with the
/// reason, instead of counting it as passed.
extension Trait where Self == ConditionTrait {
    /// Runs only when every path exists inside the shared folder (`../shared`, or `$EKI_SHARED`).
    public static func needsShared(_ relatives: String...) -> Self {
        .enabled(if: TestPaths.hasShared(relatives),
                 Comment(rawValue: "needs " + relatives.map { "../shared/\($0)" }.joined(separator: " and ")))
    }

    /// Runs only when the real N02-23 CSV is present.
    public static var needsN02: Self { needsShared(TestPaths.n02CSVFile) }

    /// Runs only when station_database's main/ folder is present.
    public static var needsStationDatabase: Self { needsShared(TestPaths.stationDatabaseMainFolder) }

    /// Runs only when both N02-23 and station_database are present.
    public static var needsN02AndStationDatabase: Self {
        needsShared(TestPaths.n02CSVFile, TestPaths.stationDatabaseMainFolder)
    }

    /// Runs only when `name` is an executable on the PATH (e.g. `ogrinfo`, `python3`); the
    /// reason names the Debian `package` that has it (by default one of the same name), which
    /// Scripts/setup.sh installs.
    public static func needsTool(_ name: String, package: String? = nil) -> Self {
        .enabled(if: Tools.path(of: name) != nil,
                 Comment(rawValue: "needs \(name) on the PATH (Debian package \(package ?? name))"))
    }
}

/// Executables on the PATH.
public enum Tools {
    /// The full path of `name` on `$PATH`, or nil.
    public static func path(of name: String) -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return dirs.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
