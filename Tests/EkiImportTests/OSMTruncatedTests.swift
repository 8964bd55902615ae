import Foundation
import Testing
import EkiImport
import EkiTestSupport

/// A truncated compressed OSM file says how far it got: compressed bytes read and text decoded.
/// The fixtures are the first 600 bytes of odawara-n14w1r6.osm compressed (`gzip -n`, `bzip2`).
@Suite struct OSMTruncatedTests {
    static func fixture(_ name: String) -> String {
        TestPaths.package("Tests/EkiImportTests/Fixtures/osm/" + name)
    }

    @Test func truncatedGzipSaysHowFarItGot() throws {
        let gz = Self.fixture("truncated-odawara-600bytes.osm.gz")
        let cut = try #require(throws: ImportError.self) { try OSMImporter(path: gz).read() }
        #expect(cut.description == gz + ": truncated gzip data: the stream ends after 600 compressed bytes, 1087 bytes of text read")
    }

    /// bzip2 gives text a whole block (up to 900 kB) at a time: none of a cut small file.
    @Test func truncatedBzip2SaysHowFarItGot() throws {
        let bz = Self.fixture("truncated-odawara-600bytes.osm.bz2")
        let cut = try #require(throws: ImportError.self) { try OSMImporter(path: bz).read() }
        #expect(cut.description == bz + ": truncated bzip2 data: the stream ends after 600 compressed bytes, 0 bytes of text read")
    }
}
