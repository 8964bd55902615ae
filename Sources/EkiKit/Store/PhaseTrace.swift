import Foundation

/// Phase times of an import on stderr when `EKI_TRACE` is set (for profiling), with the
/// process's resident and peak resident memory (`VmRSS`, `VmHWM` of /proc/self/status, MB) at
/// the end of each phase where the system has them.
struct PhaseTrace {
    static let enabled = getenv("EKI_TRACE") != nil
    var last = DispatchTime.now().uptimeNanoseconds

    mutating func mark(_ phase: @autoclosure () -> String) {
        guard Self.enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let memory = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)).map { status in
            status.split(separator: "\n").filter { $0.hasPrefix("VmRSS:") || $0.hasPrefix("VmHWM:") }
                .map { line in
                    let kb = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
                    return "\(line.prefix(5)) \(Int(kb / 1024)) MB"
                }.joined(separator: ", ")
        } ?? ""
        FileHandle.standardError.write(Data("eki-trace: \(phase()) \(String(format: "%.3f", Double(now - last) / 1e9)) s \(memory)\n".utf8))
        last = now
    }
}
