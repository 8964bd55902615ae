import Foundation

/// Phase times of an import on stderr when `EKI_TRACE` is set (for profiling).
struct PhaseTrace {
    static let enabled = getenv("EKI_TRACE") != nil
    var last = DispatchTime.now().uptimeNanoseconds

    mutating func mark(_ phase: @autoclosure () -> String) {
        guard Self.enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        FileHandle.standardError.write(Data("eki-trace: \(phase()) \(String(format: "%.3f", Double(now - last) / 1e9)) s\n".utf8))
        last = now
    }
}
