import CCairo
import CCompression
import Foundation

/// PNG encoding of an opaque cairo image surface with zlib at its fastest level: cairo's own
/// writer (`cairo_surface_write_to_png_stream`) uses libpng's default compression, which took
/// most of the time of a 2400×2400 map (see Scripts/bench/bench-render.sh).
///
/// Output: 8-bit RGB (colour type 2), no interlace, every row with the Sub filter (PNG spec,
/// ISO/IEC 15948 §9.2), one IDAT chunk. Pixels that are not fully opaque (never the case for a
/// map, whose background is painted first) are composited over white.
enum PNGEncoder {
    /// - Throws: `RenderError.writePNG` when zlib fails.
    static func encode(surface: OpaquePointer) throws -> Data {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let pixels = cairo_image_surface_get_data(surface) else {
            throw RenderError.writePNG(path: "(memory)", reason: "the surface has no pixels")
        }
        let rowBytes = 1 + width * 3
        var raw = [UInt8](repeating: 0, count: rowBytes * height)
        raw.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = UnsafeRawPointer(pixels + y * stride)
                let o = y * rowBytes
                out[o] = 1   // Sub: each byte minus the byte one pixel to its left
                var pr: UInt8 = 0, pg: UInt8 = 0, pb: UInt8 = 0
                for x in 0..<width {
                    // ARGB32: native-endian words, premultiplied alpha.
                    let v = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    let white = UInt8(255 - (v >> 24))
                    let r = UInt8(truncatingIfNeeded: v >> 16) &+ white, g = UInt8(truncatingIfNeeded: v >> 8) &+ white
                    let b = UInt8(truncatingIfNeeded: v) &+ white
                    let p = o + 1 + x * 3
                    out[p] = r &- pr; out[p + 1] = g &- pg; out[p + 2] = b &- pb
                    (pr, pg, pb) = (r, g, b)
                }
            }
        }
        var compressedLength = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        let status = compress2(&compressed, &compressedLength, raw, uLong(raw.count), Z_BEST_SPEED)
        guard status == Z_OK else { throw RenderError.writePNG(path: "(memory)", reason: "zlib error \(status)") }

        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])   // bit depth 8, RGB, deflate, adaptive filters, no interlace
        chunk("IHDR", header, into: &png)
        chunk("IDAT", Data(compressed.prefix(Int(compressedLength))), into: &png)
        chunk("IEND", Data(), into: &png)
        return png
    }

    private static func chunk(_ type: String, _ data: Data, into png: inout Data) {
        png.appendBigEndian(UInt32(data.count))
        var body = Data(type.utf8)
        body.append(data)
        png.append(body)
        let crc = body.withUnsafeBytes { crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, uInt($0.count)) }
        png.appendBigEndian(UInt32(crc))
    }
}

private extension Data {
    mutating func appendBigEndian(_ v: UInt32) { append(contentsOf: [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
}
