import CVips
import Foundation
import Synchronization

/// What a stored photo may be, and the limits a file is checked against before it is decoded.
public struct PhotoLimits: Sendable, Equatable {
    /// Largest input file accepted, in bytes (40 MiB: a 108-megapixel phone JPEG is ~30 MB).
    public var maxInputBytes = 40 << 20
    /// Most pixels an input may declare in its header, checked before any pixel is decoded (a
    /// decompression bomb states a huge size in a small file): 120 megapixels.
    public var maxPixels = 120_000_000
    /// Longest a photo may take to decode and shrink, in seconds; past it the work is stopped.
    public var timeLimit: Double = 10
    /// The stored photo's long side, at most, in pixels.
    public var longSide = 1_600
    /// The smallest long side tried before the photo is refused.
    public var floorLongSide = 640
    /// The stored photo's size, at most, in bytes (1 MiB).
    public var maxOutputBytes = 1 << 20
    /// JPEG qualities tried at each size, best first; the last is the lowest accepted.
    public var qualities = [85, 75, 65, 55, 45]
    /// The thumbnail's long side, at most, in pixels.
    public var thumbnailLongSide = 480

    public init() {}

    /// The long sides tried, largest first: `longSide`, then 80 % steps, ending at `floorLongSide`.
    public var sizes: [Int] {
        var out: [Int] = []
        var s = longSide
        while s > floorLongSide { out.append(s); s = s * 4 / 5 }
        out.append(floorLongSide)
        return out
    }
}

/// A photo as stored: a baseline JPEG in sRGB with no metadata, and its thumbnail.
public struct ProcessedPhoto: Sendable {
    /// The photo (JPEG bytes, ≤ `PhotoLimits.maxOutputBytes`).
    public var jpeg: [UInt8]
    /// Its size in pixels, upright.
    public var width: Int
    public var height: Int
    /// The JPEG quality it was saved at (1–100).
    public var quality: Int
    /// The thumbnail (JPEG bytes, long side ≤ `PhotoLimits.thumbnailLongSide`) and its size.
    public var thumbnail: [UInt8]
    public var thumbnailWidth: Int
    public var thumbnailHeight: Int
    /// The input's format as its loader names it (`jpeg`, `png`, `webp`, `heif`).
    public var sourceFormat: String
    /// Seconds spent making and encoding the thumbnail (monotonic clock; for benchmarks).
    public var thumbnailSeconds: Double = 0
}

/// Why a file was refused; `description` names the file.
public struct PhotoError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// 0 bytes.
        case empty
        /// More than `PhotoLimits.maxInputBytes`.
        case inputTooLarge(bytes: Int, limit: Int)
        /// No image loader recognises the bytes.
        case notAnImage
        /// An image format this build does not accept (its name as libvips's loader gives it, e.g. `gif`).
        case unsupported(String)
        /// The header states more than `PhotoLimits.maxPixels` pixels.
        case tooManyPixels(width: Int, height: Int, limit: Int)
        /// The pixels could not be decoded (truncated or corrupt, including data the decoder
        /// only warns about, such as a JPEG's "Corrupt JPEG data"), with libvips's reason.
        case broken(String)
        /// Decoding took longer than `PhotoLimits.timeLimit`.
        case timedOut(seconds: Double)
        /// Still over `PhotoLimits.maxOutputBytes` at the floor size and lowest quality.
        case tooLargeAtFloor(bytes: Int, limit: Int, longSide: Int)
        /// Bytes given as a stored photo (an archive) that are not one, and why.
        case notAStoredPhoto(String)
    }
    /// The file (or upload) name the error is about.
    public var source: String
    public var reason: Reason

    public init(source: String, reason: Reason) {
        self.source = source
        self.reason = reason
    }

    /// True for the reasons that mean "not a format this server takes" (HTTP 415).
    public var isUnsupportedFormat: Bool {
        if case .unsupported = reason { return true }
        if case .notAnImage = reason { return true }
        return false
    }

    public var description: String {
        switch reason {
        case .empty: return "\(source): the file is empty (0 bytes)"
        case .inputTooLarge(let b, let l): return "\(source): \(b) bytes is more than the \(l)-byte limit for a photo"
        case .notAnImage: return "\(source): not an image (JPEG, PNG, WebP or HEIC expected)"
        case .unsupported(let format):
            return "\(source): \(format) images are not accepted (JPEG, PNG, WebP or HEIC expected)"
        case .tooManyPixels(let w, let h, let l):
            return "\(source): the image says it is \(w) × \(h) pixels, more than the \(l / 1_000_000)-megapixel limit"
        case .broken(let why): return "\(source): the image cannot be read (\(why))"
        case .timedOut(let s): return "\(source): decoding took longer than \(s) s and was stopped"
        case .notAStoredPhoto(let why): return "\(source): not a photo as EkiKit stores them (\(why))"
        case .tooLargeAtFloor(let b, let l, let side):
            return "\(source): still \(b) bytes at \(side) px and the lowest quality (limit \(l) bytes)"
        }
    }
}

/// Turns a photo from a phone or camera into what a visit keeps (libvips; the one caller of CVips):
/// 1. refuses it before decoding when it is empty, over `maxInputBytes`, not an image, not
///    JPEG / PNG / WebP / HEIC (HEIF, AVIF), or its header states more than `maxPixels` pixels;
/// 2. decodes it shrunk to ≤ `longSide` px on its long side (shrink-on-load), turned upright
///    by its EXIF orientation, as 8-bit sRGB (embedded ICC profile applied, alpha on white),
///    within `timeLimit` seconds; any decoder warning refuses it (libvips's fail-on-warning: a
///    JPEG with corrupt scan data would otherwise come out partly grey);
/// 3. saves baseline JPEG with no metadata at all (no EXIF, GPS, XMP, IPTC, ICC, comments),
///    stepping the quality down through `qualities`, then the size down through `sizes`, until
///    the file is ≤ `maxOutputBytes`; refuses it when the floor size at the lowest quality is
///    still over;
/// 4. makes a thumbnail of ≤ `thumbnailLongSide` px from the result.
///
/// Thread-safe (libvips is; each call has its own images).
public struct PhotoProcessor: Sendable {
    public var limits: PhotoLimits

    public init(limits: PhotoLimits = PhotoLimits()) { self.limits = limits }

    /// The loaders accepted, by libvips's class name, with the format they report.
    static let accepted = ["VipsForeignLoadJpegBuffer": "jpeg", "VipsForeignLoadPngBuffer": "png",
                           "VipsForeignLoadWebpBuffer": "webp", "VipsForeignLoadHeifBuffer": "heif"]

    /// Whether this libvips build has a loader for `format` (`jpeg`, `png`, `webp`, `heif`).
    public static func reads(_ format: String) -> Bool {
        guard started, accepted.values.contains(format) else { return false }
        return vips_type_find("VipsOperation", "\(format)load_buffer") != 0
    }

    /// The formats this build reads, in the order named in the docs.
    public static var formats: [String] { ["jpeg", "png", "webp", "heif"].filter(reads) }

    /// libvips started once per process (`eki_vips_start`).
    static let started: Bool = eki_vips_start() == 0

    /// The photo and its thumbnail from the bytes of a file.
    /// - Parameter source: the file or upload name, for errors.
    /// - Throws: `PhotoError` naming `source`.
    public func process(_ bytes: [UInt8], source: String) throws(PhotoError) -> ProcessedPhoto {
        func fail(_ r: PhotoError.Reason) -> PhotoError { PhotoError(source: source, reason: r) }
        guard !bytes.isEmpty else { throw fail(.empty) }
        guard bytes.count <= limits.maxInputBytes else { throw fail(.inputTooLarge(bytes: bytes.count, limit: limits.maxInputBytes)) }
        let result: Result<ProcessedPhoto, PhotoError> = Self.withVips {
            guard Self.started else { return .failure(fail(.broken("libvips did not start: \(Self.lastError())"))) }
            return bytes.withUnsafeBytes { raw in
                do throws(PhotoError) { return .success(try run(raw, fail: fail)) } catch { return .failure(error) }
            }
        }
        return try result.get()
    }

    private func run(_ raw: UnsafeRawBufferPointer, fail: (PhotoError.Reason) -> PhotoError) throws(PhotoError) -> ProcessedPhoto {
        guard let base = raw.baseAddress, let cLoader = vips_foreign_find_load_buffer(base, raw.count) else {
            Self.clearError()
            throw fail(.notAnImage)
        }
        let loader = String(cString: cLoader)
        guard let format = Self.accepted[loader] else {
            // VipsForeignLoadGifBuffer → gif
            let name = loader.replacingOccurrences(of: "VipsForeignLoad", with: "").replacingOccurrences(of: "Buffer", with: "")
            throw fail(.unsupported(name.lowercased() == "nsgif" ? "gif" : name.lowercased()))
        }
        guard let header = eki_vips_header(base, raw.count) else { throw fail(.broken(Self.lastError())) }
        let (w, h) = (Int(vips_image_get_width(header)), Int(vips_image_get_height(header)))
        g_object_unref(header)
        guard w > 0, h > 0, w * h <= limits.maxPixels else { throw fail(.tooManyPixels(width: w, height: h, limit: limits.maxPixels)) }

        // Decode once, shrunk and upright, into memory, within the time bound.
        guard let shrunk = eki_vips_thumbnail_buffer(base, raw.count, Int32(limits.longSide)) else { throw fail(.broken(Self.lastError())) }
        defer { g_object_unref(shrunk) }
        guard let srgb = eki_vips_srgb(shrunk) else { throw fail(.broken(Self.lastError())) }
        defer { g_object_unref(srgb) }
        let deadline = UnsafeMutablePointer<gint64>.allocate(capacity: 1)
        defer { deadline.deallocate() }
        deadline.pointee = g_get_monotonic_time() + gint64(limits.timeLimit * 1_000_000)
        eki_vips_set_deadline(srgb, deadline)
        guard let decoded = vips_image_copy_memory(srgb) else {
            let why = Self.lastError()
            if g_get_monotonic_time() > deadline.pointee { throw fail(.timedOut(seconds: limits.timeLimit)) }
            throw fail(.broken(why))
        }
        defer { g_object_unref(decoded) }

        var smallest = Int.max
        for side in limits.sizes {
            let image = side >= limits.longSide ? Self.retained(decoded) : eki_vips_thumbnail_image(decoded, Int32(side))
            guard let image else { throw fail(.broken(Self.lastError())) }
            defer { g_object_unref(image) }
            for q in limits.qualities {
                let jpeg = try Self.jpeg(image, quality: q, fail: fail)
                smallest = min(smallest, jpeg.count)
                guard jpeg.count <= limits.maxOutputBytes else { continue }
                let started = g_get_monotonic_time()
                guard let thumb = eki_vips_thumbnail_image(image, Int32(limits.thumbnailLongSide)) else { throw fail(.broken(Self.lastError())) }
                defer { g_object_unref(thumb) }
                let thumbJPEG = try Self.jpeg(thumb, quality: limits.qualities.first ?? 80, fail: fail)
                return ProcessedPhoto(jpeg: jpeg, width: Int(vips_image_get_width(image)), height: Int(vips_image_get_height(image)),
                                      quality: q, thumbnail: thumbJPEG, thumbnailWidth: Int(vips_image_get_width(thumb)),
                                      thumbnailHeight: Int(vips_image_get_height(thumb)), sourceFormat: format,
                                      thumbnailSeconds: Double(g_get_monotonic_time() - started) / 1_000_000)
            }
        }
        throw fail(.tooLargeAtFloor(bytes: smallest, limit: limits.maxOutputBytes, longSide: limits.floorLongSide))
    }

    /// Checks bytes that claim to be a stored photo or thumbnail (from an archive, stored as
    /// they are): a JPEG whose header says `width` × `height`, its long side ≤ `longSide`,
    /// at most `maxOutputBytes`, with no APP1–APP15 or comment segment (no metadata).
    /// - Throws: `PhotoError` (`.notAStoredPhoto` with the reason) naming `source`.
    public func checkStored(_ jpeg: [UInt8], width: Int, height: Int, longSide: Int, source: String) throws(PhotoError) {
        func fail(_ why: String) -> PhotoError { PhotoError(source: source, reason: .notAStoredPhoto(why)) }
        guard jpeg.count <= limits.maxOutputBytes else { throw fail("\(jpeg.count) bytes, over \(limits.maxOutputBytes)") }
        guard max(width, height) <= longSide else { throw fail("\(width) × \(height) px, longer than \(longSide) px") }
        guard jpeg.starts(with: [0xFF, 0xD8]) else { throw fail("not a JPEG") }
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF, jpeg[i + 1] != 0xDA {
            let m = jpeg[i + 1]
            if (0xE1...0xEF).contains(m) || m == 0xFE { throw fail(String(format: "it holds metadata (marker 0xFF%02X)", m)) }
            if m == 0xC0 || m == 0xC2, i + 9 <= jpeg.count {
                let h = Int(jpeg[i + 5]) << 8 | Int(jpeg[i + 6]), w = Int(jpeg[i + 7]) << 8 | Int(jpeg[i + 8])
                guard (w, h) == (width, height) else { throw fail("it is \(w) × \(h) px, not \(width) × \(height)") }
            }
            i += 2 + (Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3]))
        }
        guard i + 4 <= jpeg.count, jpeg[i] == 0xFF, jpeg[i + 1] == 0xDA else { throw fail("no image data") }
    }

    /// The pixels of a JPEG (or any image this build reads) as 8-bit sRGB, 3 bytes a pixel, rows
    /// top to bottom, for drawing a stored thumbnail elsewhere (the share picture).
    /// - Throws: `PhotoError.broken` when it cannot be decoded; `.tooManyPixels` over `maxPixels`.
    public func decodeRGB(_ bytes: [UInt8], source: String) throws(PhotoError) -> (width: Int, height: Int, rgb: [UInt8]) {
        func fail(_ r: PhotoError.Reason) -> PhotoError { PhotoError(source: source, reason: r) }
        guard Self.started, !bytes.isEmpty else { throw fail(.empty) }
        let result: Result<(Int, Int, [UInt8]), PhotoError> = Self.withVips { bytes.withUnsafeBytes { raw in
            guard let image = eki_vips_header(raw.baseAddress, raw.count) else { return .failure(fail(.broken(Self.lastError()))) }
            defer { g_object_unref(image) }
            let (w, h) = (Int(vips_image_get_width(image)), Int(vips_image_get_height(image)))
            guard w * h <= limits.maxPixels else { return .failure(fail(.tooManyPixels(width: w, height: h, limit: limits.maxPixels))) }
            guard let srgb = eki_vips_srgb(image) else { return .failure(fail(.broken(Self.lastError()))) }
            defer { g_object_unref(srgb) }
            var size = 0
            guard let mem = vips_image_write_to_memory(srgb, &size) else { return .failure(fail(.broken(Self.lastError()))) }
            defer { g_free(mem) }
            guard size == w * h * 3 else { return .failure(fail(.broken("\(size) bytes for \(w) × \(h) RGB"))) }
            return .success((w, h, Array(UnsafeRawBufferPointer(start: mem, count: size))))
        } }
        let (w, h, rgb) = try result.get()
        return (w, h, rgb)
    }

    private static func retained(_ image: UnsafeMutablePointer<VipsImage>) -> UnsafeMutablePointer<VipsImage>? {
        g_object_ref(image)
        return image
    }

    private static func jpeg(_ image: UnsafeMutablePointer<VipsImage>, quality: Int,
                             fail: (PhotoError.Reason) -> PhotoError) throws(PhotoError) -> [UInt8] {
        guard let out = encode({ eki_vips_jpeg(image, Int32(quality), $0, $1) }) else { throw fail(.broken(lastError())) }
        return out
    }

    /// Runs a libvips save-to-buffer call and copies its bytes out (freeing libvips's buffer).
    private static func encode(_ save: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32) -> [UInt8]? {
        var buf: UnsafeMutableRawPointer?
        var len = 0
        guard save(&buf, &len) == 0, let buf else { return nil }
        defer { g_free(buf) }
        return Array(UnsafeRawBufferPointer(start: buf, count: len))
    }

    private static func lastError() -> String {
        let text = String(cString: vips_error_buffer()).trimmingCharacters(in: .whitespacesAndNewlines)
        vips_error_clear()
        return text.split(separator: "\n").first.map(String.init) ?? "libvips error"
    }

    private static func clearError() { vips_error_clear() }

    /// libvips keeps one error buffer for the whole process, and some calls that succeed leave
    /// text in it; calls that read it run one at a time, from an empty buffer, so an error
    /// names this call's failure and not another photo's.
    private static let vipsCalls = Mutex(())

    private static func withVips<T>(_ body: () -> T) -> T {
        vipsCalls.withLock { _ in
            // The buffer exists once libvips has started (clearing it before crashes).
            if started { vips_error_clear() }
            return body()
        }
    }

    // MARK: Samples (tests and benchmarks make their own images)

    /// A `width` × `height` image made by libvips, encoded as `format` (`jpeg`, `png`, `webp`,
    /// `heif`): a smooth gradient, or RGB noise that does not compress (`noise`).
    /// - Throws: `PhotoError.broken` when libvips cannot make or encode it.
    package static func sample(width: Int, height: Int, format: String = "jpeg", noise: Bool = false,
                               quality: Int = 92) throws(PhotoError) -> [UInt8] {
        let fail = { (r: PhotoError.Reason) in PhotoError(source: "sample", reason: r) }
        let result: Result<[UInt8], PhotoError> = withVips {
            guard started, let image = eki_vips_sample(Int32(width), Int32(height), noise ? 1 : 0) else { return .failure(fail(.broken(lastError()))) }
            defer { g_object_unref(image) }
            let out: [UInt8]?
            switch format {
            case "png": out = encode { eki_vips_png(image, $0, $1) }
            case "webp": out = encode { eki_vips_webp(image, $0, $1) }
            case "heif": out = encode { eki_vips_heif(image, $0, $1) }
            default: out = encode { eki_vips_jpeg(image, Int32(quality), $0, $1) }
            }
            guard let out else { return .failure(fail(.broken(lastError()))) }
            return .success(out)
        }
        return try result.get()
    }
}
