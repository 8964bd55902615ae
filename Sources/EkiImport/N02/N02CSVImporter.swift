import EkiKit

/// The 国土数値情報 鉄道データ N02 station layer as CSV (one row per station feature):
/// columns N02_001 (鉄道区分), N02_002 (事業者種別), N02_003 (路線名), N02_004 (運営会社),
/// N02_005 (駅名), N02_005c (駅コード), N02_005g (グループコード), lon, lat.
///
/// N02_002 = 1 is JR新幹線 (Shinkansen), per the 国土数値情報 N02 spec (事業者種別コード:
/// 1 JR新幹線, 2 JR在来線, 3 公営鉄道, 4 民営鉄道, 5 第三セクター). N02 has no readings and no
/// prefecture. Source ids are the station code N02_005c.
public struct N02CSVImporter: StationImporter {
    public static let dataset = "n02"
    static let requiredColumns = ["N02_002", "N02_003", "N02_004", "N02_005", "N02_005c", "lon", "lat"]

    public let path: String
    public let encoding: TextEncoding?
    /// Skip rows without a usable position or name, counted in `ImportBatch.skipped`
    /// (`--skip-invalid`), instead of refusing the file.
    public var skipInvalid = false
    /// The longest field and line read (`--max-field-bytes`, `--max-line-bytes`).
    public var limits = CSVLimits()

    public init(path: String, encoding: TextEncoding? = nil) {
        self.path = path
        self.encoding = encoding
    }

    /// True when `header` has the N02 station columns.
    public static func matches(header: [String]) -> Bool {
        requiredColumns.allSatisfy(header.contains)
    }

    /// - Throws: `ImportError` for undecodable bytes, CSV syntax errors, ragged rows, missing
    ///   columns, bad coordinates or an unknown N02_002 code.
    public func read() throws -> ImportBatch {
        var table = try CSVInput.table(path: path, encoding: encoding, maxFieldBytes: limits.maxFieldBytes,
                                       maxLineBytes: limits.maxLineBytes)
        let c = try Self.requiredColumns.map { name throws(ImportError) in try CSVInput.require(table, name) }
        let (kind, line, op, name, code, lon, lat) = (c[0], c[1], c[2], c[3], c[4], c[5], c[6])
        var records: [SourceRecord] = []
        var skipped = SkippedRows()
        while let row = try table.nextRow() {
            let k = row.fields[kind].trimmingCharacters(in: .whitespaces)
            guard let kindCode = Int(k), (1...5).contains(kindCode) else {
                throw row.error(column: kind, "'\(k)' is not an N02 事業者種別 code (1–5)")
            }
            guard let place = try CSVInput.place(row, name: name, lat: lat, lon: lon, skipInvalid: skipInvalid,
                                                 skipped: &skipped) else { continue }
            records.append(SourceRecord(
                source: SourceRef(dataset: Self.dataset, id: row.fields[code]),
                name: place.name,
                operatorName: CSVInput.key(row.fields[op]),
                serviceClass: kindCode == 1 ? .shinkansen : .conventional,
                lines: CSVInput.key(row.fields[line]).map { [$0] } ?? [],
                coordinate: place.coordinate))
        }
        var batch = ImportBatch(dataset: Self.dataset, records: records, warnings: CSVInput.blankLineWarnings(table),
                                skipped: skipped)
        batch.edition = Self.edition(path: path)
        return batch
    }

    /// The edition N02's file name gives (the data has no date of its own): `N02-23_Station.csv`
    /// → `2023-01-01`, the first day of the year MLIT names the data by (N02-YY holds the network
    /// of 20YY; the day is not stated anywhere in the file, so this is a stated default that
    /// `eki import --edition` overrides). Nil when the name has no `N02-YY`.
    public static func edition(path: String) -> String? {
        let name = Array(path.split(separator: "/").last.map(String.init)?.utf8 ?? "".utf8)
        let digit = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard name.count >= 6 else { return nil }
        for i in 0...(name.count - 6) where name[i] == UInt8(ascii: "N") && name[i + 1] == UInt8(ascii: "0")
            && name[i + 2] == UInt8(ascii: "2") && name[i + 3] == UInt8(ascii: "-")
            && digit.contains(name[i + 4]) && digit.contains(name[i + 5]) {
            if i + 6 < name.count, digit.contains(name[i + 6]) { continue }
            return "20" + String(decoding: name[(i + 4)...(i + 5)], as: UTF8.self) + "-01-01"
        }
        return nil
    }
}
