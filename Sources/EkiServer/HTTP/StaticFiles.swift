import Foundation

/// Files served from one folder, and from nowhere else: the path is taken as sent (still
/// percent-encoded) and refused when it holds an encoded slash or backslash, a `.` or `..`
/// segment (also as `%2e%2e`), an empty segment (`//etc/passwd`), a NUL, or when the file it
/// names — symlinks followed — lies outside the folder or is not a regular file.
struct StaticFiles: Sendable {
    /// The folder, symlinks resolved.
    let root: String

    /// nil when `folder` does not exist or is not a folder.
    init?(folder: String) {
        guard let real = realpath(folder, nil) else { return nil }
        defer { free(real) }
        var isDir: ObjCBool = false
        let path = String(cString: real)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { return nil }
        root = path
    }

    /// The file `relativeRawPath` names (a path below the folder, percent-encoded as sent,
    /// without a leading slash), or nil for anything refused or missing.
    func file(_ relativeRawPath: String) -> String? {
        let lower = relativeRawPath.lowercased()
        if lower.contains("%2f") || lower.contains("%5c") || lower.contains("%00") || relativeRawPath.contains("\\") { return nil }
        guard let decoded = PercentEncoding.decode(relativeRawPath), !decoded.isEmpty, !decoded.contains("\0") else { return nil }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        let candidate = root + "/" + decoded
        guard let real = realpath(candidate, nil) else { return nil }
        defer { free(real) }
        let path = String(cString: real)
        guard path.hasPrefix(root + "/") else { return nil }
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return path
    }

    /// The bytes of a file `file(_:)` returned.
    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// The Content-Type for a file name.
    static func contentType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json", "map": return "application/json; charset=utf-8"
        case "geojson": return "application/geo+json"
        case "png": return "image/png"
        case "svg": return "image/svg+xml"
        case "ico": return "image/x-icon"
        case "webmanifest": return "application/manifest+json"
        default: return "application/octet-stream"
        }
    }
}
