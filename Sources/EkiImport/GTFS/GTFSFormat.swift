import EkiKit
import Foundation

/// GTFS / GTFS-JP feeds (`GTFSImporter`): yes for a folder or zip holding stops.txt and
/// routes.txt; maybe for any other zip (damaged, or lacking those files: the importer says
/// which); no otherwise.
public struct GTFSFormat: ImportFormat {
    public init() {}
    public var name: String { "gtfs" }
    public var reads: String { "GTFS / GTFS-JP feed, a folder or a .zip" }

    public func identify(_ input: ImportInput) -> Identification {
        if input.isDirectory || input.isZip {
            if GTFSImporter.looksLikeGTFS(path: input.path) { return .yes }
            return input.isZip ? .maybe : .no
        }
        return .no
    }

    public func importer(for input: ImportInput, options: ImportOptions) throws -> any StationImporter {
        var importer = GTFSImporter(path: input.path, modes: options.modes, feedName: Self.feedName(input.path))
        importer.limits = options.limits
        importer.skipInvalid = options.skipInvalid
        return importer
    }

    /// A feed's name for its dataset (`gtfs/<name>`): the file or folder name without `.zip`;
    /// for a folder with a generic name (gtfs, feed, data) the parent folder's name, a dash,
    /// and that name (`portliner-gtfs`).
    public static func feedName(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var name = url.lastPathComponent
        if name.lowercased().hasSuffix(".zip") { name = String(name.dropLast(4)) }
        if ["gtfs", "feed", "data", "."].contains(name.lowercased()) {
            name = url.deletingLastPathComponent().lastPathComponent + "-" + name
        }
        return name
    }
}
