import EkiKit
import Foundation

/// The CSV profiles `eki import --profile` accepts.
public enum CSVProfile: String, CaseIterable, Sendable {
    /// 国土数値情報 N02 station CSV (`N02CSVImporter`).
    case n02
    /// station_database (`StationDatabaseImporter`).
    case stationDatabase = "station-database"
    /// 駅データ.jp (`EkidataImporter`).
    case ekidata
    /// Any CSV with a column map (`GenericCSVImporter`).
    case generic

    /// The profile a CSV file's header shows, or nil when it fits none of the specific ones
    /// (the caller then uses `generic`). Reads only the first line.
    public static func detect(path: String, encoding: TextEncoding?) throws(ImportError) -> CSVProfile? {
        let bytes = try CSVInput.readBytes(path)
        let firstLine = Array(bytes.prefix { $0 != 0x0A })
        let decoded = try TextDecoding.decode(firstLine, file: path, encoding: encoding)
        var reader = CSVReader(bytes: decoded.bytes, file: path)
        guard let header = try reader.nextRecord()?.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) else {
            return nil
        }
        if N02CSVImporter.matches(header: header) { return .n02 }
        if StationDatabaseImporter.matches(header: header) { return .stationDatabase }
        if EkidataImporter.matches(header: header) { return .ekidata }
        return nil
    }
}
