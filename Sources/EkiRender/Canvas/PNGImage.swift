import CCairo
import Foundation

/// A PNG read back with cairo (`cairo_image_surface_create_from_png`): its size in device
/// pixels and the colour of any pixel, for checking pictures (tests, golden images).
public final class PNGImage {
    private let surface: OpaquePointer
    public let width: Int, height: Int
    private let stride: Int
    private let pixels: UnsafeMutablePointer<UInt8>

    /// - Throws: `RenderError.invalidRequest` when the file is missing or not a PNG cairo can read.
    public init(path: String) throws {
        guard let s = cairo_image_surface_create_from_png(path) else { throw RenderError.invalidRequest("\(path): cannot read") }
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError.invalidRequest("\(path): not a PNG (\(String(cString: cairo_status_to_string(status))))")
        }
        // Convert whatever format was read into ARGB32 so every pixel reads the same way.
        let w = Int(cairo_image_surface_get_width(s)), h = Int(cairo_image_surface_get_height(s))
        let argb = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))!
        let cr = cairo_create(argb)
        cairo_set_source_surface(cr, s, 0, 0)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_destroy(s)
        cairo_surface_flush(argb)
        surface = argb
        width = w
        height = h
        stride = Int(cairo_image_surface_get_stride(argb))
        pixels = cairo_image_surface_get_data(argb)
    }

    /// Reads PNG bytes (written to a temporary file first: cairo reads PNGs from files or streams).
    public convenience init(data: Data) throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("eki-png-\(UUID().uuidString).png")
        try data.write(to: tmp)
        defer { try? FileManager.default.removeItem(at: tmp) }
        try self.init(path: tmp.path)
    }

    deinit { cairo_surface_destroy(surface) }

    /// The pixel at (x, y) in device pixels (un-premultiplied 8-bit RGBA).
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        let p = pixels + y * stride + x * 4
        // ARGB32 is native-endian 32-bit words: B, G, R, A in memory on little-endian machines.
        let v = UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)
        let a = UInt8(v >> 24), r = UInt8(v >> 16 & 0xFF), g = UInt8(v >> 8 & 0xFF), b = UInt8(v & 0xFF)
        guard a != 0, a != 255 else { return (r, g, b, a) }
        func un(_ c: UInt8) -> UInt8 { UInt8(min(255, (Int(c) * 255 + Int(a) / 2) / Int(a))) }
        return (un(r), un(g), un(b), a)
    }

    /// True when the pixel at (x, y) is within `tolerance` (per 8-bit component) of `colour`.
    public func pixel(_ x: Int, _ y: Int, matches colour: RGB, tolerance: Int = 8) -> Bool {
        let p = pixel(x, y), c = colour.bytes
        return abs(Int(p.r) - Int(c.r)) <= tolerance && abs(Int(p.g) - Int(c.g)) <= tolerance
            && abs(Int(p.b) - Int(c.b)) <= tolerance
    }

    /// The number of pixels in the device-pixel rectangle that differ from `background` by more
    /// than `tolerance` in some component (the rectangle is clipped to the image).
    public func count(differingFrom background: RGB, x: Int, y: Int, width w: Int, height h: Int, tolerance: Int = 24) -> Int {
        var n = 0
        for yy in max(0, y)..<min(height, y + h) {
            for xx in max(0, x)..<min(width, x + w) where !pixel(xx, yy, matches: background, tolerance: tolerance) { n += 1 }
        }
        return n
    }

    /// The share of pixels (0…1) whose components differ from `other`'s by more than
    /// `tolerance`; 1 when the sizes differ.
    public func difference(from other: PNGImage, tolerance: Int = 16) -> Double {
        guard width == other.width, height == other.height else { return 1 }
        var differing = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = pixel(x, y), b = other.pixel(x, y)
                if abs(Int(a.r) - Int(b.r)) > tolerance || abs(Int(a.g) - Int(b.g)) > tolerance
                    || abs(Int(a.b) - Int(b.b)) > tolerance { differing += 1 }
            }
        }
        return Double(differing) / Double(width * height)
    }
}
