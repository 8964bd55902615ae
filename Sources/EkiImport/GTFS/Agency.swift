extension GTFS {
    /// One row of agency.txt: a transit operator (GTFS reference, agency.txt).
    ///
    /// In GTFS-JP (標準的なバス情報フォーマット) `agency_id` is the operator's 法人番号 (13-digit
    /// corporate number) followed by `_n` (e.g. `7140001011983_1`); it is kept, trimmed, as the
    /// entry's operator reference.
    struct Agency: Sendable {
        static let file = "agency.txt"
        /// Columns this importer reads and cannot do without (Required in the GTFS reference).
        static let required = ["agency_name"]

        /// `agency_id`, trimmed; "" when the column or value is absent (one-agency feeds).
        var id: String
        /// `agency_name`, trimmed.
        var name: String

        /// Every agency in file order. A repeated agency_id keeps the first row (warning).
        /// - Throws: `ImportError` for a missing file or column, bad encoding, or an empty
        ///   agency_name.
        static func readAll(from feed: FeedSource, warnings: inout WarningList) throws(ImportError) -> [Agency] {
            var reader = try FeedTableReader(feed: feed, name: file, required: required)
            let idColumn = reader.column("agency_id")
            let nameColumn = reader.column("agency_name")!
            var agencies: [Agency] = []
            var ids = GTFS.FirstRows(field: "agency_id")
            while let row = try reader.next() {
                let agency = Agency(id: row.text(idColumn), name: try row.requiredText(nameColumn))
                guard ids.isFirst(agency.id, line: row.line, file: reader.file, warnings: &warnings) else { continue }
                agencies.append(agency)
            }
            reader.finish(into: &warnings)
            if agencies.isEmpty {
                throw ImportError(file: reader.file, line: 2, message: "the feed has no agency")
            }
            return agencies
        }
    }
}
