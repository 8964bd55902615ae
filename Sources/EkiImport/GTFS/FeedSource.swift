import Foundation

/// The bytes of one feed file, read in parts.
protocol FeedByteStream: AnyObject {
    /// The next bytes, at most `count`; empty at the end of the file.
    /// - Throws: `ImportError` when the file cannot be read (I/O error, corrupt zip member,
    ///   a zip member over `ImportLimits`).
    func read(upTo count: Int) throws(ImportError) -> [UInt8]
}

/// A GTFS feed's files: the files of a directory, or the members of a `.zip` archive read with
/// libarchive (never extracted to disk). In a zip the files may sit at the root or in one
/// folder (`feed/stops.txt`); `__MACOSX/` entries and hidden files of a directory are ignored.
struct FeedSource {
    enum Kind: Sendable { case directory, zip }

    /// The path as the user gave it (trailing `/` removed).
    let path: String
    let kind: Kind
    /// File names in the feed (e.g. `stops.txt`), sorted.
    let files: [String]
    /// The folder inside a zip that holds the files: "" or "name/".
    private let prefix: String
    /// The bounds its files are read within (zip members' unzipped size and ratio, CSV fields
    /// and lines).
    let limits: ImportLimits

    /// Opens a directory or a zip file.
    /// - Throws: `ImportError` when the path does not exist, cannot be listed, or is a file
    ///   that libarchive cannot read as a zip archive.
    init(path: String, limits: ImportLimits = ImportLimits()) throws(ImportError) {
        self.limits = limits
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        self.path = p
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: p, isDirectory: &isDirectory) else {
            throw ImportError(file: p, message: "no such file or directory")
        }
        if isDirectory.boolValue {
            kind = .directory
            prefix = ""
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: p)
            } catch {
                throw ImportError(file: p, message: "cannot list the directory: \(error.localizedDescription)")
            }
            files = names.filter { name in
                if name.hasPrefix(".") { return false }           // .DS_Store and the like
                var dir: ObjCBool = false
                return FileManager.default.fileExists(atPath: p + "/" + name, isDirectory: &dir) && !dir.boolValue
            }.sorted()
        } else {
            kind = .zip
            let archive = try ZipArchive(path: p, limits: limits)
            var entries: [String] = []
            while let name = try archive.nextFile() {
                if name.hasPrefix("__MACOSX/") { continue }
                entries.append(name)
            }
            // The folder of the shallowest core GTFS file; the root when there is none.
            let core: Set<String> = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]
            let folders = entries.compactMap { entry -> String? in
                let parts = entry.split(separator: "/", omittingEmptySubsequences: false)
                guard let last = parts.last, core.contains(String(last)) else { return nil }
                return parts.dropLast().map { $0 + "/" }.joined()
            }
            let folder = folders.min { ($0.count, $0) < ($1.count, $1) } ?? ""
            prefix = folder
            files = entries.compactMap { entry in
                guard entry.hasPrefix(folder) else { return nil }
                let rest = String(entry.dropFirst(folder.count))
                return rest.isEmpty || rest.contains("/") ? nil : rest
            }.sorted()
            // Two members of one name: which one a reader would take is an accident of order.
            if let twice = Swift.zip(files, files.dropFirst()).first(where: { $0.0 == $0.1 })?.0 {
                throw ImportError(file: "\(p)/\(folder)\(twice)",
                                  message: "the archive holds \(twice) more than once; keep one and import again")
            }
        }
    }

    /// True when the feed has a file of this name.
    func contains(_ name: String) -> Bool { files.contains(name) }

    /// The name used in errors and warnings: `path/stops.txt` (for a zip, `feed.zip/stops.txt`).
    func displayName(_ name: String) -> String { "\(path)/\(prefix)\(name)" }

    /// Opens one file of the feed for reading.
    /// - Throws: `ImportError` when it is missing or cannot be opened.
    func open(_ name: String) throws(ImportError) -> FeedByteStream {
        switch kind {
        case .directory:
            return try FileByteStream(path: displayName(name))
        case .zip:
            let archive = try ZipArchive(path: path, limits: limits)
            let wanted = prefix + name
            while let entry = try archive.nextFile() {
                if entry == wanted { return archive }
            }
            throw ImportError(file: displayName(name), message: "no such member in the archive")
        }
    }
}

/// A plain file read in parts.
final class FileByteStream: FeedByteStream {
    private let handle: FileHandle
    private let path: String

    init(path: String) throws(ImportError) {
        guard let h = FileHandle(forReadingAtPath: path) else {
            throw ImportError(file: path, message: "cannot open the file")
        }
        handle = h
        self.path = path
    }

    deinit { try? handle.close() }

    func read(upTo count: Int) throws(ImportError) -> [UInt8] {
        do {
            guard let data = try handle.read(upToCount: count) else { return [] }
            return [UInt8](data)
        } catch {
            throw ImportError(file: path, message: "read error: \(error.localizedDescription)")
        }
    }
}
