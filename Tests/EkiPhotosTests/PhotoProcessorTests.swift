import EkiPhotos
import Testing

@Suite struct PhotoProcessorTests {
    let processor = PhotoProcessor()

    @Test func phonePhotoComesBackUprightSmallAndWithoutMetadata() throws {
        // 2400 × 1600 as stored; Orientation 6 (turn 90° clockwise) makes it 1600 wide × 2400 high upright.
        let phone = JPEGSamples.withMetadata(try PhotoProcessor.sample(width: 2400, height: 1600), orientation: 6)
        #expect(JPEGSamples.markers(phone).contains(0xE1))
        #expect(JPEGSamples.contains(phone, JPEGSamples.latitudeRationals))

        let p = try processor.process(phone, source: "IMG_0001.jpg")
        #expect(p.width == 1067)
        #expect(p.height == 1600)
        #expect(p.sourceFormat == "jpeg")
        #expect(p.jpeg.count <= 1 << 20)
        #expect(p.quality == 85)
        let size = try #require(JPEGSamples.baselineSize(p.jpeg))   // SOF0: baseline, not progressive
        #expect(size == (1067, 1600))
        let markers = JPEGSamples.markers(p.jpeg)
        #expect(!markers.contains(0xE1))   // EXIF, XMP
        #expect(!markers.contains(0xED))   // IPTC
        #expect(!markers.contains(0xFE))   // comment
        #expect(!markers.contains(0xE2))   // ICC
        #expect(!markers.contains(0xC2))   // progressive
        #expect(!JPEGSamples.contains(p.jpeg, JPEGSamples.latitudeRationals))
        #expect(!JPEGSamples.contains(p.jpeg, Array("GPS".utf8)))
        #expect(!JPEGSamples.contains(p.jpeg, Array("Exif".utf8)))
        #expect(!JPEGSamples.contains(p.jpeg, Array("139.1368E".utf8)))

        #expect((p.thumbnailWidth, p.thumbnailHeight) == (320, 480))
        #expect(JPEGSamples.baselineSize(p.thumbnail).map { [$0.width, $0.height] } == [320, 480])
        #expect(!JPEGSamples.markers(p.thumbnail).contains(0xE1))
    }

    @Test func noiseIsShrunkUntilItFitsOrRefusedAtTheFloor() throws {
        // Noise at the stored size (shrinking would smooth it): 1.3 MB at quality 85.
        let noise = try PhotoProcessor.sample(width: 1600, height: 1200, noise: true, quality: 100)
        #expect(noise.count > 2 << 20)
        let p = try processor.process(noise, source: "noise.jpg")
        #expect(p.jpeg.count <= 1 << 20)
        #expect(max(p.width, p.height) <= 1600)
        // Noise does not fit at 1,600 px and quality 85: something was given up.
        #expect(p.quality < 85 || max(p.width, p.height) < 1600)
        #expect((p.thumbnailWidth, p.thumbnailHeight) == (480, 360))

        var tight = PhotoLimits()
        tight.maxOutputBytes = 20_000
        #expect(throws: PhotoError.self) { try PhotoProcessor(limits: tight).process(noise, source: "noise.jpg") }
        do {
            _ = try PhotoProcessor(limits: tight).process(noise, source: "noise.jpg")
        } catch {
            guard case .tooLargeAtFloor(let bytes, 20_000, 640) = error.reason else { Issue.record("\(error)"); return }
            #expect(bytes > 20_000)
            #expect(error.description.hasPrefix("noise.jpg: still "))
        }
    }

    @Test func otherFormatsAreRead() throws {
        let png = try processor.process(try PhotoProcessor.sample(width: 800, height: 600, format: "png"), source: "a.png")
        #expect((png.width, png.height, png.sourceFormat) == (800, 600, "png"))
        let webp = try processor.process(try PhotoProcessor.sample(width: 2000, height: 1000, format: "webp"), source: "a.webp")
        #expect((webp.width, webp.height, webp.sourceFormat) == (1600, 800, "webp"))
        #expect(PhotoProcessor.formats.starts(with: ["jpeg", "png", "webp"]))
    }

    @Test(.enabled(if: (try? PhotoProcessor.sample(width: 64, height: 48, format: "heif")) != nil,
                   "this libvips build cannot write HEIC to make a sample"))
    func heicIsRead() throws {
        let heic = try PhotoProcessor.sample(width: 2000, height: 1500, format: "heif")
        let p = try processor.process(heic, source: "IMG_0002.HEIC")
        #expect((p.width, p.height, p.sourceFormat) == (1600, 1200, "heif"))
    }

    @Test func badInputIsRefusedWithTheFileNamed() throws {
        let jpeg = try PhotoProcessor.sample(width: 1200, height: 900)
        func reason(_ bytes: [UInt8], _ name: String) -> PhotoError? {
            do { _ = try processor.process(bytes, source: name); return nil } catch { return error }
        }
        let truncated = reason(Array(jpeg.prefix(jpeg.count / 2)), "cut.jpg")
        guard case .broken? = truncated?.reason else { Issue.record("truncated: \(String(describing: truncated))"); return }
        #expect(truncated?.description.hasPrefix("cut.jpg: the image cannot be read") == true)

        let bomb = reason(JPEGSamples.pngClaiming(width: 100_000, height: 100_000), "bomb.png")
        #expect(bomb?.reason == .tooManyPixels(width: 100_000, height: 100_000, limit: 120_000_000))
        #expect(bomb?.description == "bomb.png: the image says it is 100000 × 100000 pixels, more than the 120-megapixel limit")

        let text = reason(Array("station,date\n小田原,2019-08-13\n".utf8), "visits.csv")
        #expect(text?.reason == .notAnImage)
        #expect(text?.description == "visits.csv: not an image (JPEG, PNG, WebP or HEIC expected)")

        #expect(reason([], "empty.jpg")?.description == "empty.jpg: the file is empty (0 bytes)")
        let gif = reason(JPEGSamples.gif, "anim.gif")
        #expect(gif?.reason == .unsupported("gif"))
        #expect(gif?.isUnsupportedFormat == true)
        #expect(gif?.description == "anim.gif: gif images are not accepted (JPEG, PNG, WebP or HEIC expected)")

        var small = PhotoLimits()
        small.maxInputBytes = 1000
        #expect(throws: PhotoError(source: "big.jpg", reason: .inputTooLarge(bytes: jpeg.count, limit: 1000))) {
            try PhotoProcessor(limits: small).process(jpeg, source: "big.jpg")
        }
    }

    /// 2,000 bytes inverted in the middle of the scan: libjpeg only warns ("Corrupt JPEG data",
    /// a few times; libvips gives up by itself only at 100) and would fill the rest grey; the
    /// warning refuses the file.
    @Test func corruptScanIsRefused() throws {
        var jpeg = try PhotoProcessor.sample(width: 800, height: 600)
        let middle = jpeg.count / 2
        for i in middle - 1000..<middle + 1000 { jpeg[i] ^= 0xFF }
        var refused: PhotoError?
        do { _ = try processor.process(jpeg, source: "grey.jpg") } catch { refused = error }
        #expect(refused == PhotoError(source: "grey.jpg", reason: .broken("VipsJpeg: Corrupt JPEG data: bad Huffman code")))
        #expect(refused?.description == "grey.jpg: the image cannot be read (VipsJpeg: Corrupt JPEG data: bad Huffman code)")
        // The same bytes uncorrupted are a photo.
        for i in middle - 1000..<middle + 1000 { jpeg[i] ^= 0xFF }
        #expect(try processor.process(jpeg, source: "fine.jpg").width == 800)
    }

    @Test func decodingPastTheTimeLimitIsStopped() throws {
        let big = try PhotoProcessor.sample(width: 4000, height: 3000)
        var now = PhotoLimits()
        now.timeLimit = 0
        #expect(throws: PhotoError(source: "slow.jpg", reason: .timedOut(seconds: 0))) {
            try PhotoProcessor(limits: now).process(big, source: "slow.jpg")
        }
    }
}
