import Foundation
import Testing
import EkiTestSupport

/// Coordinates given on the command line must be decimal numbers: hex, inf and nan are usage
/// errors (exit 64) naming the option.
@Suite struct NumberOptionTests {
    let dir = TestPaths.temporaryDirectory()

    @Test(arguments: [
        (["--lat", "0x23", "--lon", "139.7"], "--lat needs a number in -90.0...90.0, got '0x23'"),
        (["--lat", "35.7", "--lon", "inf"], "--lon needs a number in -180.0...180.0, got 'inf'"),
        (["--lat", "nan", "--lon", "139.7"], "--lat needs a number in -90.0...90.0, got 'nan'"),
    ])
    func nearestRefusesNonDecimalCoordinates(options: [String], expected: String) {
        let r = eki(["nearest", "--db", dir.appendingPathComponent("none.gpkg").path] + options)
        #expect(r.status == 64)
        #expect(r.err.trimmingCharacters(in: .newlines).hasSuffix(expected), "\(r.err)")
    }

    @Test func bboxRefusesHex() {
        let r = eki("bbox", "--db", dir.appendingPathComponent("none.gpkg").path, "139,0x23,140,36")
        #expect(r.status == 64)
        #expect(r.err.contains("'0x23' is not a number"), "\(r.err)")
    }
}
