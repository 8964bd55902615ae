import EkiKit
import Foundation

/// station_database (Seo-4d696b75/station_database, 駅メモ! compatible; `fileSet`): `station.csv`,
/// `line.csv`, `register.csv` (station ↔ line membership) from `out/main` (or `out/extra`) and
/// `company.csv` from `src/`. `NULL` means missing.
///
/// Its stations merge operators and both classes at one place (code 100201 東京 is on 14 lines
/// of 3 companies), so one record is made per (station, line): the operator is the line's
/// company (`company.csv` `name`, e.g. JR東日本; a `NULL` company gives an unknown operator,
/// never a dropped station), line codes 1001–1099 are the 新幹線 lines (Shinkansen), and the
/// record is closed when the station or the line is. The name is `original_name` (the real
/// name; `name` is disambiguated, e.g. `東山(北海道)`), the reading `name_kana` without spaces,
/// bracketed alternatives kept (`さんのみや(こうべさんのみや)`; `SourceReconciler` shows one).
/// register.csv's `index` is the row's order along its line (`lineOrder`), line.csv's `color`
/// the line's colour.
/// The batch's `edition` is the newest `open_date` or `closed_date` of station.csv and line.csv
/// (the data has no version file).
public struct StationDatabaseImporter: CSVFileSetImporter {
    public static let dataset = "station-database"

    /// station.csv, line.csv and register.csv side by side (`out/main`; station.csv and
    /// register.csv mark the folder), company.csv beside them or in `../src/` or `../../src/`;
    /// given one by one, each is recognised by its header.
    public static let fileSet = CSVFileSet(title: "station_database", roles: [
        .init("station", label: "station.csv", fileName: "station.csv", marksFolder: true) {
            header in ["code", "id", "name", "original_name", "name_kana", "lat", "lng", "closed"].allSatisfy(header.contains)
        },
        .init("register", label: "register.csv", fileName: "register.csv", marksFolder: true) {
            $0.starts(with: ["station_code", "line_code"])
        },
        .init("line", label: "line.csv", fileName: "line.csv") {
            header in ["code", "name", "company_code", "closed"].allSatisfy(header.contains) && !header.contains("lat")
        },
        .init("company", label: "company.csv", fileName: "company.csv", folders: [".", "../src", "../../src"]) {
            header in ["code", "rail_code", "name"].allSatisfy(header.contains)
        },
    ])

    /// station.csv, line.csv, register.csv and company.csv.
    public let stationPath: String, linePath: String, registerPath: String, companyPath: String
    public let encoding: TextEncoding?
    /// Skip station.csv rows without a usable position or name, counted in
    /// `ImportBatch.skipped` (`--skip-invalid`; their register.csv rows go with them), instead
    /// of refusing the file.
    public var skipInvalid = false
    /// The longest field and line read (`--max-field-bytes`, `--max-line-bytes`).
    public var limits = CSVLimits()

    /// The files found (`init(path:)`: the folder holding station.csv, line.csv and
    /// register.csv, e.g. `out/main`, or station.csv itself).
    public init(files: CSVFileSet.Paths, encoding: TextEncoding?) {
        (stationPath, linePath, registerPath, companyPath) = (files["station"], files["line"], files["register"], files["company"])
        self.encoding = encoding
    }

    /// The four files named one by one (as `eki import station.csv line.csv register.csv
    /// ../src/company.csv` gives them); a file left nil is looked for as `init(path:)` does,
    /// from station.csv's folder.
    /// - Throws: `ImportError` when a file left nil cannot be found.
    public init(station: String, line: String? = nil, register: String? = nil, company: String? = nil,
                encoding: TextEncoding? = nil) throws(ImportError) {
        var given: [String: String] = [:]
        given["line"] = line
        given["register"] = register
        given["company"] = company
        self.init(files: try Self.fileSet.paths(station, given: given), encoding: encoding)
    }

    /// True when `header` is station_database's station.csv header.
    public static func matches(header: [String]) -> Bool { fileSet.main.matches(header) }

    struct Line { var name: String; var company: String?; var closed: Bool; var code: Int; var color: String? = nil }

    public func read() throws -> ImportBatch {
        // company.csv: code → name.
        var companies: [String: String] = [:]
        var t = try table(companyPath)
        let cCode = try CSVInput.require(t, "code"), cName = try CSVInput.require(t, "name")
        while let row = try t.nextRow() {
            if let n = CSVInput.key(row.fields[cName]) { companies[row.fields[cCode]] = n }
        }
        // line.csv: code → line.
        var lines: [String: Line] = [:]
        t = try table(linePath)
        let lCode = try CSVInput.require(t, "code"), lName = try CSVInput.require(t, "name"),
            lCompany = try CSVInput.require(t, "company_code"), lClosed = try CSVInput.require(t, "closed")
        let lColor = t.header.firstIndex(of: "color")
        // The edition: the newest open or closed date anywhere in the data (the data has no
        // version file; a new edition adds the latest openings and closures).
        var newest = ""
        func note(_ v: String) { if Self.isDate(v), v > newest { newest = v } }
        let lClosedDate = t.header.firstIndex(of: "closed_date")
        while let row = try t.nextRow() {
            if let c = lClosedDate { note(row.fields[c]) }
            guard let code = Int(row.fields[lCode]) else { throw row.error(column: lCode, "'\(row.fields[lCode])' is not a line code") }
            let companyCode = CSVInput.key(row.fields[lCompany])
            if let cc = companyCode, companies[cc] == nil {
                throw row.error(column: lCompany, "company code \(cc) is not in \(companyPath)")
            }
            lines[row.fields[lCode]] = Line(name: row.fields[lName], company: companyCode.flatMap { companies[$0] },
                                            closed: row.fields[lClosed] == "1", code: code,
                                            color: lColor.flatMap { CSVInput.key(row.fields[$0]) })
        }
        // station.csv: code → row data.
        struct StationRow { var name: String; var reading: String?; var coordinate: Coordinate; var prefecture: String?; var closed: Bool }
        var stations: [String: StationRow] = [:]
        t = try table(stationPath)
        let sCode = try CSVInput.require(t, "code"), sName = try CSVInput.require(t, "original_name"),
            sKana = try CSVInput.require(t, "name_kana"), sLat = try CSVInput.require(t, "lat"),
            sLon = try CSVInput.require(t, "lng"), sPref = try CSVInput.require(t, "prefecture"),
            sClosed = try CSVInput.require(t, "closed")
        let sDates = ["open_date", "closed_date"].compactMap { t.header.firstIndex(of: $0) }
        var skipped = SkippedRows()
        var skippedCodes = Set<String>()
        while let row = try t.nextRow() {
            for c in sDates { note(row.fields[c]) }
            guard let place = try CSVInput.place(row, name: sName, lat: sLat, lon: sLon, skipInvalid: skipInvalid,
                                                 skipped: &skipped) else {
                skippedCodes.insert(row.fields[sCode])
                continue
            }
            stations[row.fields[sCode]] = StationRow(
                name: place.name, reading: CSVInput.value(row.fields[sKana]).map(Self.cleanReading),
                coordinate: place.coordinate,
                prefecture: Prefecture.name(code: row.fields[sPref]), closed: row.fields[sClosed] == "1")
        }
        // register.csv: one record per (station, line).
        var records: [SourceRecord] = []
        t = try table(registerPath)
        let rStation = try CSVInput.require(t, "station_code"), rLine = try CSVInput.require(t, "line_code")
        let rIndex = t.header.firstIndex(of: "index")
        while let row = try t.nextRow() {
            if skippedCodes.contains(row.fields[rStation]) { continue }
            guard let s = stations[row.fields[rStation]] else {
                throw row.error(column: rStation, "station \(row.fields[rStation]) is not in \(stationPath)")
            }
            guard let l = lines[row.fields[rLine]] else {
                throw row.error(column: rLine, "line \(row.fields[rLine]) is not in \(linePath)")
            }
            records.append(SourceRecord(
                source: SourceRef(dataset: Self.dataset, id: row.fields[rStation]),
                name: s.name, reading: s.reading, operatorName: l.company,
                serviceClass: (1001...1099).contains(l.code) ? .shinkansen : .conventional,
                lines: [l.name], coordinate: s.coordinate, prefecture: s.prefecture,
                isClosed: s.closed || l.closed,
                lineOrder: rIndex.flatMap { Int(row.fields[$0]) }, lineColor: l.color))
        }
        var batch = ImportBatch(dataset: Self.dataset, records: records, skipped: skipped)
        batch.edition = newest.isEmpty ? nil : newest
        return batch
    }

    /// True for `YYYY-MM-DD` (digits in place; `NULL` and other text are not dates).
    static func isDate(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-") else { return false }
        return u.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0.element) }
    }

    /// Drops spaces and writes bracketed alternatives in ASCII brackets, keeping them:
    /// `どっきょうだいがくまえ〈そうかまつばら〉` → `どっきょうだいがくまえ(そうかまつばら)`. Which of
    /// them a row shows is the reconciler's choice (`SourceReconciler`, rules 0 and 8).
    static func cleanReading(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "(", "（", "〈", "[": out.append("(")
            case ")", "）", "〉", "]": out.append(")")
            case " ", "\u{3000}": continue
            default: out.append(ch)
            }
        }
        return out
    }
}
