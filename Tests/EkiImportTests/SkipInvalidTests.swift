import EkiImport
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// Issue #16 item 3 for every CSV profile (generic in PositionCheckTests; GTFS stops in
/// EkiCLITests): a row without a usable position or name is refused naming `--skip-invalid`;
/// with it the row is skipped, counted and its file:line kept, and the rest imported.
/// Station rows are those of N02-23 and station_database written small here, with the position
/// of one row removed.
@Suite struct SkipInvalidTests {
    let dir = TemporaryDirectory()
    static let hint = " (--skip-invalid skips rows without a usable position or name)"

    static func error(_ body: () throws -> Void) -> ImportError? {
        do { try body() } catch { return error as? ImportError }
        return nil
    }

    @Test func n02CSV() throws {
        let path = dir.file("n02.csv")
        try """
        N02_001,N02_002,N02_003,N02_004,N02_005,N02_005c,N02_005g,lon,lat
        12,2,東海道線,東日本旅客鉄道,小田原,003765,003765,139.15531,35.25641
        12,2,東海道線,東日本旅客鉄道,鴨宮,003766,003766,,
        12,2,東海道線,東日本旅客鉄道,国府津,003767,003767,139.20608,35.28046

        """.write(toFile: path, atomically: true, encoding: .utf8)
        let e = Self.error { _ = try N02CSVImporter(path: path).read() }
        #expect(e?.description == path + ":3:9: lat: empty: the row has no position" + Self.hint)
        var importer = N02CSVImporter(path: path)
        importer.skipInvalid = true
        let batch = try importer.read()
        #expect(batch.records.map(\.name) == ["小田原", "国府津"])
        #expect(batch.skipped.count == 1)
        #expect(batch.skipped.first.map(\.description) == [path + ":3:9: lat: empty: the row has no position"])
    }

    /// station_database: a station.csv row without a position is skipped with its register.csv
    /// rows (not refused as an unknown station).
    @Test func stationDatabase() throws {
        let d = dir.file("sd")
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        try "code,rail_code,name\n2,1,JR東日本\n".write(toFile: d + "/company.csv", atomically: true, encoding: .utf8)
        try "code,name,company_code,closed\n11301,JR東海道本線(東京～熱海),2,0\n".write(toFile: d + "/line.csv", atomically: true, encoding: .utf8)
        try """
        code,id,name,original_name,name_kana,lat,lng,prefecture,closed
        1130105,a,小田原,小田原,おだわら,35.256210,139.155302,14,0
        1130104,b,鴨宮,鴨宮,かものみや,NULL,NULL,14,0
        1130103,c,国府津,国府津,こうづ,35.280430,139.206174,14,0

        """.write(toFile: d + "/station.csv", atomically: true, encoding: .utf8)
        try "station_code,line_code,index\n1130105,11301,1\n1130104,11301,2\n1130103,11301,3\n"
            .write(toFile: d + "/register.csv", atomically: true, encoding: .utf8)
        let e = Self.error { _ = try StationDatabaseImporter(path: d).read() }
        #expect(e?.description == d + "/station.csv:3:6: lat: 'NULL' is not a number" + Self.hint)
        var importer = try StationDatabaseImporter(path: d)
        importer.skipInvalid = true
        let batch = try importer.read()
        #expect(batch.records.map(\.name) == ["小田原", "国府津"])
        #expect(batch.records.map(\.lineOrder) == [1, 3])
        #expect(batch.skipped.first.map(\.description) == [d + "/station.csv:3:6: lat: 'NULL' is not a number"])
    }

    /// ekidata: a station row without a name is skipped.
    @Test func ekidata() throws {
        let d = dir.file("ekidata")
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        try "company_cd,rr_cd,company_name\n2,11,JR東日本\n".write(toFile: d + "/company.csv", atomically: true, encoding: .utf8)
        try "line_cd,company_cd,line_name\n11301,2,JR東海道本線(東京～熱海)\n".write(toFile: d + "/line.csv", atomically: true, encoding: .utf8)
        try """
        station_cd,station_g_cd,station_name,line_cd,pref_cd,lon,lat,e_status
        1130105,1130105,小田原,11301,14,139.155302,35.256210,0
        1130104,1130104,,11301,14,139.187883,35.270050,0
        1130103,1130103,国府津,11301,14,139.206174,35.280430,0

        """.write(toFile: d + "/station.csv", atomically: true, encoding: .utf8)
        let e = Self.error { _ = try EkidataImporter(path: d).read() }
        #expect(e?.description == d + "/station.csv:3:3: station_name: empty station name" + Self.hint)
        var importer = try EkidataImporter(path: d)
        importer.skipInvalid = true
        let batch = try importer.read()
        #expect(batch.records.map(\.name) == ["小田原", "国府津"])
        #expect(batch.skipped.count == 1)
    }

    /// The registry hands `--skip-invalid` to each of these profiles.
    @Test func registryPassesTheOption() throws {
        let path = dir.file("n02-registry.csv")
        try "N02_001,N02_002,N02_003,N02_004,N02_005,N02_005c,N02_005g,lon,lat\n12,2,東海道線,東日本旅客鉄道,鴨宮,003766,003766,0,0\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let planned = try ImporterRegistry().plan([path], options: ImportOptions(skipInvalid: true))
        #expect(planned.map(\.format) == ["n02"])
        let batch = try planned[0].importer.read()
        #expect(batch.records.isEmpty)
        #expect(batch.skipped.first.map(\.description) == [path + ":2:9: lat: " + PositionChecks.placeholderMessage])
    }
}
