import EkiKit

/// `--lang ja|en`: the language of what `eki visit share` and `eki render` make for people to
/// read (the text, the picture's words). Japanese by default; the command's own status lines
/// and errors stay English.
enum LanguageOption {
    static let valued: Set<String> = ["lang"]
    static let help = "  --lang ja|en       the language of the words shown (default ja: 日本語; en: English)\n"

    /// `--lang`, else Japanese.
    /// - Throws: `UsageError` for a value that is neither `ja` nor `en` (a region is ignored: `en-GB`).
    static func parse(_ args: Arguments) throws(UsageError) -> Language {
        guard let tag = args["lang"] else { return .ja }
        guard let language = Language(tag: tag) else { throw UsageError("--lang must be ja or en, got '\(tag)'") }
        return language
    }
}
