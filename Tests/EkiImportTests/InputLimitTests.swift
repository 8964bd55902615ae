@testable import EkiImport
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// Issue #16 item 12: CSV and GTFS inputs are read within limits (field, line, unzipped size,
/// zip ratio, warnings kept), with errors naming file, line, field, the limit and its flag.
/// Inputs are generated here at small limits; Scripts/bench/bench-limits.sh runs the full-size
/// ones and measures memory.
@Suite struct InputLimitTests {
    let dir = TemporaryDirectory()

    /// The `ImportError` `body` throws, or nil.
    static func error(_ body: () throws -> Void) -> ImportError? {
        do { try body() } catch { return error as? ImportError }
        return nil
    }

    /// A line over `--max-line-bytes` stops the read at the field where the limit is passed;
    /// the error names it (line 3, field 2 `name`).
    @Test func csvLineOverTheLimit() throws {
        let path = dir.file("long-line.csv")
        try "id,name,lat,lon\n1,新宿,35.69,139.70\n2,\(String(repeating: "x", count: 40)),35.0,139.0\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        var importer = try GenericCSVImporter(path: path)
        importer.maxLineBytes = 32
        #expect(throws: ImportError(file: path, line: 3, column: 2, field: "name",
                                    message: "line is longer than the limit of 32 bytes (--max-line-bytes N raises it)")) {
            _ = try importer.read()
        }
        importer.maxLineBytes = 64
        #expect(try importer.read().records.map(\.name) == ["新宿", String(repeating: "x", count: 40)])
    }

    /// The same limits in CP932 (detected; the limits count the file's bytes, two per kanji)
    /// and in a CR-only file: the line numbers are right.
    @Test func csvLimitsInCP932AndCROnlyFiles() throws {
        let cp932 = dir.file("cp932.csv")
        let text = "id,name,lat,lon\r\n1,茗荷谷,35.71765,139.73725\r\n2,\(String(repeating: "駅", count: 30)),35.0,139.0\r\n"
        try text.data(using: .shiftJIS)!.write(to: URL(fileURLWithPath: cp932))
        var importer = try GenericCSVImporter(path: cp932, maxFieldBytes: 50)
        #expect(throws: ImportError(file: cp932, line: 3, column: 2, field: "name",
                                    message: "field is longer than the limit of 50 bytes (--max-field-bytes N raises it)")) {
            _ = try importer.read()
        }
        importer = try GenericCSVImporter(path: cp932, maxFieldBytes: 60)
        #expect(try importer.read().records.map(\.name) == ["茗荷谷", String(repeating: "駅", count: 30)])

        let cr = dir.file("cr-only.csv")
        try "id,name,lat,lon\r1,a,35.0,139.0\r2,b,35.1,139.1\r3,\(String(repeating: "c", count: 20)),35.2,139.2\r"
            .write(toFile: cr, atomically: true, encoding: .utf8)
        #expect(throws: ImportError(file: cr, line: 4, column: 2, field: "name",
                                    message: "field is longer than the limit of 10 bytes (--max-field-bytes N raises it)")) {
            _ = try GenericCSVImporter(path: cr, maxFieldBytes: 10).read()
        }
    }

    /// Reading a file in parts of a few bytes gives the same rows and line numbers as one
    /// part, with quoted line breaks, CRLF and lone CRs cut anywhere.
    @Test func partsMatchWhole() throws {
        let path = dir.file("parts.csv")
        try "id,name\r\n1,\"a\r\nb\"\r2,\"c\"\"d\"\n\n3,  \"e,f\" \r\n4,g"
            .write(toFile: path, atomically: true, encoding: .utf8)
        func rows(_ size: Int) throws -> [[String]] {
            let source = try CSVPartSource(path: path, encoding: nil, limits: CSVLimits(), partSize: size)
            var t = try CSVTable(source: source, maxFieldBytes: 100)
            var out: [[String]] = []
            while let r = try t.nextRow() { out.append(["\(r.line)"] + r.fields) }
            return out
        }
        let whole = try rows(1 << 20)
        #expect(whole == [["2", "1", "a\r\nb"], ["4", "2", "c\"d"], ["6", "3", "e,f"], ["7", "4", "g"]])
        for size in 1...12 { #expect(try rows(size) == whole, "parts of \(size)") }
    }

    /// A zip member whose header states more than `--max-unzipped-bytes` is refused before it
    /// is read; one that unzips to more than `--max-zip-ratio` times its compressed size (a
    /// zip bomb: 4 MiB of one repeated row) is refused after a few megabytes.
    @Test(.needsTool("python3")) func zipLimits() throws {
        let rows = "stop_id,stop_name,stop_lat,stop_lon\n" + String(repeating: "S1,駅,35.0,139.0\n", count: (4 << 20) / 19)
        try writeFeed(dir.file("bomb"), stops: rows)
        let zip = dir.file("bomb.zip")
        try zipFolder(dir.file("bomb"), into: zip)
        let stated = Int64(rows.utf8.count)
        var importer = GTFSImporter(path: zip)
        importer.limits.maxUnzippedBytes = 1 << 20
        #expect(throws: ImportError(file: zip + "/stops.txt",
                                    message: "unzips to \(stated) bytes, over the limit of 1048576 (--max-unzipped-bytes N raises it)")) {
            _ = try importer.read()
        }
        importer.limits = ImportLimits()
        let bomb = importer
        let e = Self.error { _ = try bomb.read() }
        #expect(e?.file == zip + "/stops.txt")
        #expect(e?.message.hasPrefix("unzips to more than 100 times its compressed size (") == true, "\(String(describing: e))")
        #expect(e?.message.hasSuffix("), the limit against zip bombs (--max-zip-ratio N raises it)") == true, "\(String(describing: e))")
        // Raised, the feed is read: one stop, repeated; one warning kept, the rest counted.
        let count = (4 << 20) / 19
        importer.limits.maxZipRatio = 100_000
        importer.limits.maxWarnings = 1
        let batch = try importer.read()
        #expect(batch.records.map(\.name) == ["駅"])
        #expect(batch.warnings.map(\.message) == ["stop_id 'S1' repeated; the first row is used"])
        #expect(batch.warnings.first?.line == 3)
        #expect(batch.warningsNotKept == count - 2)
    }

    /// A zip holding one long line in stops.txt: refused at `--max-line-bytes`, naming the
    /// member, line 2, field 2 (stop_name); nothing is read beyond the limit.
    @Test(.needsTool("python3")) func zipWithOneLongLine() throws {
        try writeFeed(dir.file("line"), stops: "stop_id,stop_name,stop_lat,stop_lon\nS1," + String(repeating: "x", count: 3 << 20))
        let zip = dir.file("line.zip")
        try zipFolder(dir.file("line"), into: zip)
        var importer = GTFSImporter(path: zip)
        importer.limits.csv.maxLineBytes = 1 << 16
        #expect(throws: ImportError(file: zip + "/stops.txt", line: 2, column: 2, field: "stop_name",
                                    message: "line is longer than the limit of 65536 bytes (--max-line-bytes N raises it)")) {
            _ = try importer.read()
        }
        // Its ratio (3 MiB of one letter) is a zip bomb's; with that limit raised, the field
        // limit stops it.
        importer.limits = ImportLimits(maxZipRatio: 1_000_000)
        #expect(throws: ImportError(file: zip + "/stops.txt", line: 2, column: 2, field: "stop_name",
                                    message: "field is longer than the limit of 1048576 bytes (--max-field-bytes N raises it)")) {
            _ = try importer.read()
        }
    }

    /// Warnings beyond `maxWarnings` are counted, not kept: 30 stops served by no trip.
    @Test func warningsBeyondTheLimitAreCounted() throws {
        let stops = (1...31).map { "S\($0),駅\($0),35.\($0),139.0\n" }.joined()
        try writeFeed(dir.file("unserved"), stops: "stop_id,stop_name,stop_lat,stop_lon\n" + stops)
        var importer = GTFSImporter(path: dir.file("unserved"))
        importer.limits.maxWarnings = 10
        let batch = try importer.read()
        #expect(batch.records.map(\.name) == ["駅1"])
        #expect(batch.warnings.count == 10)
        #expect(batch.warnings.first?.message == "stop 'S2' (駅2) is served by no trip")
        #expect(batch.warningsNotKept == 20)
    }
}
