import EkiImport
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// gzip, bzip2, pipes and stdin. Compressed copies are made in a temporary directory with
/// gzip and bzip2 (tests skipped without them).
@Suite("OSM import: compressed input, pipes and stdin", .serialized)
struct OSMInputTests {
    let odawara = OSMTestSupport.fixture("odawara-n14w1r6.osm")
    var expected: [String] {
        get throws { OSMTestSupport.summary(try OSMImporter(path: odawara).read().records) }
    }

    /// This test's own temporary folder, removed after it.
    let temporary = TemporaryDirectory()
    var dir: URL { temporary.url }

    @Test("gzip and bzip2 are found by their magic bytes, whatever the file is called",
          .needsTool("gzip"), .needsTool("bzip2"))
    func compressedFiles() throws {
        let gz = dir.appendingPathComponent("odawara.osm.gz").path
        let bz = dir.appendingPathComponent("odawara.osm.bz2").path
        let disguised = dir.appendingPathComponent("odawara-really-gzip.osm").path
        try OSMTestSupport.shell("gzip -c \"$1\" > \"$2\" && bzip2 -c \"$1\" > \"$3\" && cp \"$2\" \"$4\"",
                                 odawara, gz, bz, disguised)
        for path in [gz, bz, disguised] {
            #expect(OSMTestSupport.summary(try OSMImporter(path: path).read().records) == (try expected), "\(path)")
            #expect(OSMImporter.looksLikeOSM(path: path))
        }
    }

    @Test("Concatenated gzip members and bzip2 streams are read through",
          .needsTool("gzip"), .needsTool("bzip2"))
    func concatenatedStreams() throws {
        let gz = dir.appendingPathComponent("two-members.osm.gz").path
        let bz = dir.appendingPathComponent("two-streams.osm.bz2").path
        // Split in the middle of the file (line 40), compress the halves apart, concatenate.
        try OSMTestSupport.shell("""
            head -n 40 "$1" > "$2/a"; tail -n +41 "$1" > "$2/b"
            gzip -c "$2/a" > "$3"; gzip -c "$2/b" >> "$3"
            bzip2 -c "$2/a" > "$4"; bzip2 -c "$2/b" >> "$4"
            """, odawara, dir.path, gz, bz)
        #expect(OSMTestSupport.summary(try OSMImporter(path: gz).read().records) == (try expected))
        #expect(OSMTestSupport.summary(try OSMImporter(path: bz).read().records) == (try expected))
    }

    @Test("Truncated gzip, corrupt bzip2 and trailing garbage are errors",
          .needsTool("gzip"), .needsTool("bzip2"))
    func brokenCompression() throws {
        let gz = dir.appendingPathComponent("cut.osm.gz").path
        let bz = dir.appendingPathComponent("corrupt.osm.bz2").path
        let tail = dir.appendingPathComponent("garbage.osm.gz").path
        try OSMTestSupport.shell("""
            gzip -c "$1" | head -c 600 > "$2"
            bzip2 -c "$1" > "$3.full"; head -c 4 "$3.full" > "$3"; printf 'xxxxxx' >> "$3"; tail -c +11 "$3.full" >> "$3"
            gzip -c "$1" > "$4"; printf 'garbage' >> "$4"
            """, odawara, gz, bz, tail)
        let cut = try #require(throws: ImportError.self) { try OSMImporter(path: gz).read() }
        #expect(cut.message.hasPrefix("truncated gzip data: the stream ends after 600 compressed bytes, "), "\(cut.message)")
        #expect(cut.file == gz)
        let corrupt = try #require(throws: ImportError.self) { try OSMImporter(path: bz).read() }
        #expect(corrupt.message.hasPrefix("corrupt bzip2 data"))
        let garbage = try #require(throws: ImportError.self) { try OSMImporter(path: tail).read() }
        #expect(garbage.message == "unexpected bytes after the end of the gzip data")
    }

    @Test("A pipe (gzip data through a FIFO) is copied aside for the second pass",
          .needsTool("gzip"))
    func fifo() throws {
        let fifo = dir.appendingPathComponent("pipe.osm").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "gzip -c \"$1\" > \"$2\"", "sh", odawara, fifo]
        try writer.run()
        let records = try OSMImporter(path: fifo).read().records
        writer.waitUntilExit()
        // 箱根板橋 is a way whose nodes come first: its centroid needs the second pass.
        #expect(OSMTestSupport.summary(records) == (try expected))
        #expect(records.contains { $0.source.id == "way/2001" })
    }
}
