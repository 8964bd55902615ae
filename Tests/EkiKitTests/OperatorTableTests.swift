import Testing
import Foundation
@testable import EkiKit
import EkiImport
import EkiTestSupport

@Suite struct OperatorTableTests {
    let table = OperatorTable.builtIn

    // MARK: Coverage of the real sources

    /// Every distinct operator (N02_004) of N02-23 resolves: 178 names.
    @Test(.needsN02) func everyN02OperatorResolves() throws {
        let path = TestPaths.requireShared(TestPaths.n02CSVFile)
        var csv = try CSVTable(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
        let col = try #require(csv.column("N02_004"))
        var names: Set<String> = []
        while let row = try csv.nextRow() { names.insert(row.fields[col]) }
        #expect(names.count == 178)
        let unresolved = names.filter { table.resolve($0) == nil }.sorted()
        #expect(unresolved.isEmpty, "N02 operators without a row: \(unresolved)")
        let ids = Set(names.compactMap { table.operatorID(for: $0) })
        print("N02-23: \(names.count) operator names → \(ids.count) operator ids")
    }

    /// Every row of station_database's company.csv (182, closed ones included) resolves by its
    /// `name`, and its `name_formal` resolves to the same current operator.
    @Test(.needsShared("datasets/csv-station-database-ekimemo/src/company.csv"))
    func everyStationDatabaseCompanyResolves() throws {
        let path = TestPaths.requireShared("datasets/csv-station-database-ekimemo/src/company.csv")
        var csv = try CSVTable(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
        let name = try #require(csv.column("name")), formal = try #require(csv.column("name_formal"))
        var rows = 0
        var unresolved: [String] = []
        var disagreeing: [String] = []
        var ids: Set<String> = []
        while let row = try csv.nextRow() {
            rows += 1
            guard let id = table.operatorID(for: row.fields[name]) else { unresolved.append(row.fields[name]); continue }
            ids.insert(id)
            if table.operatorID(for: row.fields[formal]) != id { disagreeing.append("\(row.fields[name]) / \(row.fields[formal])") }
        }
        #expect(rows == 182)
        #expect(unresolved.isEmpty, "company.csv names without a row: \(unresolved)")
        #expect(disagreeing.isEmpty, "name and name_formal resolve differently: \(disagreeing)")
        print("station_database company.csv: \(rows) rows → \(ids.count) operator ids")
    }

    /// The GTFS-JP feeds here: agency_id (with its `_1` suffix, or with a trailing space) finds
    /// the operator by corporate number, and agency_name finds the same one by name.
    @Test func gtfsAgenciesResolve() throws {
        #expect(table.operatorID(for: "7140001011983_1") == "kobe-new-transit")
        #expect(table.operatorID(for: "7140001011983") == "kobe-new-transit")
        #expect(table.operatorID(for: "Kobe New Transit") == "kobe-new-transit")
        #expect(table.operatorID(for: "神戸新交通株式会社") == "kobe-new-transit")
        #expect(table.operatorID(for: "1060001027696 ") == "utsunomiya-light-rail")
        #expect(table.operatorID(for: "宇都宮ライトレール株式会社") == "utsunomiya-light-rail")
        // Unknown corporate numbers and look-alikes are not matched.
        #expect(table.operatorID(for: "1234567890123_1") == nil)
        #expect(table.operatorID(for: "7140001011983x") == nil)
    }

    // MARK: Names, folds and successors

    @Test func jrEastByEverySpelling() {
        for name in ["東日本旅客鉄道", "JR東日本", "JR East", "East Japan Railway Company", "東日本旅客鉄道株式会社",
                     "ＪＲ東日本", "jr east", "jr-east", "（株）東日本旅客鉄道"] {
            #expect(table.operatorID(for: name) == "jr-east", "\(name)")
        }
        let op = table.resolve("JR東日本")
        #expect(op?.name == "東日本旅客鉄道")
        #expect(op?.kana == "ひがしにほんりょかくてつどう")
        #expect(op?.english == ["JR East", "East Japan Railway Company"])
    }

    @Test func willerTrains() {
        for name in ["WILLER\u{3000}TRAINS", "WILLER TRAINS", "京都丹後鉄道", "WILLER TRAINS株式会社", "丹鉄", "Willer Trains"] {
            #expect(table.operatorID(for: name) == "willer-trains", "\(name)")
        }
        // The former operator of the same lines now only owns the track.
        #expect(table.operatorID(for: "北近畿タンゴ鉄道") == "ktr")   // still exists (track owner): no successor
        #expect(table.resolve("北近畿タンゴ鉄道", followSuccessors: false)?.id == "ktr")
    }

    @Test func successorsAreFollowed() {
        #expect(table.operatorID(for: "新京成電鉄") == "keisei")
        #expect(table.resolve("新京成電鉄", followSuccessors: false)?.id == "shin-keisei")
        #expect(table.operatorID(for: "大阪市交通局") == "osaka-metro")
        #expect(table.operatorID(for: "大阪市高速電気軌道") == "osaka-metro")
        #expect(table.operatorID(for: "Osaka Metro") == "osaka-metro")
        #expect(table.operatorID(for: "東京急行電鉄") == "tokyu")
        #expect(table.operatorID(for: "東京急行電鉄株式会社") == "tokyu")
        #expect(table.operatorID(for: "東急電鉄") == "tokyu")
        #expect(table.operatorID(for: "泉北高速鉄道") == "nankai")
        #expect(table.operatorID(for: "富士急行") == "fujisan-fumoto")
        #expect(table.operatorID(for: "土佐電気鉄道") == "tosaden-kotsu")
        #expect(table.operatorID(for: "帝都高速度交通営団") == "tokyo-metro")
        #expect(table.operatorID(for: "日本国有鉄道") == "jnr")     // split, no single successor
    }

    @Test func municipalOperators() {
        #expect(table.operatorID(for: "東京都") == "toei")
        #expect(table.operatorID(for: "東京都交通局") == "toei")
        #expect(table.operatorID(for: "都営地下鉄") == "toei")
        #expect(table.operatorID(for: "横浜市") == table.operatorID(for: "横浜市交通局"))
        #expect(table.operatorID(for: "名古屋市") == "nagoya-city")
        #expect(table.operatorID(for: "東京メトロ") == "tokyo-metro")
        #expect(table.operatorID(for: "東京地下鉄") == "tokyo-metro")
    }

    @Test func unknownNamesAreNil() {
        #expect(table.resolve("どこにもない鉄道") == nil)
        #expect(table.operatorID(for: "Nowhere Railway") == nil)
        #expect(table.operatorID(for: nil) == nil)
        #expect(table.operatorID(for: "") == nil)
        #expect(table.operatorID(for: " \u{3000}株式会社 ") == nil)
    }

    @Test func tableIsWellFormed() {
        let ids = Set(table.operators.map(\.id))
        #expect(ids.count == table.operators.count)
        for op in table.operators {
            if let s = op.successor { #expect(ids.contains(s), "\(op.id) → \(s)") }
            #expect(table[id: op.id] == op)
            // Each operator's own names lead back to it (no key is taken by another row).
            for name in [op.id, op.name, op.shortName] + op.english + op.aliases {
                #expect(table.resolve(name, followSuccessors: false)?.id == op.id, "\(name) → \(op.id)")
            }
        }
    }

    // MARK: The generated Swift file

    /// The compiled table is the CSV, field by field (no Python needed).
    @Test func compiledTableMatchesCSV() throws {
        let path = TestPaths.package("Datasets/operators.csv")
        var csv = try CSVTable(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
        #expect(csv.header == ["id", "name", "short_name", "kana", "english", "aliases", "successor", "corporate_number", "note"])
        func list(_ s: String) -> [String] {
            s.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        func opt(_ s: String) -> String? { s.isEmpty ? nil : s }
        var fromCSV: [Operator] = []
        while let row = try csv.nextRow() {
            let f = row.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            fromCSV.append(Operator(id: f[0], name: f[1], shortName: f[2], kana: f[3], english: list(f[4]),
                                    aliases: list(f[5]), successor: opt(f[6]), corporateNumber: opt(f[7]), note: opt(f[8])))
        }
        let compiled = OperatorTable.builtInOperators
        #expect(fromCSV.count == OperatorTable.builtInRowCount)
        #expect(fromCSV.count == compiled.count)
        let differing = zip(fromCSV, compiled).filter { $0 != $1 }.map { "\($0.id) (compiled: \($1.id))" }
        #expect(differing.isEmpty,
                "OperatorTable+Data.swift is out of date (rows \(differing.prefix(5))): run python3 Scripts/gen-operator-table.py")
    }

    /// The generator, run on the CSV now, writes exactly the checked-in Swift file (without
    /// python3, compiledTableMatchesCSV still compares the rows).
    @Test(.needsTool("python3"))
    func generatedFileIsUpToDate() throws {
        let dir = TemporaryDirectory()
        let out = dir.url.appendingPathComponent("OperatorTable+Data.swift")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", TestPaths.package("Scripts/gen-operator-table.py"), "--output", out.path]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "gen-operator-table.py failed: \(message)")
        let generated = try String(contentsOf: out, encoding: .utf8)
        let checkedIn = try String(contentsOfFile: TestPaths.package("Sources/EkiKit/Derive/OperatorTable+Data.swift"), encoding: .utf8)
        let same = generated == checkedIn
        #expect(same, "OperatorTable+Data.swift differs from the generator's output: run python3 Scripts/gen-operator-table.py")
    }

    // MARK: User alias files

    private func write(_ text: String) throws -> String {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("aliases.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func userAliasFileAddsMappings() throws {
        let path = try write("""
        alias,operator
        JRE,jr-east
        "ハマの地下鉄, ブルー",横浜市交通局

        ＴＸ,首都圏新都市鉄道
        山手線の会社,JR東日本
        """)
        var t = OperatorTable.builtIn
        #expect(t.operatorID(for: "JRE") == nil)
        try t.addAliases(fromFile: path)
        #expect(t.operatorID(for: "JRE") == "jr-east")
        #expect(t.operatorID(for: "jre") == "jr-east")
        #expect(t.operatorID(for: "ハマの地下鉄,ブルー") == "yokohama-city")
        #expect(t.operatorID(for: "TX") == "tsukuba-express")
        #expect(t.operatorID(for: "山手線の会社") == "jr-east")
        #expect(t[id: "jr-east"]?.aliases.contains("JRE") == true)
        // The built-in table is a value: unchanged.
        #expect(OperatorTable.builtIn.operatorID(for: "JRE") == nil)
    }

    @Test func userAliasFollowsSuccessors() throws {
        let path = try write("alias,operator\r\n新京成,shin-keisei\r\n")
        var t = OperatorTable.builtIn
        try t.addAliases(fromFile: path)
        #expect(t.operatorID(for: "新京成") == "keisei")
    }

    @Test func malformedAliasFilesNameFileAndLine() throws {
        let cases: [(text: String, line: Int?, contains: String)] = [
            ("alias,operator\nJRE,jr-east\nOnlyOneField\n", 3, "expected 2 fields"),
            ("alias,operator\nJRE,jr-east\n\nfoo,no-such-operator\n", 4, "unknown operator"),
            ("alias,operator\n,jr-east\n", 2, "empty alias"),
            ("alias,operator\nJRE,\n", 2, "empty operator"),
            ("name,id\nJRE,jr-east\n", 1, "expected the header"),
            ("alias,operator\nJRE,jr-east\n\"open,jr-east\nmore\n", 3, "never closed"),
            ("alias,operator\nJR\"E,jr-east\n", 2, "stray quote"),
            ("alias,operator\nJRE,jr-east,extra\n", 2, "expected 2 fields"),
            ("", 1, "empty file"),
        ]
        for c in cases {
            let path = try write(c.text)
            var t = OperatorTable.builtIn
            let error = #expect(throws: OperatorTableError.self) { try t.addAliases(fromFile: path) }
            #expect(error?.file == path)
            #expect(error?.line == c.line, "\(c.text)")
            #expect(error?.message.contains(c.contains) == true, "\(error?.message ?? "") for \(c.text)")
            if let line = c.line { #expect(error?.description.hasPrefix("\(path):\(line): ") == true) }
            // Nothing of a bad file is added.
            #expect(t.operatorID(for: "JRE") == nil)
        }
        var t = OperatorTable.builtIn
        let missing = #expect(throws: OperatorTableError.self) { try t.addAliases(fromFile: "/nonexistent/aliases.csv") }
        #expect(missing?.file == "/nonexistent/aliases.csv")
        #expect(missing?.line == nil)
    }
}
