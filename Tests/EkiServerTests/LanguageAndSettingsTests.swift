import EkiAccounts
import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// The API's messages in Japanese unless the browser prefers English, the page's settings and
/// language, and what the server says at start.
@Suite struct LanguageAndSettingsTests {
    @Test(arguments: [
        (nil, "日付「2019-02-30」は存在しません"),
        ("ja", "日付「2019-02-30」は存在しません"),
        ("fr-FR,fr;q=0.9", "日付「2019-02-30」は存在しません"),   // neither: Japanese
        ("en-US,en;q=0.9,ja;q=0.8", "invalid date '2019-02-30': no such date"),
        ("ja;q=0.5,en;q=0.6", "invalid date '2019-02-30': no such date"),
    ] as [(String?, String)])
    func anImpossibleDateIsSaidInTheBrowsersLanguage(acceptLanguage: String?, message: String) throws {
        let s = try TestServer()
        let r = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","date":"2019-02-30"}"#,
                            headers: acceptLanguage.map { ["Accept-Language": $0] } ?? [:])
        #expect(r.status == 400 && r.error == "bad_request" && r.object["message"] as? String == message, "\(r.text)")
    }

    @Test(arguments: [
        ("GET", "/api/bbox", "bad_request", "パラメーター「bbox」が必要です（最小経度,最小緯度,最大経度,最大緯度）",
         "parameter 'bbox' is required (minLon,minLat,maxLon,maxLat)"),
        ("GET", "/api/bbox?bbox=1,2,3&limit=3", "bad_request", "bbox「1,2,3」が読めません（最小経度,最小緯度,最大経度,最大緯度 の 4 つの数を度で）",
         "invalid bbox '1,2,3': expected minLon,minLat,maxLon,maxLat (4 numbers), got 3"),
        ("GET", "/api/bbox?bbox=1,2,3,4&filter=some", "bad_request", "「filter」には all、visited、unvisited のどれかを指定してください（「some」は使えません）",
         "'filter' must be all, visited or unvisited, got 'some'"),
        ("GET", "/api/nearest?lat=35&lon=139&k=0", "bad_request", "「k」には 1〜10000 の整数を指定してください（「0」は使えません）",
         "'k' needs a whole number 1…10000, got '0'"),
        ("GET", "/api/stats?colour=red", "bad_request", "パラメーター「colour」は使えません（使えるのは by）",
         "unknown parameter 'colour' (allowed: by)"),
        ("GET", "/api/station?key=nowhere", "unknown_station", "キー「nowhere」の駅はありません", "no entry with key 'nowhere'"),
        ("GET", "/api/nothing", "not_found", "/api/nothing という API はありません", "no API at /api/nothing"),
        ("PUT", "/api/bbox", "method_not_allowed", "/api/bbox に PUT は使えません", "PUT is not allowed on /api/bbox"),
        ("DELETE", "/api/visits/x", "bad_csrf", "書き込みには X-CSRF-Token ヘッダーにページのトークンが必要です",
         "writes need the page's token in the X-CSRF-Token header"),
    ])
    func everyMessageIsJapaneseOrEnglish(method: String, target: String, code: String, japanese: String, english: String) throws {
        let s = try TestServer()
        let ja = try s.send(method, target)
        #expect(ja.error == code && ja.object["message"] as? String == japanese, "\(ja.text)")
        let en = try s.send(method, target, headers: ["Accept-Language": "en"])
        #expect(en.error == code && en.object["message"] as? String == english, "\(en.text)")
        #expect(ja.status == en.status)
    }

    @Test func visitErrorsAreJapaneseByDefault() throws {
        let s = try TestServer()
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","date":"2019-08-13","kind":"alight"}"#).status == 201)
        let twice = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","date":"2019-08-13","kind":"alight"}"#)
        #expect(twice.status == 409 && twice.object["message"] as? String == "jr-east/c/小田原 の 2019-08-13（降車）はすでに記録 1 にあります")
        let kind = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","kind":"fly"}"#)
        #expect(kind.object["message"] as? String == "「kind」には board、alight、transfer、pass、null のどれかを指定してください（「fly」は使えません）")
        let kindEn = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","kind":"fly"}"#, headers: ["Accept-Language": "en"])
        #expect(kindEn.object["message"] as? String == "'kind' must be one of board, alight, transfer, pass or null, got 'fly'")
        let shape = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","date":"13.08.2019"}"#)
        #expect(shape.object["message"] as? String == "日付「13.08.2019」が読めません（YYYY、YYYY-MM、YYYY-MM-DD、YYYY/M/D、YYYY年M月D日 の形で）")
        #expect(try s.write("DELETE", "/api/visits/99").object["message"] as? String == "ID 99 の記録はありません")
    }

    @Test func aTooLargeBodyIsSaidInTheBrowsersLanguage() throws {
        let s = try TestServer(limits: HTTPLimits(maxBody: 100))
        let body = String(repeating: "x", count: 500)
        let ja = try s.write("POST", "/api/visits", json: body)
        #expect(ja.status == 413 && ja.object["message"] as? String == "本文が 100 バイトを超えています")
        let en = try s.write("POST", "/api/visits", json: body, headers: ["Accept-Language": "en"])
        #expect(en.status == 413 && en.object["message"] as? String == "the body is longer than 100 bytes")
    }

    @Test func thePageGetsItsLanguageAerialTilesAndClusterZoom() throws {
        let s = try TestServer()
        let ja = try s.get("/")
        #expect(ja.text.contains(#"<html lang="ja""#) && !ja.text.contains("{{LANG}}"))
        let config = try #require(Self.config(ja.text))
        #expect(config["lang"] as? String == "ja" && config["clusterBelowZoom"] as? Int == 12 && config["tiles"] is NSNull)
        let aerial = config["aerial"] as? [String: Any]
        #expect(aerial?["url"] as? String == "https://cyberjapandata.gsi.go.jp/xyz/seamlessphoto/{z}/{x}/{y}.jpg")
        #expect(aerial?["attribution"] as? String
                == #"<a href="https://maps.gsi.go.jp/development/ichiran.html">地理院タイル</a>（全国最新写真（シームレス））"#)
        let en = try s.get("/", headers: ["Accept-Language": "en-GB,en;q=0.8"])
        #expect(en.text.contains(#"<html lang="en""#) && Self.config(en.text)?["lang"] as? String == "en")
    }

    @Test func noAerialTilesAndAnotherSource() throws {
        let folder = TestPaths.temporaryDirectory()
        for aerial in [nil, TileSource(url: "http://127.0.0.1:9/{z}/{x}/{y}.jpg", attribution: "test photos")] {
            let c = MapServerConfiguration(databasePath: try TestServer().db, visitsPath: folder.appendingPathComponent("v.sqlite").path,
                                           listen: ListenAddress(host: "127.0.0.1", port: 0), tiles: nil, aerial: aerial)
            let server = try MapServer(configuration: c)
            defer { server.stop() }
            let page = try RawHTTP.exchange(port: server.port, Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n".utf8))
            let config = Self.config(page.text)
            if let aerial {
                #expect((config?["aerial"] as? [String: Any])?["url"] as? String == aerial.url)
            } else {
                #expect(config?["aerial"] is NSNull)
            }
        }
    }

    @Test func theNonLoopbackWarningNamesTheBoundPort() throws {
        let folder = TestPaths.temporaryDirectory()
        var c = MapServerConfiguration(databasePath: try TestServer().db, visitsPath: folder.appendingPathComponent("v.sqlite").path,
                                       listen: ListenAddress(host: "0.0.0.0", port: 0), tiles: nil)
        // Without accounts another address than loopback is refused.
        #expect { try MapServer(configuration: c) } throws: { "\($0)".contains("add --accounts PATH") }
        // With accounts and without TLS it starts, and says that passwords cross the network readable.
        let accounts = folder.appendingPathComponent("accounts.sqlite").path
        try AccountStore(path: accounts, hasher: PasswordHasher(operations: 1, memory: 64 * 1024)).addUser(name: "alice", password: "12345678")
        c.accountsPath = accounts
        let server = try MapServer(configuration: c)
        defer { server.stop() }
        #expect(server.port != 0)
        #expect(server.warnings.contains { $0.hasPrefix("listening on 0.0.0.0:\(server.port), not loopback, without TLS") },
                "\(server.warnings)")
    }

    @Test func iconsAndManifestsHaveTheirTypes() throws {
        let web = TestPaths.temporaryDirectory()
        for name in ["favicon.svg", "icon.png", "favicon.ico", "app.webmanifest", "index.html"] {
            try Data("x".utf8).write(to: web.appendingPathComponent(name))
        }
        let s = try TestServer(webRoot: web.path)
        #expect(try s.get("/favicon.svg").headers["content-type"] == "image/svg+xml")
        #expect(try s.get("/icon.png").headers["content-type"] == "image/png")
        #expect(try s.get("/favicon.ico").headers["content-type"] == "image/x-icon")
        #expect(try s.get("/app.webmanifest").headers["content-type"] == "application/manifest+json")
    }

    /// The page settings (`<meta name="eki-config" content="…">`) as JSON.
    static func config(_ page: String) -> [String: Any]? {
        guard let r = page.range(of: #"name="eki-config" content=""#), let end = page[r.upperBound...].firstIndex(of: "\"") else { return nil }
        let text = String(page[r.upperBound..<end]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return parsed(text) as? [String: Any]
    }
}
