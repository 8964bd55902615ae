import CArchive
import Foundation

// libarchive's one wrapper: zip archives read (GTFS feeds, visit archives) and written (visit
// archives with photos).

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

/// The one owner of a libarchive write handle for a zip file: members are written in the order
/// given, stored (JPEG does not compress), each with mode 0644 and the same fixed time, so the
/// same members make the same bytes. The file is written to `path + ".part"` and renamed on
/// `finish()`: a failed export leaves no half-written archive. Not thread-safe.
final class ZipWriter {
    private let handle: OpaquePointer
    private let path: String
    private let partPath: String
    private var finished = false
    /// 2000-01-01 00:00:00 UTC: every member's time.
    static let memberTime: Int = 946_684_800

    /// - Throws: `ImportError` when the file cannot be created.
    init(path: String) throws(ImportError) {
        guard let a = archive_write_new() else { throw ImportError(file: path, message: "libarchive: out of memory") }
        handle = a
        self.path = path
        partPath = path + ".part"
        archive_write_set_format_zip(a)
        archive_write_set_options(a, "zip:compression=store")
        if archive_write_open_filename(a, partPath) != ARCHIVE_OK {
            throw ImportError(file: path, message: "cannot write the zip archive (\(lastError))")
        }
    }

    deinit {
        archive_write_free(handle)
        if !finished { unlink(partPath) }
    }

    private var lastError: String {
        archive_error_string(handle).map { ImportError.oneLine(String(cString: $0)) } ?? "unknown libarchive error"
    }

    /// Adds the member `name` holding `bytes`.
    /// - Throws: `ImportError` when libarchive cannot write it.
    func add(_ name: String, _ bytes: [UInt8]) throws(ImportError) {
        guard let entry = archive_entry_new() else { throw ImportError(file: path, message: "libarchive: out of memory") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_size(entry, Int64(bytes.count))
        archive_entry_set_filetype(entry, 0o100000)      // AE_IFREG
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_mtime(entry, Self.memberTime, 0)
        guard archive_write_header(handle, entry) == ARCHIVE_OK else {
            throw ImportError(file: "\(path)/\(name)", message: "cannot write the zip member (\(lastError))")
        }
        let written = bytes.withUnsafeBytes { archive_write_data(handle, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw ImportError(file: "\(path)/\(name)", message: "cannot write the zip member (\(lastError))")
        }
    }

    /// Closes the archive and moves it to `path`.
    /// - Throws: `ImportError` when closing or renaming fails (the part file is removed).
    func finish() throws(ImportError) {
        guard archive_write_close(handle) == ARCHIVE_OK else {
            throw ImportError(file: path, message: "cannot write the zip archive (\(lastError))")
        }
        guard rename(partPath, path) == 0 else {
            throw ImportError(file: path, message: "cannot move the archive into place (\(String(cString: strerror(errno))))")
        }
        finished = true
    }
}
