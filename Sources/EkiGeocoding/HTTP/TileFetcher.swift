import Foundation

/// Raster map tiles (256 px PNGs in the XYZ scheme of web maps) over the project's libcurl
/// client, for `eki render --tiles URL`: each tile is read from the on-disk cache when there,
/// else fetched with the configured User-Agent, at most one request per `minimumInterval`
/// (default 1 s, within the OpenStreetMap tile usage policy's limits for a single user), and
/// stored in the cache. Not thread-safe.
public final class TileFetcher {
    /// The URL template, with `{z}`, `{x}` and `{y}` (e.g. `https://tile.openstreetmap.org/{z}/{x}/{y}.png`).
    public let template: String
    /// Where tiles are kept: `<cacheRoot>/<hash of the template>/<z>/<x>/<y>.png`; nil for no cache.
    public let cacheDirectory: String?
    public let minimumInterval: Double
    /// Transfers made and tiles read from the cache, so far.
    public private(set) var requests = 0, cacheHits = 0
    private let curl: CurlEasy
    private var lastRequest: Date?

    /// - Parameters:
    ///   - cacheRoot: the folder for cached tiles (default: `$XDG_CACHE_HOME/eki/tiles`, else
    ///     `~/.cache/eki/tiles`); nil for none.
    /// - Throws: `GeocodingError.misconfigured` when the template is not an http(s) URL with
    ///   `{z}`, `{x}` and `{y}`.
    public init(template: String, configuration c: GeocoderConfiguration, cacheRoot: String?,
                minimumInterval: Double = 1) throws(GeocodingError) {
        let lower = template.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
              ["{z}", "{x}", "{y}"].allSatisfy(template.contains),
              !template.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw .misconfigured(reason: "--tiles needs an http(s) URL with {z}, {x} and {y}, got '\(template)'")
        }
        self.template = template
        self.minimumInterval = minimumInterval
        cacheDirectory = cacheRoot.map { $0 + "/" + Self.folderName(template) }
        curl = try CurlEasy(settings: TransferSettings(userAgent: c.userAgent, connectTimeout: c.connectTimeout,
                                                       timeout: c.timeout, maxResponseBytes: 4 << 20, maxRedirects: c.maxRedirects))
    }

    /// `$XDG_CACHE_HOME/eki/tiles`, else `~/.cache/eki/tiles`, else nil.
    public static func defaultCacheRoot(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        GeocoderConfiguration.defaultCachePath(env).map { ($0 as NSString).deletingLastPathComponent + "/tiles" }
    }

    /// The cache folder of one template: FNV-1a 64 of its UTF-8 bytes, in hex.
    public static func folderName(_ template: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in template.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return String(h, radix: 16)
    }

    /// The URL of one tile.
    public func url(z: Int, x: Int, y: Int) -> String {
        template.replacingOccurrences(of: "{z}", with: String(z)).replacingOccurrences(of: "{x}", with: String(x))
            .replacingOccurrences(of: "{y}", with: String(y))
    }

    /// The tile's bytes (as the server sent them: normally a PNG).
    /// - Throws: `GeocodingError` (`unavailable`, `refused`, `rateLimited`, `timedOut`, …) when
    ///   the tile is not cached and cannot be fetched.
    public func tile(z: Int, x: Int, y: Int) throws(GeocodingError) -> [UInt8] {
        let file = cacheDirectory.map { "\($0)/\(z)/\(x)/\(y).png" }
        if let file, let data = FileManager.default.contents(atPath: file) {
            cacheHits += 1
            return Array(data)
        }
        if let last = lastRequest {
            let wait = minimumInterval - Date().timeIntervalSince(last)
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        }
        lastRequest = Date()
        requests += 1
        let r = try curl.get(url(z: z, x: x, y: y))
        lastRequest = Date()
        switch r.status {
        case 200: break
        case 429: throw .rateLimited(retryAfter: r.retryAfter)
        case 401, 403: throw .refused(status: r.status)
        default: throw .unavailable(status: r.status, message: url(z: z, x: x, y: y))
        }
        if let file {
            let dir = (file as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try? Data(r.body).write(to: URL(fileURLWithPath: file), options: .atomic)
        }
        return r.body
    }
}
