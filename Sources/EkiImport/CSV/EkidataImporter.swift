import EkiKit
import Foundation

/// 駅データ.jp (ekidata) CSV: a station file (`station_cd,station_g_cd,station_name,…,line_cd,
/// pref_cd,…,lon,lat,…,e_status`), with the line file (`line_cd,company_cd,line_name,…`) and
/// the company file (`company_cd,rr_cd,company_name,…`) beside it; the join file is not needed.
///
/// Every station row already belongs to one line. Line codes 1001–1099 (4-digit codes starting
/// 10) are the 新幹線 lines (Shinkansen), per ekidata's line code table. `e_status` 0 is open,
/// 1 not yet open, 2 closed (1 and 2 are kept and marked closed). The reading comes from
/// `station_name_k` where the (paid) file has it.
public struct EkidataImporter: StationImporter {
    public static let dataset = "ekidata"
    public let stationPath: String, linePath: String, companyPath: String
    public let encoding: TextEncoding?
    /// Skip station rows without a usable position or name, counted in
    /// `ImportBatch.skipped` (`--skip-invalid`), instead of refusing the file.
    public var skipInvalid = false
    /// The longest field and line read (`--max-field-bytes`, `--max-line-bytes`).
    public var limits = CSVLimits()

    /// - Parameter path: the station file, or a folder holding the station, line and company
    ///   files (recognised by their headers, whatever their dated names).
    /// - Throws: `ImportError` when one of the three files cannot be found.
    public init(path: String, encoding: TextEncoding? = nil) throws(ImportError) {
        var isDir: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
        let dir = isFolder ? path : (path as NSString).deletingLastPathComponent
        let base = dir.isEmpty ? "." : dir
        let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [])
            .filter { $0.lowercased().hasSuffix(".csv") }.sorted()
            .map { (base as NSString).appendingPathComponent($0) }
        func find(_ firstColumns: String) -> String? {
            candidates.first { p in
                guard let h = try? CSVInput.readHead(p, count: 200) else { return false }
                var bytes = Array(h)
                if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
                return bytes.starts(with: Array(firstColumns.utf8))
            }
        }
        guard let station = isFolder ? find("station_cd,station_g_cd") : path else {
            throw ImportError(file: base, message: "no ekidata station file (header station_cd,station_g_cd,…) here")
        }
        guard let line = find("line_cd,company_cd") else {
            throw ImportError(file: base, message: "ekidata needs the line file (header line_cd,company_cd,…) beside the station file")
        }
        guard let company = find("company_cd,rr_cd") else {
            throw ImportError(file: base, message: "ekidata needs the company file (header company_cd,rr_cd,…) beside the station file")
        }
        stationPath = station
        linePath = line
        companyPath = company
        self.encoding = encoding
    }

    /// The three files named one by one; a line or company file left nil is looked for beside
    /// the station file by its header.
    /// - Throws: `ImportError` when a file left nil cannot be found.
    public init(station: String, line: String? = nil, company: String? = nil,
                encoding: TextEncoding? = nil) throws(ImportError) {
        if let line, let company {
            (stationPath, linePath, companyPath) = (station, line, company)
        } else {
            let found = try EkidataImporter(path: station, encoding: encoding)
            (stationPath, linePath, companyPath) = (station, line ?? found.linePath, company ?? found.companyPath)
        }
        self.encoding = encoding
    }

    /// The ekidata file a CSV header belongs to, or nil.
    public enum File: String, Sendable { case station, line, company }

    /// Which ekidata file `header` is the header of.
    public static func file(forHeader header: [String]) -> File? {
        if matches(header: header) { return .station }
        if header.starts(with: ["line_cd", "company_cd"]) { return .line }
        if header.starts(with: ["company_cd", "rr_cd"]) { return .company }
        return nil
    }

    /// True when `header` is an ekidata station file header.
    public static func matches(header: [String]) -> Bool {
        header.starts(with: ["station_cd", "station_g_cd"])
    }

    private func table(_ path: String) throws(ImportError) -> CSVTable {
        try CSVInput.table(path: path, encoding: encoding, maxFieldBytes: limits.maxFieldBytes, maxLineBytes: limits.maxLineBytes)
    }

    public func read() throws -> ImportBatch {
        var companies: [String: String] = [:]
        var t = try table(companyPath)
        let cCode = try CSVInput.require(t, "company_cd"), cName = try CSVInput.require(t, "company_name")
        while let row = try t.nextRow() { companies[row.fields[cCode]] = CSVInput.value(row.fields[cName]) }

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
