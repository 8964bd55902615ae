import CCairo
import CPNG
import Foundation

/// PNG encoding of an opaque cairo image surface through libpng at zlib's fastest level with
/// the Sub filter: cairo's own writer (`cairo_surface_write_to_png_stream`) uses libpng's
/// default compression and adaptive filters, which took most of the time of a 2400×2400 map
/// (see Scripts/bench/bench-render.sh). The map's background is painted first, so every pixel
/// is opaque and the alpha byte is dropped: 8-bit RGB (colour type 2), no interlace.
enum PNGEncoder {
    /// - Throws: `RenderError.writePNG` when libpng fails.
    static func encode(surface: OpaquePointer) throws -> Data {
        cairo_surface_flush(surface)
        let width = cairo_image_surface_get_width(surface), height = cairo_image_surface_get_height(surface)
        let stride = cairo_image_surface_get_stride(surface)
        guard let pixels = cairo_image_surface_get_data(surface) else {
            throw RenderError.writePNG(path: "(memory)", reason: "the surface has no pixels")
        }
        final class Sink { var data = Data() }
        let sink = Sink()
        let status = eki_png_write_bgrx(pixels, width, height, stride, 1, PNG_FILTER_SUB, { context, bytes, count in
            let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
            sink.data.append(bytes!, count: count)
        }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == 0 else { throw RenderError.writePNG(path: "(memory)", reason: "libpng could not encode the picture") }
        return sink.data
    }
}
