import Testing
import Foundation
import EkiCLI
import EkiImport
import EkiTestSupport

/// Without `--edition`, `eki import` stores the edition the importer read from the data:
/// station_database's newest open or closed date.
@Suite struct DefaultEditionTests {
    /// A station_database folder of two stations on one line, written into `dir`.
    func writeStationDatabase(_ dir: TemporaryDirectory) throws -> String {
        let folder = dir.file("main")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let files = [
            "company.csv": "code,rail_code,name,name_kana,name_formal,name_short,company_url,type,closed\n2,11,JR東日本,じぇいあーるひがしにほん,東日本旅客鉄道株式会社,JR東日本,NULL,1,0\n",
            "line.csv": "code,id,name,name_kana,name_formal,station_size,company_code,color,symbol,closed,closed_date\n11301,1,JR東海道本線(東京～熱海),とうかいどうほんせん,NULL,2,2,#F68B1E,JT,0,NULL\n",
            "station.csv": "code,id,name,original_name,name_kana,lat,lng,prefecture,postal_code,address,closed,open_date,closed_date,attr\n"
                + "1130101,1,東京,東京,とうきょう,35.681236,139.767125,13,100-0005,千代田区丸の内一丁目,0,1914-12-20,NULL,heat\n"
                + "1130102,2,新橋,新橋,しんばし,35.666195,139.758587,13,105-0004,港区新橋二丁目,0,1909-12-16,NULL,cool\n",
            "register.csv": "station_code,line_code,index,numbering\n1130101,11301,1,JT01\n1130102,11301,2,JT02\n",
        ]
        for (name, text) in files { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        return folder
    }

    @Test func stationDatabaseEditionIsItsNewestDate() throws {
        let tmp = TemporaryDirectory()
        let folder = try writeStationDatabase(tmp)
        #expect(try StationDatabaseImporter(path: folder).read().edition == "1914-12-20")
        let db = tmp.file("d.gpkg")
        let r = eki("import", "--db", db, folder)
        #expect(r.status == 0, "\(r.err)")
        #expect(eki("info", "--db", db).out.contains("\neditions: station-database 1914-12-20\n"))
        // --edition wins over the data's.
        let given = tmp.file("g.gpkg")
        #expect(eki("import", "--db", given, "--edition", "2025-06-01", folder).status == 0)
        #expect(eki("info", "--db", given).out.contains("\neditions: station-database 2025-06-01\n"))
    }

    /// main/ of the real data: its newest date is a closure of 2026-04-01.
    @Test(.needsStationDatabase) func realStationDatabaseEdition() {
        #expect(RealData.stationDatabase.edition == "2026-04-01")
    }
}
