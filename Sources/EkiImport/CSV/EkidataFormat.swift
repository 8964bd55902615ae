import EkiKit

/// 駅データ.jp (`EkidataImporter`): a folder holding its station file, or its files named one
/// by one (station, line, company; recognised by their headers, `EkidataImporter.fileSet`).
/// Yes for either, no otherwise.
public struct EkidataFormat: CSVFileSetFormat {
    public typealias Importer = EkidataImporter
    public init() {}
    public var name: String { "ekidata" }
    public var reads: String { "駅データ.jp: a folder with the station, line and company files, or the station file (line and company files beside it or given too)" }
}
