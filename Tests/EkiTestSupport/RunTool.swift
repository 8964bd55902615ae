import Foundation

extension Tools {
    /// Runs `executable` (a path, or a name looked up on `$PATH`) with `arguments` and, when
    /// given, exactly `environment`; standard input is empty. Standard output and error are read
    /// while it runs (so a chatty tool cannot fill a pipe and stall).
    /// - Returns: the exit status and both outputs as UTF-8 text.
    /// - Throws: when the program cannot be started.
    public static func run(_ executable: String, _ arguments: [String],
                           environment: [String: String]? = nil) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable.contains("/") ? executable : path(of: executable) ?? executable)
        p.arguments = arguments
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errBox.data = err.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: errBox.data, as: UTF8.self))
    }
}
