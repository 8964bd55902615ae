import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// The map screen's endpoints on the real database (N02-23 + station_database: 9,571 open
/// entries): clusters, the 路線 panel, line strokes, the station screen's lines.
@Suite(.needsN02AndStationDatabase) struct MapScreenAPITests {
    static let tokaido = "jr-central/s/東海道新幹線"

    @Test func anAllJapanViewIsClustersInAll47Prefectures() throws {
        let s = try TestServer(database: RealData.combinedDatabase)
        let r = try s.get("/api/clusters?bbox=122,20,154,46&zoom=5")
        #expect(r.status == 200)
        #expect(r.object["zoom"] as? Int == 5 && r.object["cell_zoom"] as? Int == 7)
        #expect(r.object["total"] as? Int == 9_571 && r.object["visited"] as? Int == 0)
        let clusters = r.object["clusters"] as? [[String: Any]] ?? []
        #expect(Set(clusters.compactMap { $0["prefecture"] as? String }).count == 47)
        let ids = clusters.map { $0["id"] as? String ?? "" }
        #expect(ids == ids.sorted())
        #expect(clusters.reduce(0) { $0 + ($1["total"] as? Int ?? 0) } == 9_571)
        // The library's answer, member for member.
        let store = RealData.open(RealData.combinedDatabase)
        let want = try store.spatial.clusters(ClusterQuery(bbox: BoundingBox(minLon: 122, minLat: 20, maxLon: 154, maxLat: 46), zoom: 5))
        #expect(ids == want.clusters.map(\.id))
        #expect(zip(clusters, want.clusters).allSatisfy { abs(($0["lat"] as? Double ?? 0) - $1.representative.coordinate.lat) < 1e-9 })
        // (Foundation's JSON reader may miss a Double's last bit.)
        let boxes = clusters.map { $0["bbox"] as? [Double] ?? [] }
        let extents = want.clusters.map { [$0.extent.minLon, $0.extent.minLat, $0.extent.maxLon, $0.extent.maxLat] }
        #expect(boxes.count == extents.count && zip(boxes, extents).allSatisfy { a, b in a.count == 4 && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 } })

        // A visit in 東京 counts in its cluster; the filters keep or leave it.
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"jr-central/s/東京","date":"2024-05-01"}"#).status == 201)
        let after = try s.get("/api/clusters?bbox=122,20,154,46&zoom=5")
        let tokyo = (after.object["clusters"] as? [[String: Any]] ?? []).filter { ($0["visited"] as? Int ?? 0) > 0 }
        #expect(tokyo.count == 1 && tokyo.first?["id"] as? String == "7/113/50/13" && tokyo.first?["prefecture"] as? String == "東京都")
        #expect(after.object["visited"] as? Int == 1)
        let visited = try s.get("/api/clusters?bbox=122,20,154,46&zoom=5&filter=visited")
        let only = visited.object["clusters"] as? [[String: Any]] ?? []
        #expect(only.count == 1 && only.first?["total"] as? Int == 1 && only.first?["visited"] as? Int == 1)
        #expect(only.first?["lat"] as? Double == 35.681103 && only.first?["lon"] as? Double == 139.76788)
        let unvisited = try s.get("/api/clusters?bbox=122,20,154,46&zoom=5&filter=unvisited")
        #expect(unvisited.object["total"] as? Int == 9_570 && unvisited.object["visited"] as? Int == 0)
    }

    @Test(arguments: [
        ("/api/clusters?zoom=5", "parameter 'bbox' is required (minLon,minLat,maxLon,maxLat)",
         "パラメーター「bbox」が必要です（最小経度,最小緯度,最大経度,最大緯度）"),
        ("/api/clusters?bbox=122,20,154,46", "parameter 'zoom' is required", "パラメーター「zoom」が必要です"),
        ("/api/clusters?bbox=122,20,154,46&zoom=21", "'zoom' needs a whole number 0…20, got '21'",
         "「zoom」には 0〜20 の整数を指定してください（「21」は使えません）"),
        ("/api/clusters?bbox=122,20,154,46&zoom=11", "the box holds 523422 cells at this zoom (at most 65536): narrow it or zoom out",
         "この範囲とズームではセルが 523422 個になります（最大 65536 個）: 範囲を狭めるかズームを下げてください"),
    ])
    func badClusterQuestionsAre400(target: String, english: String, japanese: String) throws {
        let s = try TestServer(database: RealData.combinedDatabase)
        let en = try s.get(target, headers: ["Accept-Language": "en-GB,en;q=0.9,ja;q=0.5"])
        #expect(en.status == 400 && en.error == "bad_request" && en.object["message"] as? String == english, "\(en.text)")
        let ja = try s.get(target)
        #expect(ja.status == 400 && ja.error == "bad_request" && ja.object["message"] as? String == japanese, "\(ja.text)")
    }

    @Test func theLinesPanelIsGroupedAsEkiLinesWithCounts() throws {
        let s = try TestServer(database: RealData.combinedDatabase)
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"jr-central/s/東京","date":"2024-05-01"}"#).status == 201)
        let r = try s.get("/api/lines")
        #expect(r.status == 200)
        #expect(r.object["visited"] as? Int == 1 && r.object["total"] as? Int == 9_529)
        let types = r.object["types"] as? [[String: Any]] ?? []
        #expect(types.map { $0["type"] as? String ?? "" } == OperatorTypes.order.filter { t in types.contains { $0["type"] as? String == t } })
        #expect(types.first?["type"] as? String == "JR")
        let operators = types.first?["operators"] as? [[String: Any]] ?? []
        let central = operators.first { $0["id"] as? String == "jr-central" }
        #expect(central?["name"] as? String == "JR東海")
        let lines = central?["lines"] as? [[String: Any]] ?? []
        let tokaido = lines.first { $0["id"] as? String == Self.tokaido }
        #expect(tokaido?["name"] as? String == "東海道新幹線" && tokaido?["class"] as? String == "shinkansen")
        #expect(tokaido?["visited"] as? Int == 1 && tokaido?["total"] as? Int == 17 && tokaido?["loop"] as? Bool == false)
        // The same lines, in the same order, with the same counts as `eki lines --format json`.
        let cli = runEki(["lines", "--db", s.db, "--visits", s.visits, "--format", "json"])
        let cliLines = (parsed(cli.out) as? [[String: Any]]) ?? []
        let apiLines = types.flatMap { ($0["operators"] as? [[String: Any]] ?? []).flatMap { $0["lines"] as? [[String: Any]] ?? [] } }
        #expect(cliLines.count > 500)
        #expect(apiLines.map { $0["id"] as? String } == cliLines.map { $0["id"] as? String })
        #expect(apiLines.map { $0["total"] as? Int } == cliLines.map { $0["total"] as? Int })
        #expect(apiLines.map { $0["visited"] as? Int } == cliLines.map { $0["visited"] as? Int })
        // Filters: lines with a visited entry; lines not complete.
        let visitedLines = try s.get("/api/lines?filter=visited").object["types"] as? [[String: Any]] ?? []
        let kept = visitedLines.flatMap { ($0["operators"] as? [[String: Any]] ?? []).flatMap { $0["lines"] as? [[String: Any]] ?? [] } }
        #expect(kept.map { $0["id"] as? String }.contains(Self.tokaido) && kept.allSatisfy { ($0["visited"] as? Int ?? 0) > 0 })
        #expect(kept.count == cliLines.filter { ($0["visited"] as? Int ?? 0) > 0 }.count)
    }

    @Test func aLineIsItsStationsInOrderAndAStroke() throws {
        let s = try TestServer(database: RealData.combinedDatabase)
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"jr-central/s/名古屋","date":"2024-05-01"}"#).status == 201)
        let r = try s.get("/api/line?id=\(percent(Self.tokaido))")
        #expect(r.status == 200)
        let o = r.object
        #expect(o["name"] as? String == "東海道新幹線" && o["operator"] as? String == "JR東海" && o["operator_id"] as? String == "jr-central")
        #expect(o["class"] as? String == "shinkansen" && o["loop"] as? Bool == false)
        #expect(o["visited"] as? Int == 1 && o["total"] as? Int == 17)
        let stations = o["stations"] as? [[String: Any]] ?? []
        #expect(stations.map { $0["name"] as? String ?? "" } == ["東京", "品川", "新横浜", "小田原", "熱海", "三島", "新富士", "静岡", "掛川",
                                                                 "浜松", "豊橋", "三河安城", "名古屋", "岐阜羽島", "米原", "京都", "新大阪"])
        #expect(stations.map { $0["order"] as? Int } == Array(0..<17))
        #expect(stations.allSatisfy { $0["branch"] as? Int == 0 && $0["operator_short"] as? String == "JR東海" })
        #expect(stations.filter { $0["visited"] as? Bool == true }.map { $0["key"] as? String } == ["jr-central/s/名古屋"])
        #expect(stations[12]["completed"] as? String == "2024-05-01")
        #expect(stations[0]["lat"] as? Double == 35.681103 && stations[0]["lon"] as? Double == 139.76788)
        let geometry = o["geometry"] as? [String: Any] ?? [:]
        let parts = geometry["coordinates"] as? [[[Double]]] ?? []
        #expect(geometry["type"] as? String == "MultiLineString" && parts.count == 1 && parts.first?.count == 17)
        #expect(parts.first?.first == [139.76788, 35.6811])
        // A loop closes: 山手線's one part ends where it starts.
        let yamanote = try s.get("/api/line?id=\(percent("jr-east/c/山手線"))").object
        let ring = ((yamanote["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]] ?? []).first ?? []
        #expect(yamanote["loop"] as? Bool == true && yamanote["total"] as? Int == 30 && ring.count == 31 && ring.first == ring.last)
        let missing = try s.get("/api/line?id=nowhere")
        #expect(missing.status == 404 && missing.error == "not_found" && missing.object["message"] as? String == "ID「nowhere」の路線はありません")
    }

    @Test func lineworkIsEveryOpenLineCachedByItsTag() throws {
        let s = try TestServer(database: RealData.combinedDatabase)
        let r = try s.get("/api/linework")
        #expect(r.status == 200 && r.headers["content-type"] == "application/geo+json" && r.headers["cache-control"] == "no-cache")
        let features = r.features
        let store = RealData.open(RealData.combinedDatabase)
        let strokes = try store.lines.strokes().filter { !$0.branches.isEmpty }
        #expect(features.count == strokes.count && features.count > 500)
        let tokaido = features.first { ($0["properties"] as? [String: Any])?["id"] as? String == Self.tokaido }
        #expect((tokaido?["properties"] as? [String: Any])?["operator"] as? String == "JR東海")
        #expect(((tokaido?["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first?.count == 17)
        // Every coordinate has at most 5 decimals.
        #expect(r.text.range(of: #"\.\d{6}"#, options: .regularExpression) == nil)
        let tag = try #require(r.headers["etag"])
        #expect(try s.get("/api/linework").headers["etag"] == tag)
        let again = try s.get("/api/linework", headers: ["If-None-Match": tag])
        #expect(again.status == 304 && again.body.isEmpty)
        // A box keeps the lines crossing it: around 小田原, 東海道新幹線 and 小田急 but not 山手線.
        let box = try s.get("/api/linework?bbox=139.10,35.22,139.20,35.30").features.compactMap { ($0["properties"] as? [String: Any])?["id"] as? String }
        #expect(box.contains(Self.tokaido) && !box.contains("jr-east/c/山手線") && box.count < features.count)
    }

    @Test func theStationScreenHasItsLinesWithCountsAndShortOperatorNames() throws {
        let s = try TestServer(database: RealData.combinedDatabase)
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"jr-central/s/品川","date":"2024-05-01"}"#).status == 201)
        let p = try s.get("/api/station?key=\(percent("jr-central/s/東京"))").object["properties"] as? [String: Any] ?? [:]
        #expect(p["operator"] as? String == "東海旅客鉄道" && p["operator_short"] as? String == "JR東海")
        let stats = p["line_stats"] as? [[String: Any]] ?? []
        #expect(stats.count == 1 && stats.first?["id"] as? String == Self.tokaido && stats.first?["name"] as? String == "東海道新幹線")
        #expect(stats.first?["visited"] as? Int == 1 && stats.first?["total"] as? Int == 17)
        // Short names in every feature: 東京地下鉄 is 東京メトロ.
        let ginza = try s.get("/api/search?q=\(percent("銀座"))&limit=40").features.map { $0["properties"] as? [String: Any] ?? [:] }
        #expect(ginza.contains { $0["operator"] as? String == "東京地下鉄" && $0["operator_short"] as? String == "東京メトロ" })
        let yamanote = try s.get("/api/station?key=\(percent("jr-east/c/東京"))").object["properties"] as? [String: Any] ?? [:]
        let names = (yamanote["line_stats"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.contains("山手線") && names.contains("中央本線") && !names.contains("中央線"))
    }
}
