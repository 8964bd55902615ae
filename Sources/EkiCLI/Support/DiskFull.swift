import EkiSQLite
import Foundation

/// A write that ran out of disk space (SQLite's SQLITE_FULL: a full disk or quota), said in
/// the user's words: the file, the space its file system has free once the write is undone
/// (the write needed more than that), and what became of the file. Never the library's
/// `SQLite error 13`.
struct DiskFullError: Error, CustomStringConvertible {
    let path: String
    /// Bytes free on the file system once the failed write was undone.
    let free: Int64
    /// True when the file was new and has been removed (with its journal).
    let removed: Bool

    var description: String {
        "\(path): the disk is full: the write needed more than the \(Self.size(free)) its file system has free; "
            + (removed ? "the unfinished new database was removed. Free some space and import again"
                       : "nothing was written, the database is as it was. Free some space and import again")
    }

    /// True for SQLite's full-disk error (a full disk, or a quota), in any of its forms.
    static func isDiskFull(_ error: Error) -> Bool {
        guard let e = error as? SQLiteError else { return false }
        return e.primary == .full || e.code == 13
    }

    /// Bytes free (to this user) on the file system holding `path`.
    static func free(near path: String) -> Int64 {
        var s = statvfs()
        let dir = (path as NSString).deletingLastPathComponent
        guard statvfs(dir.isEmpty ? "." : dir, &s) == 0 else { return 0 }
        return Int64(s.f_bavail) * Int64(s.f_frsize)
    }

    /// Removes `path` and the files SQLite keeps beside it.
    static func remove(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// `12 KB`, `1.8 MB`: sizes in powers of 1,000, as `df -H` prints them.
    static func size(_ bytes: Int64) -> String {
        if bytes < 1_000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return "\(bytes / 1_000) KB" }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
