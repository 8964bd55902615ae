import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// A visit body that is not JSON is answered with where the parser stopped — the line and
/// column `eki visit import` names for a JSON file, and the byte offset — and a wrong field
/// with its name.
@Suite struct VisitJSONErrorTests {
    @Test func aVisitThatIsNotJSONNamesThePosition() throws {
        let s = try TestServer()
        // 'x' is byte 29 and character 24 of the line: 小田原 is 3 characters in 9 bytes.
        let body = #"{"key": "小田原", "date": x}"#
        let en = try s.write("POST", "/api/visits", json: body, headers: ["Accept-Language": "en"])
        #expect(en.status == 400)
        #expect(en.text == #"{"error":"bad_json","message":"the body is not JSON: line 1, column 24: Invalid value","line":1,"column":24,"offset":29}"#)
        let ja = try s.write("POST", "/api/visits", json: body)
        #expect(ja.text == #"{"error":"bad_json","message":"本文が JSON ではありません（1 行 24 列目: Invalid value）","line":1,"column":24,"offset":29}"#)
        let empty = try s.write("POST", "/api/visits", json: "", headers: ["Accept-Language": "en"])
        #expect(empty.text == #"{"error":"bad_json","message":"the body is not JSON: line 1, column 1: Unexpected end of file during JSON parse","line":1,"column":1,"offset":0}"#)
        let cut = try s.write("POST", "/api/visits", json: "{\"key\": \"jr-east/c/小田原\",\n \"date\": \"2019", headers: ["Accept-Language": "en"])
        #expect(cut.object["line"] as? Int == 2 && cut.object["column"] as? Int == 15, "\(cut.text)")
        // JSON, but a field is wrong: the field is named.
        let unknown = try s.write("POST", "/api/visits", json: #"{"key": "jr-east/c/小田原", "colour": "red"}"#, headers: ["Accept-Language": "en"])
        #expect(unknown.text == #"{"error":"bad_request","message":"unknown field 'colour' (allowed: key, date, kind, note)","field":"colour"}"#)
        let date = try s.write("POST", "/api/visits", json: #"{"key": "jr-east/c/小田原", "date": "2019-02-30"}"#)
        #expect(date.status == 400 && date.object["field"] as? String == "date", "\(date.text)")
        let kind = try s.write("POST", "/api/visits", json: #"{"key": "jr-east/c/小田原", "kind": 3}"#)
        #expect(kind.status == 400 && kind.object["field"] as? String == "kind", "\(kind.text)")
        #expect(try s.write("POST", "/api/visits", json: "[1]").text.contains(#""error":"bad_request""#))
        #expect(try VisitLog(path: s.visits, create: false).count() == 0)
    }

    @Test func aSyncBatchThatIsNotJSONNamesThePosition() throws {
        let s = try TestServer()
        // No comma between the first change's two fields: the second starts at line 3, column
        // 14 (byte 43).
        let body = "{\"since\": null,\n \"changes\": [\n  {\"id\": \"a\" \"key\": \"b\"}\n]}"
        let r = try s.write("POST", "/api/sync", json: body, headers: ["Accept-Language": "en"])
        #expect(r.status == 400)
        #expect(r.text == #"{"error":"bad_json","message":"the body is not JSON: line 3, column 14: Invalid value","line":3,"column":14,"offset":43}"#)
        let ja = try s.write("POST", "/api/sync", json: body)
        #expect(ja.text == #"{"error":"bad_json","message":"本文が JSON ではありません（3 行 14 列目: Invalid value）","line":3,"column":14,"offset":43}"#)
        // JSON, but not a batch: as before, bad_change.
        #expect(try s.write("POST", "/api/sync", json: "[1,2]").error == "bad_change")
    }

    /// The CLI's visit import and the server read JSON with one parser and name one position.
    @Test func oneReadingForTheCommandLineAndTheServer() throws {
        let text = "[{\"station\": \"a/c/x\"},\n {\"station\": x}]"
        #expect(throws: JSONSyntaxError(line: 2, column: 14, offset: 36, reason: "Invalid value")) {
            try JSONParse.value(Array(text.utf8))
        }
        #expect(throws: VisitSyncError.notJSON(JSONSyntaxError(line: 2, column: 14, offset: 36, reason: "Invalid value"))) {
            try VisitSyncBatch(json: Array(text.utf8))
        }
        #expect {
            try VisitExchange.decode(text, format: .json, file: "f")
        } throws: { ($0 as? VisitExchangeError)?.description == "f: line 2, column 14: not JSON: Invalid value" }
    }
}
