import Foundation

/// A file to write whose folder does not exist or is not a folder (a data error, exit 1).
struct OutputPathError: Error, CustomStringConvertible {
    var file: String
    var folder: String
    var isFile: Bool
    var description: String {
        isFile ? "\(file): cannot write it: \(folder) is a file, not a folder"
            : "\(file): cannot write it: the folder \(folder) does not exist (create it first)"
    }
}

/// Checks on a file a command is about to write (`eki render -o`, `eki visit share --png`).
enum OutputPath {
    /// Throws when the folder `path` goes into is missing (naming it: `missing/dir` of
    /// `missing/dir/x.png`), or when a part of it is a file (naming that part). Checked before
    /// any work, so nothing is written.
    /// - Throws: `OutputPathError`.
    static func checkFolder(of path: String) throws(OutputPathError) {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return }
        var prefix = folder.hasPrefix("/") ? "/" : ""
        for part in folder.split(separator: "/") {
            prefix = prefix.isEmpty || prefix == "/" ? prefix + part : prefix + "/" + part
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: prefix, isDirectory: &isDirectory) else {
                throw OutputPathError(file: path, folder: folder, isFile: false)
            }
            if !isDirectory.boolValue { throw OutputPathError(file: path, folder: prefix, isFile: true) }
        }
    }
}
