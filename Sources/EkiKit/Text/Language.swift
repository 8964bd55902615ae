import Foundation

/// The language of the words a person reads: Japanese by default, English when asked —
/// `--lang en` on the command line, the browser's `Accept-Language` on the page and the API.
public enum Language: String, Sendable, CaseIterable {
    case ja
    case en

    /// A language tag as `--lang` takes it: `ja`, `en`, or either with a region (`en-GB`,
    /// `ja_JP`), case-insensitive. nil for anything else.
    public init?(tag: String) {
        let primary = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        guard let l = Language(rawValue: primary) else { return nil }
        self = l
    }

    /// The supported language an HTTP `Accept-Language` field prefers (RFC 9110 §12.5.4): the
    /// highest `q` among `ja` / `en` ranges (region ignored; `*` means Japanese), earliest on a
    /// tie; Japanese when the field is absent or names neither.
    public init(acceptLanguage field: String?) {
        var best: (language: Language, q: Double)?
        for item in (field ?? "").split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first, !range.isEmpty else { continue }
            var q = 1.0
            for p in parts.dropFirst() where p.lowercased().hasPrefix("q=") {
                q = Double(p.dropFirst(2)) ?? 0
            }
            guard q > 0, let l = range == "*" ? .ja : Language(tag: range) else { continue }
            if best == nil || q > best!.q { best = (l, q) }
        }
        self = best?.language ?? .ja
    }
}
