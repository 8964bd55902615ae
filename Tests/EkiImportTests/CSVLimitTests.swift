import EkiImport
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// Issue #16 item 12, CSV part: a field longer than the limit (1 MiB unless
/// `--max-field-bytes` says otherwise) stops the read with file:line:column, the limit and the
/// flag that raises it, instead of being read into memory whole.
@Suite struct CSVLimitTests {
    @Test func readerRefusesAFieldOverTheLimit() throws {
        func read(_ text: String, limit: Int) throws(CSVError) -> [[String]] {
            var r = CSVReader(bytes: Array(text.utf8), file: "f.csv")
            r.maxFieldBytes = limit
            var out: [[String]] = []
            while let rec = try r.nextRecord() { out.append(rec) }
            return out
        }
        let sixteen = String(repeating: "x", count: 16)
        #expect(try read("id,name\n1,\(sixteen)\n", limit: 16) == [["id", "name"], ["1", sixteen]])
        #expect(try read("id,name\n1,\"\(sixteen)\"\n", limit: 16) == [["id", "name"], ["1", sixteen]])
        let message = "field is longer than the limit of 16 bytes (--max-field-bytes N raises it)"
        #expect(throws: CSVError(file: "f.csv", line: 2, column: 2, message: message)) {
            try read("id,name\n1,\(sixteen)y\n", limit: 16)
        }
        // Quoted, with line breaks inside: the line where the field starts.
        #expect(throws: CSVError(file: "f.csv", line: 2, column: 2, message: message)) {
            try read("id,name\n1,\"\(sixteen)\n\(sixteen)\"\n", limit: 16)
        }
        #expect(CSVReader.defaultMaxFieldBytes == 1_048_576)
    }

    /// A generic CSV whose name field is 2 MiB (generated here, not committed): refused at
    /// the default limit, read with a higher `maxFieldBytes`.
    @Test func genericCSVWithA2MiBField() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("long-field.csv").path
        let long = String(repeating: "駅", count: (2 << 20) / 3 + 1)         // 3 bytes each: just over 2 MiB
        try "id,name,lat,lon\n1,\(long),35.69,139.70\n2,新宿,35.690,139.700\n".write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try GenericCSVImporter(path: path).read()
            Issue.record("a 2 MiB field was read")
        } catch let e as ImportError {
            #expect("\(e)" == "\(path):2:2: name: field is longer than the limit of 1048576 bytes (--max-field-bytes N raises it)")
        }
        let batch = try GenericCSVImporter(path: path, maxFieldBytes: 4 << 20).read()
        #expect(batch.records.map(\.name.utf8.count) == [long.utf8.count, 6])
    }
}
