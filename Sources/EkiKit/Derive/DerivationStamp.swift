/// What the entries of a database were derived with: the version of the rules and a digest of
/// every table compiled into the library that decides them (operators, sections, kinds,
/// readings, spellings, kanji variants, line names and types). Stored in `eki_meta`
/// (`derivation`) by each import; an import of the same rows as before derives the entries
/// again when the stamp differs, so a newer `eki` brings an existing database up to date with
/// its tables (a renamed spelling, a new status) at the next import.
public enum DerivationStamp {
    /// Raise when a rule changes what entries are derived from the same rows and tables.
    /// 1: the stamp is first recorded (the newer source's spellings, `StationNames`).
    /// 2: stops listed closed in `StationStatuses` are closed (スカイレール, 日田彦山線 BRT).
    /// 3: 〜 and ～ fold to one character; 丁目 numerals beyond 九 fold (十一丁目 = 11丁目).
    /// 4: a station `StationReadings` lists keeps only the readings the table gives its name.
    /// 5: an entry whose up-to-date sources place it far from N02-23's point takes theirs (三河知立).
    public static let rulesVersion = 5

    /// `rulesVersion` and a 64-bit FNV-1a digest (hex) of the compiled-in tables, e.g. `1-3f0c…`.
    public static let current: String = {
        let parts = [
            OperatorTable.builtInSourceSHA256,
            OperatorSections.builtInCSV,
            StationKinds.builtInCSV,
            StationStatuses.builtInCSV,
            StationReadings.builtInCSV,
            StationNames.builtInCSV,
            LineCommonNames.builtInSourceSHA256,
            LineDefinitions.builtInSourceSHA256,
            OperatorTypes.builtIn.map { "\($0.operatorID),\($0.type)" }.joined(separator: "\n"),
            KanjiVariants.pairs.map { "\($0.variant)\($0.standard)" }.joined(),
        ]
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for b in part.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            h = (h ^ 0x1f) &* 0x100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return "\(rulesVersion)-" + String(repeating: "0", count: 16 - hex.count) + hex
    }()
}
