import CCairo
import Foundation

/// An sRGB colour, each component 0…1.
public struct RGB: Hashable, Sendable {
    public var r, g, b: Double
    public init(r: Double, g: Double, b: Double) { (self.r, self.g, self.b) = (r, g, b) }
    /// `RGB(hex: 0xD7263D)`: 0xRRGGBB.
    public init(hex: UInt32) {
        self.init(r: Double(hex >> 16 & 0xFF) / 255, g: Double(hex >> 8 & 0xFF) / 255, b: Double(hex & 0xFF) / 255)
    }
    /// The 8-bit components, as a PNG pixel holds them.
    public var bytes: (r: UInt8, g: UInt8, b: UInt8) {
        (UInt8((r * 255).rounded()), UInt8((g * 255).rounded()), UInt8((b * 255).rounded()))
    }
}

/// Why a picture could not be made or written.
public enum RenderError: Error, CustomStringConvertible, Sendable {
    /// A size or scale out of range, or an empty view (`reason` says which).
    case invalidRequest(String)
    /// cairo could not make the surface (out of memory, size too large).
    case surface(String)
    /// The PNG could not be written (`path`, cairo's status text).
    case writePNG(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidRequest(let r): return r
        case .surface(let r): return "cannot create the picture: \(r)"
        case .writePNG(let path, let r): return "\(path): cannot write the PNG: \(r)"
        }
    }
}

/// One cairo image surface (ARGB32) and its drawing context, freed together. Drawing
/// coordinates are logical pixels: the context is scaled by `scale` (1, or 2 for phones), so
/// the surface is `width × scale` by `height × scale` device pixels. Not thread-safe.
final class Canvas {
    let surface: OpaquePointer
    let cr: OpaquePointer
    /// Logical size (pixels before scaling).
    let width: Int, height: Int
    let scale: Int

    /// - Throws: `RenderError.surface` when cairo cannot allocate the surface.
    init(width: Int, height: Int, scale: Int) throws {
        self.width = width
        self.height = height
        self.scale = scale
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width * scale), Int32(height * scale)) else {
            throw RenderError.surface("no surface")
        }
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError.surface(String(cString: cairo_status_to_string(status)))
        }
        surface = s
        cr = cairo_create(s)
        cairo_scale(cr, Double(scale), Double(scale))
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    func setColor(_ c: RGB, alpha: Double = 1) { cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha) }
    func setLineWidth(_ w: Double) { cairo_set_line_width(cr, w) }

    func fillAll(_ c: RGB) {
        setColor(c)
        cairo_paint(cr)
    }

    func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) { cairo_rectangle(cr, x, y, w, h) }
    func circle(_ x: Double, _ y: Double, _ r: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, x, y, r, 0, 2 * Double.pi)
    }
    func move(_ x: Double, _ y: Double) { cairo_move_to(cr, x, y) }
    func line(_ x: Double, _ y: Double) { cairo_line_to(cr, x, y) }
    func closePath() { cairo_close_path(cr) }
    func newPath() { cairo_new_path(cr) }
    func fill(evenOdd: Bool = false) {
        cairo_set_fill_rule(cr, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_fill(cr)
    }
    func fillPreserve() { cairo_fill_preserve(cr) }
    func stroke() { cairo_stroke(cr) }
    func roundJoins() {
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    }

    /// Paints `other` (made at the same scale) with its top-left corner at logical (x, y).
    func draw(_ other: Canvas, x: Double, y: Double) {
        cairo_surface_flush(other.surface)
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, 1 / Double(other.scale), 1 / Double(other.scale))
        cairo_set_source_surface(cr, other.surface, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Paints an RGB image (`width` × `height`, 3 bytes a pixel, rows top to bottom) into the
    /// logical box (x, y, w, h), scaled to cover it and cut to it, with rounded corners `radius`.
    func drawRGB(_ rgb: [UInt8], width: Int, height: Int, x: Double, y: Double, w: Double, h: Double, radius: Double = 4) {
        guard width > 0, height > 0, rgb.count >= width * height * 3 else { return }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(width)))
        guard let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)) else { return }
        defer { cairo_surface_destroy(image) }
        cairo_surface_flush(image)
        guard let data = cairo_image_surface_get_data(image) else { return }
        for row in 0..<height {
            let line = data + row * stride
            for col in 0..<width {
                let i = (row * width + col) * 3
                // RGB24 is one 32-bit word a pixel, 0xXXRRGGBB in native (little-endian) order: B, G, R, X.
                line[col * 4] = rgb[i + 2]; line[col * 4 + 1] = rgb[i + 1]; line[col * 4 + 2] = rgb[i]; line[col * 4 + 3] = 0xFF
            }
        }
        cairo_surface_mark_dirty(image)
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - radius, y + radius, radius, -Double.pi / 2, 0)
        cairo_arc(cr, x + w - radius, y + h - radius, radius, 0, Double.pi / 2)
        cairo_arc(cr, x + radius, y + h - radius, radius, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + radius, y + radius, radius, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
        cairo_clip(cr)
        let k = max(w / Double(width), h / Double(height))
        cairo_translate(cr, x + (w - Double(width) * k) / 2, y + (h - Double(height) * k) / 2)
        cairo_scale(cr, k, k)
        cairo_set_source_surface(cr, image, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// The picture as PNG bytes (`PNGEncoder`).
    /// - Throws: `RenderError.writePNG` when libpng fails.
    func pngData() throws -> Data { try PNGEncoder.encode(surface: surface) }

    /// Writes the PNG to `path` (replacing it).
    /// - Throws: `RenderError.writePNG` naming the path.
    func writePNG(to path: String) throws {
        let data = try pngData()
        do { try data.write(to: URL(fileURLWithPath: path)) } catch {
            throw RenderError.writePNG(path: path, reason: error.localizedDescription)
        }
    }
}
