import EkiKit
import Foundation

/// One input of `eki import` as the formats see it when identifying: its path, whether it is a
/// folder (and then the names in it) or a file (and then its first bytes).
///
/// Standard input (`-`) is first copied to a temporary file (removed when the input is
/// released), so that it can be identified and then read, more than once if need be.
public final class ImportInput: @unchecked Sendable {
    /// How many bytes `head` holds at most.
    public static let headSize = 4096

    /// The input as the user gave it (`-` for stdin).
    public let argument: String
    /// The path to read: the argument, or the temporary copy of stdin.
    public let path: String
    /// The name used in messages: the argument, or `<stdin>`.
    public let displayName: String
    public let isStandardInput: Bool
    public let isDirectory: Bool
    /// The first `headSize` bytes of a file as stored (still compressed, if it is); empty for
    /// a folder.
    public let head: [UInt8]
    /// The names in a folder, sorted; empty for a file.
    public let entries: [String]

    /// - Throws: `ImportError` for a path that does not exist or cannot be read, or when stdin
    ///   cannot be copied.
    public init(_ argument: String) throws(ImportError) {
        self.argument = argument
        isStandardInput = argument == "-"
        displayName = isStandardInput ? "<stdin>" : argument
        if isStandardInput {
            path = try Self.copyStandardInput()
            isDirectory = false
        } else {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDir) else {
                throw ImportError(file: argument, message: "no such file or directory")
            }
            path = argument
            isDirectory = isDir.boolValue
        }
        if isDirectory {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
                throw ImportError(file: displayName, message: "cannot list this folder")
            }
            entries = names.sorted()
            head = []
        } else {
            guard let h = FileHandle(forReadingAtPath: path) else {
                throw ImportError(file: displayName, message: "cannot read file")
            }
            defer { try? h.close() }
            head = [UInt8]((try? h.read(upToCount: Self.headSize)) ?? Data())
            entries = []
        }
    }

    deinit {
        if isStandardInput { unlink(path) }
    }

    /// The file name without its folder.
    public var fileName: String { (argument as NSString).lastPathComponent }

    /// True when the folder holds a file named `name`.
    public func has(_ name: String) -> Bool { entries.contains(name) }

    /// Whether the head starts with gzip (`1f 8b`) or bzip2 (`BZh`) magic bytes.
    public var isCompressed: Bool {
        head.starts(with: [0x1F, 0x8B]) || head.starts(with: [0x42, 0x5A, 0x68])
    }

    /// Whether the head starts with a zip local file header (`PK\3\4`) or an empty zip's end
    /// record (`PK\5\6`).
    public var isZip: Bool {
        head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    /// The fields of the first line of a text file (UTF-8 with or without BOM, or CP932),
    /// trimmed; nil for a folder, a compressed or binary file (a NUL byte), or a first line
    /// that does not decode.
    public func csvHeader(encoding: TextEncoding?) -> [String]? {
        guard !isDirectory, !isCompressed, !isZip, !head.contains(0) else { return nil }
        let firstLine = Array(head.prefix { $0 != 0x0A })
        guard firstLine.count < head.count || head.count < Self.headSize else { return nil }
        guard let decoded = try? TextDecoding.decode(firstLine, file: displayName, encoding: encoding) else { return nil }
        var reader = CSVReader(bytes: decoded.bytes, file: displayName)
        guard let fields = try? reader.nextRecord() else { return nil }
        return fields.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    private static func copyStandardInput() throws(ImportError) -> String {
        var template = Array((NSTemporaryDirectory() + "/eki-stdin-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ImportError(file: "<stdin>", message: "cannot create a temporary copy: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                unlink(path)
                throw ImportError(file: "<stdin>", message: "cannot read: \(String(cString: strerror(errno)))")
            }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + written, n - written) }
                if w < 0 {
                    if errno == EINTR { continue }
                    unlink(path)
                    throw ImportError(file: "<stdin>", message: "cannot copy to a temporary file: \(String(cString: strerror(errno)))")
                }
                written += w
            }
        }
        return path
    }
}
