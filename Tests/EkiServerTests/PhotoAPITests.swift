import EkiKit
import EkiPhotos
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// The photos of visits over HTTP: add (image/*, its own body limit), get, thumbnail, remove;
/// the CSRF token; bad images; another person's photos.
@Suite struct PhotoAPITests {
    /// A PNG whose header says 100,000 × 100,000.
    static let bomb: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 0x08, 0x02, 0x00, 0x00, 0x00, 0x27, 0x30, 0x9C, 0x9F, 0x00, 0x00, 0x00, 0x09, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x5E, 0xFF, 0x7D, 0xF9, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    func upload(_ s: TestServer, visit: Int, _ body: [UInt8], type: String = "image/jpeg", token: String? = nil,
                headers: [String: String] = [:]) throws -> RawResponse {
        var h = headers
        h["Content-Type"] = type
        h["X-CSRF-Token"] = token ?? s.token
        return try s.send("POST", "/api/visits/\(visit)/photos", headers: h, body: body)
    }

    @Test func aPhotoIsAddedShownAndRemoved() throws {
        let s = try TestServer()
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","date":"2019-08-13","note":"踊り子"}"#).status == 201)
        let r = try upload(s, visit: 1, try PhotoProcessor.sample(width: 2400, height: 1600))
        #expect(r.status == 201, "\(r.text)")
        let log = try VisitLog(path: s.visits, create: false)
        let stored = try #require(try log.photo(id: 1))
        #expect(r.text == "{\"photo\":{\"id\":1,\"visit_id\":1,\"width\":1600,\"height\":1067,\"bytes\":\(stored.bytes)}}")

        let get = try s.get("/api/photos/1")
        #expect(get.status == 200 && get.headers["content-type"] == "image/jpeg")
        #expect(get.body == (try log.photoBytes(id: 1)))
        let thumb = try s.get("/api/photos/1/thumb")
        let thumbBytes = try log.photoBytes(id: 1, thumbnail: true)
        #expect(thumb.status == 200 && thumb.body == thumbBytes)
        let station = try s.get("/api/station?key=\(percent("jr-east/c/小田原"))").object["properties"] as? [String: Any] ?? [:]
        let photos = (station["visits"] as? [[String: Any]])?.first?["photos"] as? [[String: Any]]
        #expect(photos?.map { [$0["id"] as? Int, $0["width"] as? Int, $0["height"] as? Int] } == [[1, 1600, 1067]])

        #expect(try s.send("DELETE", "/api/photos/1").status == 403)          // no CSRF token
        let del = try s.write("DELETE", "/api/photos/1")
        #expect(del.status == 200 && (del.object["photo"] as? [String: Any])?["id"] as? Int == 1)
        #expect(try s.get("/api/photos/1").status == 404)
        #expect(try s.write("DELETE", "/api/photos/1").error == "unknown_photo")
        #expect(try s.get("/api/photos/x").status == 400)
        // Removing the visit removes its photos.
        #expect(try upload(s, visit: 1, try PhotoProcessor.sample(width: 800, height: 600)).status == 201)
        #expect(try s.write("DELETE", "/api/visits/1").status == 200)
        #expect(try s.get("/api/photos/2").status == 404)
    }

    @Test func badUploadsAreRefusedAndNothingIsStored() throws {
        let s = try TestServer(limits: HTTPLimits(maxPhotoBody: 200_000))
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原"}"#).status == 201)
        let jpeg = try PhotoProcessor.sample(width: 1200, height: 900)
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00,
                                                   0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        let cases: [(String, RawResponse, Int, String)] = [
            ("no token", try upload(s, visit: 1, jpeg, token: "nope"), 403, "bad_csrf"),
            ("not image/*", try upload(s, visit: 1, jpeg, type: "application/octet-stream"), 415, "unsupported_media_type"),
            ("text", try upload(s, visit: 1, Array("小田原\n".utf8)), 415, "unsupported_image"),
            ("gif", try upload(s, visit: 1, gif, type: "image/gif"), 415, "unsupported_image"),
            ("empty", try upload(s, visit: 1, []), 400, "bad_photo"),
            ("truncated", try upload(s, visit: 1, Array(jpeg.prefix(jpeg.count / 2))), 400, "bad_photo"),
            ("bomb", try upload(s, visit: 1, Self.bomb, type: "image/png"), 413, "photo_too_large"),
            ("no visit", try upload(s, visit: 99, jpeg), 404, "unknown_visit"),
            ("over the route's limit", try upload(s, visit: 1, [0xFF, 0xD8] + [UInt8](repeating: 0, count: 200_001)), 413, "too_large"),
        ]
        for (name, r, status, code) in cases {
            #expect(r.status == status, "\(name): \(r.text)")
            #expect(r.error == code, "\(name): \(r.text)")
        }
        #expect((cases[5].1.object["message"] as? String ?? "").hasPrefix("upload: 画像を読めません（"))
        let english = try upload(s, visit: 1, Self.bomb, type: "image/png", headers: ["Accept-Language": "en"])
        #expect(english.object["message"] as? String == "upload: the image says it is 100000 × 100000 pixels, more than the 120-megapixel limit")
        #expect(try VisitLog(path: s.visits, create: false).allPhotos().isEmpty)
        // The raised limit is this route's only: another write of the same size is refused.
        let big = try s.write("POST", "/api/visits", json: "{\"key\":\"jr-east/c/小田原\",\"note\":\"" + String(repeating: "a", count: 20_000) + "\"}")
        #expect(big.status == 413)
        #expect(try upload(s, visit: 1, jpeg).status == 201)
    }

    @Test func anotherPersonsPhotosAreNoneOfTheirs() throws {
        let s = try TestServer.withAccounts()
        let alice = try #require(try s.login("alice", "alice-password"))
        let bob = try #require(try s.login("bob", "bob-password"))
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原"}"#, as: alice).status == 201)
        let jpeg = try PhotoProcessor.sample(width: 800, height: 600)
        let mine = try upload(s, visit: 1, jpeg, token: alice.csrf, headers: ["Cookie": "eki_session=\(alice.cookie)"])
        #expect(mine.status == 201)
        #expect(try s.get("/api/photos/1", as: alice).status == 200)
        #expect(try s.get("/api/photos/1", as: bob).status == 404)
        #expect(try s.get("/api/photos/1/thumb", as: bob).status == 404)
        #expect(try s.write("DELETE", "/api/photos/1", as: bob).status == 404)
        let theirs = try upload(s, visit: 1, jpeg, token: bob.csrf, headers: ["Cookie": "eki_session=\(bob.cookie)"])
        #expect(theirs.status == 404 && theirs.error == "unknown_visit")
        #expect(try s.get("/api/photos/1").status == 401)
        #expect(try s.get("/api/photos/1", as: alice).status == 200)
    }
}
