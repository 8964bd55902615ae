import CCairo
import Foundation

/// Where raster tiles come from (`eki render --tiles URL`: the CLI's `TileFetcher`).
public protocol TileSource: AnyObject {
    /// The PNG bytes of tile (z, x, y) in the XYZ scheme (256 px, y counted from the north).
    func tile(z: Int, x: Int, y: Int) throws -> [UInt8]
}

/// Draws the tiles under the pins in place of the offline basemap: the zoom whose tiles are
/// nearest their natural 256 px at this scale (0…19), each tile scaled to fit.
enum Tiles {
    /// At most this many tiles per picture (a 2400×2400 picture needs about 100).
    static let maximum = 400

    /// The zoom and the tiles (x, y) covering the viewport.
    static func cover(_ v: MapViewport) -> (z: Int, tiles: [(x: Int, y: Int)]) {
        let z = min(19, max(0, Int(log2(v.worldSize / 256).rounded())))
        let n = 1 << z
        let size = v.worldSize / Double(n)
        func span(_ origin: Double, _ length: Int) -> ClosedRange<Int> {
            max(0, Int((origin / size).rounded(.down)))...min(n - 1, Int(((origin + Double(length)) / size).rounded(.down)))
        }
        let xs = span(v.originX, v.width), ys = span(v.originY, v.height)
        return (z, ys.flatMap { y in xs.map { (x: $0, y: y) } })
    }

    /// - Throws: what the source throws; `RenderError.invalidRequest` when a tile is not a PNG
    ///   or the view needs more than `maximum` tiles.
    static func draw(_ source: TileSource, on canvas: Canvas, viewport v: MapViewport) throws {
        let (z, tiles) = cover(v)
        guard tiles.count <= maximum else {
            throw RenderError.invalidRequest("the view needs \(tiles.count) tiles at zoom \(z) (at most \(maximum)): make the picture smaller")
        }
        let size = v.worldSize / Double(1 << z)
        for t in tiles {
            let bytes = try source.tile(z: z, x: t.x, y: t.y)
            guard let image = decode(bytes) else { throw RenderError.invalidRequest("tile \(z)/\(t.x)/\(t.y) is not a PNG") }
            defer { cairo_surface_destroy(image) }
            let w = Double(cairo_image_surface_get_width(image)), h = Double(cairo_image_surface_get_height(image))
            cairo_save(canvas.cr)
            cairo_translate(canvas.cr, Double(t.x) * size - v.originX, Double(t.y) * size - v.originY)
            cairo_scale(canvas.cr, size / w, size / h)
            cairo_set_source_surface(canvas.cr, image, 0, 0)
            cairo_paint(canvas.cr)
            cairo_restore(canvas.cr)
        }
    }

    private final class Reader { let bytes: [UInt8]; var offset = 0; init(_ b: [UInt8]) { bytes = b } }

    /// A cairo surface of PNG bytes (`cairo_image_surface_create_from_png_stream`), or nil.
    static func decode(_ bytes: [UInt8]) -> OpaquePointer? {
        let reader = Reader(bytes)
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream({ closure, data, length in
                let r = Unmanaged<Reader>.fromOpaque(closure!).takeUnretainedValue()
                let n = Int(length)
                guard r.offset + n <= r.bytes.count, let data else { return CAIRO_STATUS_READ_ERROR }
                r.bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress! + r.offset, count: n) }
                r.offset += n
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(reader).toOpaque())
        }
        guard let surface else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { cairo_surface_destroy(surface); return nil }
        return surface
    }
}
