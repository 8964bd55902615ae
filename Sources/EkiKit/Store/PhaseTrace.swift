import Foundation

/// Phase times of an import on stderr when `EKI_TRACE` is set (for profiling), with the
/// process's resident and peak resident memory (`VmRSS`, `VmHWM` of /proc/self/status, MB) at
/// the end of each phase where the system has them, and the process's CPU time in the phase
/// (user and system, all threads: on a busy machine, steadier than the wall time).
package struct PhaseTrace {
    public static let enabled = getenv("EKI_TRACE") != nil
    var last = DispatchTime.now().uptimeNanoseconds
    var lastCPU = PhaseTrace.cpuNanoseconds()

    /// CPU time the process has used, nanoseconds.
    static func cpuNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    public init() {}

    /// Writes the time since the last mark (or since `init`) under `phase`, with the memory.
    public mutating func mark(_ phase: @autoclosure () -> String) {
        guard Self.enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let cpu = Self.cpuNanoseconds()
        let memory = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)).map { status in
            status.split(separator: "\n").filter { $0.hasPrefix("VmRSS:") || $0.hasPrefix("VmHWM:") }
                .map { line in
                    let kb = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
                    return "\(line.prefix(5)) \(Int(kb / 1024)) MB"
                }.joined(separator: ", ")
        } ?? ""
        FileHandle.standardError.write(Data("eki-trace: \(phase()) \(String(format: "%.3f", Double(now - last) / 1e9)) s (cpu \(String(format: "%.3f", Double(cpu - lastCPU) / 1e9)) s) \(memory)\n".utf8))
        last = now
        lastCPU = cpu
    }
}
