import EkiKit
import Foundation

/// 駅データ.jp (ekidata) CSV (`fileSet`): a station file (`station_cd,station_g_cd,station_name,…,line_cd,
/// pref_cd,…,lon,lat,…,e_status`), with the line file (`line_cd,company_cd,line_name,…`) and
/// the company file (`company_cd,rr_cd,company_name,…`) beside it; the join file is not needed.
///
/// Every station row already belongs to one line. Line codes 1001–1099 (4-digit codes starting
/// 10) are the 新幹線 lines (Shinkansen), per ekidata's line code table. `e_status` 0 is open,
/// 1 not yet open, 2 closed (1 and 2 are kept and marked closed). The reading comes from
/// `station_name_k` where the (paid) file has it.
public struct EkidataImporter: CSVFileSetImporter {
    public static let dataset = "ekidata"

    /// The station file (`station_cd,station_g_cd,…`, which marks a folder as ekidata's), the
    /// line file (`line_cd,company_cd,…`) and the company file (`company_cd,rr_cd,…`), found by
    /// their headers whatever their dated names, beside one another.
    public static let fileSet = CSVFileSet(title: "ekidata", roles: [
        .init("station", label: "station file", headerHint: "station_cd,station_g_cd,…", marksFolder: true) {
            $0.starts(with: ["station_cd", "station_g_cd"])
        },
        .init("line", label: "line file", headerHint: "line_cd,company_cd,…") { $0.starts(with: ["line_cd", "company_cd"]) },
        .init("company", label: "company file", headerHint: "company_cd,rr_cd,…") { $0.starts(with: ["company_cd", "rr_cd"]) },
    ])

    public let stationPath: String, linePath: String, companyPath: String
    public let encoding: TextEncoding?
    /// Skip station rows without a usable position or name, counted in
    /// `ImportBatch.skipped` (`--skip-invalid`), instead of refusing the file.
    public var skipInvalid = false
    /// The longest field and line read (`--max-field-bytes`, `--max-line-bytes`).
    public var limits = CSVLimits()

    /// The files found (`init(path:)`: the station file, or a folder holding the three).
    public init(files: CSVFileSet.Paths, encoding: TextEncoding?) {
        (stationPath, linePath, companyPath) = (files["station"], files["line"], files["company"])
        self.encoding = encoding
    }

    /// The three files named one by one; a line or company file left nil is looked for beside
    /// the station file by its header.
    /// - Throws: `ImportError` when a file left nil cannot be found.
    public init(station: String, line: String? = nil, company: String? = nil,
                encoding: TextEncoding? = nil) throws(ImportError) {
        var given: [String: String] = [:]
        given["line"] = line
        given["company"] = company
        self.init(files: try Self.fileSet.paths(station, given: given), encoding: encoding)
    }

    /// True when `header` is an ekidata station file header.
    public static func matches(header: [String]) -> Bool { fileSet.main.matches(header) }

    public func read() throws -> ImportBatch {
        var companies: [String: String] = [:]
        var t = try table(companyPath)
        let cCode = try CSVInput.require(t, "company_cd"), cName = try CSVInput.require(t, "company_name")
        while let row = try t.nextRow() { companies[row.fields[cCode]] = CSVInput.key(row.fields[cName]) }

        struct Line { var name: String; var company: String? }
        var lines: [String: Line] = [:]
        t = try table(linePath)
        let lCode = try CSVInput.require(t, "line_cd"), lCompany = try CSVInput.require(t, "company_cd"),
            lName = try CSVInput.require(t, "line_name")
        while let row = try t.nextRow() {
            lines[row.fields[lCode]] = Line(name: row.fields[lName], company: companies[row.fields[lCompany]])
        }

        var records: [SourceRecord] = []
        t = try table(stationPath)
        let sCode = try CSVInput.require(t, "station_cd"), sName = try CSVInput.require(t, "station_name"),
            sLine = try CSVInput.require(t, "line_cd"), sPref = try CSVInput.require(t, "pref_cd"),
            sLon = try CSVInput.require(t, "lon"), sLat = try CSVInput.require(t, "lat"),
            sStatus = try CSVInput.require(t, "e_status")
        let sKana = t.column("station_name_k")
        var skipped = SkippedRows()
        while let row = try t.nextRow() {
            guard let line = lines[row.fields[sLine]] else {
                throw row.error(column: sLine, "line \(row.fields[sLine]) is not in \(linePath)")
            }
            let lineCode = Int(row.fields[sLine]) ?? 0
            guard let place = try CSVInput.place(row, name: sName, lat: sLat, lon: sLon, skipInvalid: skipInvalid,
                                                 skipped: &skipped) else { continue }
            records.append(SourceRecord(
                source: SourceRef(dataset: Self.dataset, id: row.fields[sCode]),
                name: place.name,
                reading: CSVInput.value(row[sKana]).map(TextFold.hiragana),
                operatorName: line.company,
                serviceClass: (1001...1099).contains(lineCode) ? .shinkansen : .conventional,
                lines: [line.name], coordinate: place.coordinate,
                prefecture: Prefecture.name(code: row.fields[sPref]),
                isClosed: row.fields[sStatus].trimmingCharacters(in: .whitespaces) != "0"))
        }
        return ImportBatch(dataset: Self.dataset, records: records, skipped: skipped)
    }
}
