import Foundation
import Testing
import EkiKit

/// A visit file's fields are at most `VisitExchange.maxFieldBytes` (64 KiB), refused naming
/// where; JSON that does not parse names the line and column.
@Suite struct VisitExchangeBoundsTests {
    func message(_ text: String, _ format: VisitExchangeFormat) -> String? {
        do { _ = try VisitExchange.decode(text, format: format, file: "f") } catch { return error.description }
        return nil
    }

    @Test func aNoteOverTheLimitIsRefusedNamingWhere() {
        #expect(VisitExchange.maxFieldBytes == 65_536)
        let long = String(repeating: "あ", count: 30_000)   // 90,000 bytes
        #expect(message("id,station,date,kind,note\n1,a/c/x,,,short\n2,a/c/y,,,\(long)\n", .csv)
                == "f: line 3: note (field 5) is longer than the limit of 65536 bytes of a visit file's field")
        #expect(message("[{\"station\": \"a/c/x\"},\n {\"station\": \"a/c/y\", \"note\": \"\(long)\"}]", .json)
                == "f: visit 2, line 2: note is longer than the limit of 65536 bytes of a visit file's field")
        // At the limit it is read.
        let fits = String(repeating: "a", count: 65_536)
        #expect(message("station,note\na/c/x,\(fits)\n", .csv) == nil)
        #expect(message("[{\"station\": \"a/c/x\", \"note\": \"\(fits)\"}]", .json) == nil)
    }

    @Test func jsonThatDoesNotParseNamesLineAndColumn() {
        #expect(message("[{\"station\": \"a/c/x\"},\n {\"station\": x}]", .json) == "f: line 2, column 14: not JSON: Invalid value")
        #expect(message("[{\"station\": \"a/c/x\"}", .json) == "f: line 1, column 22: not JSON: Unexpected end of file during JSON parse")
    }
}

extension VisitExchangeBoundsTests {
    /// The check on the bytes as read (before decoding) says the same, in UTF-8 and CP932.
    @Test func theRawCheckNamesTheSamePlace() throws {
        let long = String(repeating: "駅", count: 30_000)
        func raw(_ text: String) -> String? {
            do { try VisitExchange.checkFieldBytes(Array(text.utf8), file: "f") } catch { return error.description }
            return nil
        }
        #expect(raw("id,station,date,kind,note\r\n1,a/c/x,,,\"short, \"\"quoted\"\"\"\r\n2,a/c/y,,,\(long)\r\n")
                == "f: line 3: note (field 5) is longer than the limit of 65536 bytes of a visit file's field")
        #expect(raw("[{\"station\": \"a/c/x\"},\n {\"station\": \"a/c/y\", \"note\": \"\(long)\"}]")
                == "f: visit 2, line 2: note is longer than the limit of 65536 bytes of a visit file's field")
        let sjis = try #require("station,note\r\njr-east/c/東京,\(long + long)\r\n".data(using: .shiftJIS))   // 120,000 bytes
        do { try VisitExchange.checkFieldBytes([UInt8](sjis), file: "f"); Issue.record("accepted") } catch {
            #expect(error.description == "f: line 2: note (field 2) is longer than the limit of 65536 bytes of a visit file's field")
        }
        #expect(raw("station,note\r\na/c/x,\"multi\nline\"\r\n") == nil)
    }
}
