import EkiPhotos
import Foundation

/// Bytes the photo tests build: an EXIF block with Orientation and GPS tags, XMP, IPTC and a
/// comment laid into a JPEG; a PNG whose header claims a size; a JPEG's markers read back.
enum JPEGSamples {
    /// The GPS latitude written (35° 15' 23.5" N): its rational bytes must not survive.
    static let latitudeRationals: [UInt8] = rationals([(35, 1), (15, 1), (235, 10)])

    /// `jpeg` with, after its SOI: an EXIF APP1 (Orientation = `orientation`, a GPS IFD with
    /// latitude and longitude), an XMP APP1 naming GPS, an APP13 (Photoshop IPTC) and a comment.
    static func withMetadata(_ jpeg: [UInt8], orientation: UInt16) -> [UInt8] {
        precondition(jpeg.starts(with: [0xFF, 0xD8]))
        // TIFF, big-endian. IFD0 at 8: 2 entries (12 bytes each) + next-IFD (4) = 2 + 24 + 4 = 30 → GPS IFD at 38.
        var tiff: [UInt8] = Array("MM".utf8) + be16(42) + be32(8)
        tiff += be16(2)
        tiff += be16(0x0112) + be16(3) + be32(1) + be16(orientation) + be16(0)
        let gpsIFD = 38
        tiff += be16(0x8825) + be16(4) + be32(1) + be32(UInt32(gpsIFD))
        tiff += be32(0)
        // GPS IFD: 4 entries + next = 2 + 48 + 4 = 54 → data at 92.
        let dataAt = gpsIFD + 54
        tiff += be16(4)
        tiff += be16(1) + be16(2) + be32(2) + Array("N".utf8) + [0, 0, 0]
        tiff += be16(2) + be16(5) + be32(3) + be32(UInt32(dataAt))
        tiff += be16(3) + be16(2) + be32(2) + Array("E".utf8) + [0, 0, 0]
        tiff += be16(4) + be16(5) + be32(3) + be32(UInt32(dataAt + 24))
        tiff += be32(0)
        tiff += latitudeRationals + rationals([(139, 1), (8, 1), (125, 10)])
        let exif = Array("Exif".utf8) + [0, 0] + tiff
        let xmp = Array("http://ns.adobe.com/xap/1.0/\u{0}<x:xmpmeta><exif:GPSLatitude>35,15.39N</exif:GPSLatitude></x:xmpmeta>".utf8)
        let iptc = Array("Photoshop 3.0\u{0}8BIM".utf8) + [0x04, 0x04, 0, 0] + be32(12) + [0x1C, 0x02, 0x5A, 0, 5] + Array("Tokyo".utf8) + [0, 0]
        let comment = Array("taken at 35.2565N 139.1368E".utf8)
        return [0xFF, 0xD8] + segment(0xE1, exif) + segment(0xE1, xmp) + segment(0xED, iptc) + segment(0xFE, comment)
            + jpeg.dropFirst(2)
    }

    /// A PNG whose IHDR says `width` × `height` (8-bit RGB), with one small IDAT and IEND.
    static func pngClaiming(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
            + chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]) + chunk("IEND", [])
    }

    /// A 1 × 1 GIF (a format libvips reads and photos do not accept).
    static let gif: [UInt8] = Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00,
                                                     0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]

    /// The markers of `jpeg` up to its first scan (SOS), in order (the byte after 0xFF).
    static func markers(_ jpeg: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            let m = jpeg[i + 1]
            out.append(m)
            if m == 0xDA { break }
            i += 2 + Int(jpeg[i + 2]) << 8 + Int(jpeg[i + 3])
        }
        return out
    }

    /// Width and height from the JPEG's SOF0 (baseline) frame header, or nil when it has none.
    static func baselineSize(_ jpeg: [UInt8]) -> (width: Int, height: Int)? {
        var i = 2
        while i + 9 <= jpeg.count, jpeg[i] == 0xFF {
            let m = jpeg[i + 1]
            if m == 0xC0 { return (Int(jpeg[i + 7]) << 8 + Int(jpeg[i + 8]), Int(jpeg[i + 5]) << 8 + Int(jpeg[i + 6])) }
            if m == 0xDA { return nil }
            i += 2 + Int(jpeg[i + 2]) << 8 + Int(jpeg[i + 3])
        }
        return nil
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if Array(haystack[i..<(i + needle.count)]) == needle { return true }
        }
        return false
    }

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(UInt16(payload.count + 2)) + payload
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    private static func rationals(_ r: [(UInt32, UInt32)]) -> [UInt8] { r.flatMap { be32($0.0) + be32($0.1) } }
    private static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
}
