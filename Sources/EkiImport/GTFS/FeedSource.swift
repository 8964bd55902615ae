import Foundation
import CArchive

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

/// The one owner of a libarchive read handle for a zip file: `archive_read_free` in `deinit`.
/// Entries are read in archive order: `nextFile()` moves to the next regular file, `read(upTo:)`
/// returns that entry's uncompressed bytes. Not thread-safe; one reader uses it at a time.
///
/// Reading an entry stops with an `ImportError` when it would unzip to more than
/// `ImportLimits.maxUnzippedBytes` (the size its header states, then the bytes counted while
/// unzipping) or to more than `maxZipRatio` times the compressed bytes read for it (counted
/// with `archive_filter_bytes` once 1 MiB is unzipped): a zip bomb is refused after a few
/// megabytes, not held.
final class ZipArchive: FeedByteStream {
    private let handle: OpaquePointer
    private let path: String
    private let limits: ImportLimits
    private var currentEntry: String?
    /// The current entry's size as its header states it, when it does.
    private var statedSize: Int64? = nil
    /// Bytes unzipped from the current entry, and compressed bytes read before it.
    private var unzipped: Int64 = 0
    private var compressedAtStart: Int64 = 0
    /// Unzipped bytes after which the ratio is checked (below, read-ahead blurs it).
    static let ratioCheckStart: Int64 = 1 << 20

    /// - Throws: `ImportError` when the file cannot be opened or is not a zip archive.
    init(path: String, limits: ImportLimits = ImportLimits()) throws(ImportError) {
        guard let a = archive_read_new() else {
            throw ImportError(file: path, message: "libarchive: out of memory")
        }
        handle = a
        self.path = path
        self.limits = limits
        archive_read_support_format_zip(a)
        if archive_read_open_filename(a, path, 64 * 1024) != ARCHIVE_OK {
            throw ImportError(file: path, message: "not a readable zip archive (\(lastError))")
        }
    }

    deinit { archive_read_free(handle) }

    private var lastError: String {
        // libarchive's messages may end in (or hold) a newline: every error stays on one line.
        archive_error_string(handle).map { ImportError.oneLine(String(cString: $0)) } ?? "unknown libarchive error"
    }

    /// The path of the next regular file in the archive (directories are skipped), or nil at
    /// the end.
    /// - Throws: `ImportError` when the archive is corrupt or not a zip archive.
    func nextFile() throws(ImportError) -> String? {
        var entry: OpaquePointer? = nil
        while true {
            let rc = archive_read_next_header(handle, &entry)
            if rc == ARCHIVE_EOF { currentEntry = nil; return nil }
            guard rc == ARCHIVE_OK || rc == ARCHIVE_WARN, let entry else {
                throw ImportError(file: path, message: "not a readable zip archive (\(lastError))")
            }
            let regularFile: UInt32 = 0o100000          // AE_IFREG (a cast macro Swift cannot import)
            guard UInt32(archive_entry_filetype(entry)) == regularFile else { continue }
            guard let cName = archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry) else { continue }
            let name = String(cString: cName)
            currentEntry = name
            statedSize = archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil
            unzipped = 0
            compressedAtStart = archive_filter_bytes(handle, -1)
            return name
        }
    }

    func read(upTo count: Int) throws(ImportError) -> [UInt8] {
        let member = "\(path)/\(currentEntry ?? "?")"
        let limit = limits.maxUnzippedBytes
        if unzipped == 0, let stated = statedSize, stated > limit {
            throw ImportError(file: member, message: "unzips to \(stated) bytes, over the limit of \(limit) (--max-unzipped-bytes N raises it)")
        }
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { raw in
            archive_read_data(handle, raw.baseAddress, raw.count)
        }
        if n < 0 {
            throw ImportError(file: member, message: "cannot read the zip member (\(lastError))")
        }
        buffer.removeSubrange(Int(n)...)
        unzipped += Int64(n)
        if unzipped > limit {
            throw ImportError(file: member, message: "unzips to more than the limit of \(limit) bytes (--max-unzipped-bytes N raises it)")
        }
        if unzipped > Self.ratioCheckStart {
            let compressed = max(1, archive_filter_bytes(handle, -1) - compressedAtStart)
            if unzipped / compressed > Int64(limits.maxZipRatio) {
                throw ImportError(file: member, message: "unzips to more than \(limits.maxZipRatio) times its compressed size (\(unzipped) bytes from \(compressed)), the limit against zip bombs (--max-zip-ratio N raises it)")
            }
        }
        return buffer
    }
}
