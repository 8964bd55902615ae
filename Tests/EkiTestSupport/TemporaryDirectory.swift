import Foundation

/// A new empty temporary folder, removed with everything in it when the value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }

    public init() {
        url = TestPaths.temporaryDirectory()
    }

    /// The path of `name` inside the folder (not created).
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
