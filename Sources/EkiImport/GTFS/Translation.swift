extension GTFS {
    /// translations.txt, in both layouts, reduced to the translations of stop names:
    /// - current GTFS (reference, translations.txt):
    ///   `table_name,field_name,language,translation,record_id,record_sub_id,field_value`,
    ///   a row applying to one record (`record_id` = stop_id) or to every record whose field
    ///   has the text `field_value`;
    /// - old GTFS-JP (版1/版2, from Google's former proposal): `trans_id,lang,translation`,
    ///   where `trans_id` is the original text (the stop name itself).
    ///
    /// Language tags are compared case-insensitively (`ja-Hrkt` = `ja-hrkt`).
    struct Translations: Sendable {
        static let file = "translations.txt"
        /// The columns of the current layout this importer needs.
        static let currentColumns = ["table_name", "field_name", "language", "translation"]
        /// The columns of the old layout.
        static let oldColumns = ["trans_id", "lang", "translation"]

        private struct Key: Hashable {
            var language: String
            var text: String
        }
        /// stops.stop_name by record_id (stop_id).
        private var byStopId: [Key: String] = [:]
        /// stops.stop_name by field_value (the name).
        private var byStopName: [Key: String] = [:]
        /// Old layout: any text.
        private var byText: [Key: String] = [:]

        /// No translations.
        static let empty = Translations()

        /// The translation of a stop's name into `language`: by its stop_id, else by its name
        /// (current layout), else by its name in the old layout; nil when there is none.
        func stopName(id: String, name: String, language: String) -> String? {
            let lang = language.lowercased()
            return byStopId[Key(language: lang, text: id)]
                ?? byStopName[Key(language: lang, text: name)]
                ?? byText[Key(language: lang, text: name)]
        }

        /// Reads translations.txt; `.empty` when the feed has none.
        /// - Throws: `ImportError` for bad encoding, CSV errors, or a header that matches
        ///   neither layout (naming the first missing column of the current one).
        static func read(from feed: FeedSource, warnings: inout WarningList) throws(ImportError) -> Translations {
            guard feed.contains(file) else { return .empty }
            var reader = try FeedTableReader(feed: feed, name: file, required: [])
            var result = Translations()
            if currentColumns.allSatisfy({ reader.column($0) != nil }) {
                let table = reader.column("table_name")!, field = reader.column("field_name")!
                let language = reader.column("language")!, translation = reader.column("translation")!
                let record = reader.column("record_id"), value = reader.column("field_value")
                while let row = try reader.next() {
                    guard row.text(table) == "stops", row.text(field) == "stop_name" else { continue }
                    let text = row.text(translation)
                    if text.isEmpty { continue }
                    let lang = row.text(language).lowercased()
                    let id = row.text(record)
                    if !id.isEmpty {
                        result.byStopId[Key(language: lang, text: id)] = text
                    } else if !row.text(value).isEmpty {
                        result.byStopName[Key(language: lang, text: row.text(value))] = text
                    }
                }
            } else if oldColumns.allSatisfy({ reader.column($0) != nil }) {
                let source = reader.column("trans_id")!, language = reader.column("lang")!
                let translation = reader.column("translation")!
                while let row = try reader.next() {
                    let text = row.text(translation)
                    if text.isEmpty { continue }
                    result.byText[Key(language: row.text(language).lowercased(), text: row.text(source))] = text
                }
            } else {
                let missing = currentColumns.first { reader.column($0) == nil }!
                throw ImportError(file: reader.file, line: 1, field: missing,
                                  message: "required column is missing (translations.txt has neither the current layout nor the old trans_id,lang,translation)")
            }
            reader.finish(into: &warnings)
            return result
        }
    }
}
