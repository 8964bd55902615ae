import EkiPhotos
import Foundation

/// `eki-bench photo --out DIR [--runs 5]`: 12-megapixel phone photos (4000 × 3000 JPEG,
/// quality 92, EXIF Orientation 6 and GPS tags laid in) made with libvips — a smooth one and
/// one of noise (the worst case for decoding and for the 1 MiB target) — written to DIR as
/// `phone-smooth.jpg` and `phone-noise.jpg`, then each processed `runs` times as
/// `eki visit photo add` processes it. Prints per image: input bytes, the stored size, quality
/// and bytes, process time (p50 / max, ms), thumbnail time (p50 / max, ms) and this process's
/// peak resident set (VmHWM, MB).
func runPhoto(_ args: [String]) throws {
    guard let out = option("out", args) else { throw BenchUsageError("photo: give --out DIR") }
    let runs = Int(option("runs", args) ?? "5") ?? 5
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    var results: [String: Any] = [:]
    for (name, noise) in [("smooth", false), ("noise", true)] {
        let jpeg = phoneMetadata(try PhotoProcessor.sample(width: 4000, height: 3000, noise: noise, quality: 92))
        let file = (out as NSString).appendingPathComponent("phone-\(name).jpg")
        try Data(jpeg).write(to: URL(fileURLWithPath: file))
        var total: [Double] = [], thumb: [Double] = []
        var last: ProcessedPhoto?
        for _ in 0..<runs {
            let t0 = now()
            let p = try PhotoProcessor().process(jpeg, source: file)
            total.append(Double(now() - t0) / 1e6)
            thumb.append(p.thumbnailSeconds * 1000)
            last = p
        }
        total.sort(); thumb.sort()
        results[name] = [
            "file": file, "input_bytes": jpeg.count, "runs": runs,
            "stored": "\(last!.width)x\(last!.height)", "quality": last!.quality, "stored_bytes": last!.jpeg.count,
            "thumbnail": "\(last!.thumbnailWidth)x\(last!.thumbnailHeight)", "thumbnail_bytes": last!.thumbnail.count,
            "process_ms_p50": round2(percentile(total, 50)), "process_ms_max": round2(total.last!),
            "thumbnail_ms_p50": round2(percentile(thumb, 50)), "thumbnail_ms_max": round2(thumb.last!),
        ]
    }
    results["peak_rss_mb"] = round2(statusMB("VmHWM"))
    emit(results)
}

/// `jpeg` with an EXIF APP1 after its SOI: Orientation 6 and a GPS IFD (35° 15' 23.5" N,
/// 139° 8' 12.5" E), big-endian TIFF, as a phone writes one.
func phoneMetadata(_ jpeg: [UInt8]) -> [UInt8] {
    func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    var tiff: [UInt8] = Array("MM".utf8) + be16(42) + be32(8) + be16(2)
    tiff += be16(0x0112) + be16(3) + be32(1) + be16(6) + be16(0)
    tiff += be16(0x8825) + be16(4) + be32(1) + be32(38) + be32(0)
    tiff += be16(4)
    tiff += be16(1) + be16(2) + be32(2) + Array("N".utf8) + [0, 0, 0]
    tiff += be16(2) + be16(5) + be32(3) + be32(92)
    tiff += be16(3) + be16(2) + be32(2) + Array("E".utf8) + [0, 0, 0]
    tiff += be16(4) + be16(5) + be32(3) + be32(116) + be32(0)
    for (n, d) in [(35, 1), (15, 1), (235, 10), (139, 1), (8, 1), (125, 10)] { tiff += be32(n) + be32(d) }
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    return [0xFF, 0xD8, 0xFF, 0xE1] + be16(payload.count + 2) + payload + jpeg.dropFirst(2)
}
