import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// Recording and removing visits: the CSRF token, the Origin check, --read-only, bad bodies.
@Suite struct VisitAPITests {
    @Test func aRecordedVisitTurnsTheEntryVisited() throws {
        let s = try TestServer()
        let r = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","date":"2019-08-13","kind":"alight","note":"踊り子"}"#)
        #expect(r.status == 201)
        let visit = r.object["visit"] as? [String: Any] ?? [:]
        #expect(visit["id"] as? Int == 1 && visit["key"] as? String == "jr-east/c/小田原" && visit["date"] as? String == "2019-08-13")
        #expect(visit["kind"] as? String == "alight" && visit["note"] as? String == "踊り子")
        #expect(r.object["visited"] as? Bool == true && r.object["completed"] as? String == "2019-08-13")
        // Every read sees it at once.
        let bbox = try s.get("/api/bbox?bbox=139.10,35.22,139.20,35.30&filter=visited")
        #expect(bbox.keys == ["jr-east/c/小田原"] && bbox.object["total"] as? Int == 1)
        let unvisited = try s.get("/api/bbox?bbox=139.10,35.22,139.20,35.30&filter=unvisited&limit=4")
        #expect(unvisited.object["total"] as? Int == 20)
        #expect(unvisited.keys == ["jr-central/s/小田原", "hakone-tozan/c/小田原", "odakyu/c/小田原", "izuhakone/c/小田原"])
        #expect(try s.get("/api/nearest?lat=35.2564&lon=139.1553&k=1&filter=visited").keys == ["jr-east/c/小田原"])
        let station = try s.get("/api/station?key=\(percent("jr-east/c/小田原"))").object["properties"] as? [String: Any] ?? [:]
        #expect((station["visits"] as? [[String: Any]])?.map { $0["id"] as? Int } == [1])
        #expect(station["completed"] as? String == "2019-08-13")
        let stats = try s.get("/api/stats").object["total"] as? [String: Any] ?? [:]
        #expect(stats["visited"] as? Int == 1 && stats["total"] as? Int == 39)
        // Same visit again: 409. Partial and unknown dates are fine.
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","date":"2019-08-13","kind":"alight"}"#).status == 409)
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"odakyu/c/小田原","date":"2019-08"}"#).status == 201)
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"odakyu/c/小田原","date":null,"kind":null,"note":null}"#).status == 201)
        // The command line reads the same log.
        let cli = runEki(["visit", "list", "--visits", s.visits, "--db", s.db])
        #expect(cli.status == 0 && cli.out.contains("踊り子"))
        // Remove one: 200, then 404.
        let del = try s.write("DELETE", "/api/visits/1")
        #expect(del.status == 200 && (del.object["visit"] as? [String: Any])?["id"] as? Int == 1)
        #expect(del.object["visited"] as? Bool == false)
        #expect(try s.write("DELETE", "/api/visits/1").status == 404)
        #expect(try s.write("DELETE", "/api/visits/abc").status == 400)
    }

    @Test(arguments: [
        (#"{"key":"jr-east/c/どこにもない"}"#, 404),
        (#"{"date":"2019"}"#, 400),                              // no key
        (#"{"key":"jr-east/c/小田原","date":"2019-13-01"}"#, 400),
        (#"{"key":"jr-east/c/小田原","date":"yesterday"}"#, 400),
        (#"{"key":"jr-east/c/小田原","kind":"fly"}"#, 400),
        (#"{"key":"jr-east/c/小田原","when":"2019"}"#, 400),     // unknown field
        (#"{"key":1}"#, 400),
        (#"["jr-east/c/小田原"]"#, 400),
        ("not json", 400),
    ])
    func badVisitsAreRefused(body: String, status: Int) throws {
        let s = try TestServer()
        let r = try s.write("POST", "/api/visits", json: body)
        #expect(r.status == status)
        #expect(try s.get("/api/stats").object["total"].flatMap { ($0 as? [String: Any])?["visited"] as? Int } == 0)
    }

    @Test func writesNeedTheTokenAndTheServersOwnOrigin() throws {
        let s = try TestServer()
        let body = #"{"key":"jr-east/c/小田原"}"#
        #expect(try s.send("POST", "/api/visits", headers: ["Content-Type": "application/json"], body: Array(body.utf8)).error == "bad_csrf")
        let wrong = try s.write("POST", "/api/visits", json: body, token: String(repeating: "0", count: 64))
        #expect(wrong.status == 403 && wrong.error == "bad_csrf")
        // The old header name is not read any more.
        let old = try s.send("POST", "/api/visits", headers: ["Content-Type": "application/json", "X-Eki-Token": s.token],
                             body: Array(body.utf8))
        #expect(old.status == 403 && old.error == "bad_csrf")
        let foreign = try s.write("POST", "/api/visits", json: body, headers: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403 && foreign.error == "foreign_origin")
        let form = try s.write("POST", "/api/visits", json: body, headers: ["Content-Type": "text/plain"])
        #expect(form.status == 415)
        #expect(try s.write("DELETE", "/api/visits/1", token: "nope").status == 403)
        // The page's own origin and token: accepted.
        let own = try s.write("POST", "/api/visits", json: body, headers: ["Origin": "http://127.0.0.1:\(s.port)"])
        #expect(own.status == 201)
        // The page carries the token (`{{CSRF}}`), and /api/session says it.
        let page = try s.get("/").text
        #expect(page.contains(#"name="eki-csrf" content="\#(s.token)">"#))
        #expect(s.token.count == 64)
        let session = try s.get("/api/session").object
        #expect(session["csrf"] as? String == s.token && session["user"] is NSNull && session["accounts"] as? Bool == false)
    }

    @Test func readOnlyRefusesEveryWrite() throws {
        let s = try TestServer(readOnly: true)
        let r = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原"}"#)
        #expect(r.status == 403 && r.error == "read_only")
        #expect(try s.write("DELETE", "/api/visits/1").error == "read_only")
        #expect(!FileManager.default.fileExists(atPath: s.visits))
        #expect(try s.get("/api/bbox?bbox=139.10,35.22,139.20,35.30").object["total"] as? Int == 21)
        #expect(try s.get("/").text.contains("&quot;readOnly&quot;:true"))
    }
}
