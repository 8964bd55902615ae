import Foundation

/// What a geocoding service says about its own failure, read from an answer body: the message of
/// a JSON error object, or the title of an HTML page. Never the raw HTML.
enum ServiceMessage {
    /// The service's message in `body`: `{"error":"…"}`, `{"error":{"message":"…"}}`,
    /// `{"message":"…"}` or `{"status":700,"message":"…"}` (Nominatim's error object, with its
    /// status), an HTML page's `<title>` (else its first heading), else the start of a plain-text
    /// body on one line; nil for an empty body or an HTML page without either.
    static func of(_ body: [UInt8]) -> String? {
        if let json = jsonMessage(body) { return json }
        let text = String(decoding: body.prefix(64 * 1024), as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("<") {
            for tag in ["title", "h1", "h2"] {
                if let t = element(tag, in: text) { return t }
            }
            return nil
        }
        let line = HTTPClient.snippet(body)
        return line.isEmpty ? nil : line
    }

    /// The typed error a 2xx answer states instead of results, or nil when it states none:
    /// a JSON error object whose message speaks of a rate limit or quota is `rateLimited`, of a
    /// key, authorisation, a block or access denied is `refused`, anything else `badRequest`;
    /// an HTML page whose title speaks of a block, access denied, a captcha or a rate limit is
    /// `refused` (or `rateLimited`). The message is the service's own.
    static func error(in body: [UInt8], contentType: String?) -> GeocodingError? {
        if let json = jsonMessage(body) {
            return classify(json) ?? .badRequest(status: nil, message: json)
        }
        let head = body.first { !(UInt8(ascii: " ") == $0 || (0x09...0x0D).contains($0)) }
        guard contentType?.lowercased().contains("html") == true || head == UInt8(ascii: "<"),
              let title = of(body) else { return nil }
        return classify(title)
    }

    private static func classify(_ message: String) -> GeocodingError? {
        let m = message.lowercased()
        if ["rate limit", "ratelimit", "too many requests", "quota", "rate-limit"].contains(where: m.contains) {
            return .rateLimited(retryAfter: nil, message: message)
        }
        if ["key", "unauthori", "forbidden", "blocked", "denied", "banned", "captcha", "not allowed"].contains(where: m.contains) {
            return .refused(status: nil, message: message)
        }
        return nil
    }

    /// The message of a top-level JSON error object, or nil when the body is not one.
    private static func jsonMessage(_ body: [UInt8]) -> String? {
        guard body.first(where: { !(UInt8(ascii: " ") == $0 || (0x09...0x0D).contains($0)) }) == UInt8(ascii: "{"),
              let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        func text(_ v: Any?) -> String? {
            if let s = v as? String, !s.isEmpty { return oneLine(s) }
            if let o = v as? [String: Any] { return text(o["message"]) ?? text(o["description"]) }
            return nil
        }
        if let e = text(object["error"]) { return e }
        if let m = text(object["message"]) {
            if let status = object["status"] as? Int { return "\(m) (status \(status))" }
            return m
        }
        if let status = object["status"] as? Int, object["lat"] == nil { return "status \(status)" }
        return nil
    }

    /// The text of the first `<tag>…</tag>` in `html`, tags inside removed, on one line.
    private static func element(_ tag: String, in html: String) -> String? {
        guard let open = html.range(of: "<\(tag)", options: .caseInsensitive),
              let close = html.range(of: ">", range: open.upperBound..<html.endIndex),
              let end = html.range(of: "</\(tag)", options: .caseInsensitive, range: close.upperBound..<html.endIndex)
        else { return nil }
        var inner = String(html[close.upperBound..<end.lowerBound])
        while let t = inner.range(of: "<[^>]*>", options: .regularExpression) { inner.replaceSubrange(t, with: " ") }
        let line = oneLine(inner)
        return line.isEmpty ? nil : line
    }

    private static func oneLine(_ s: String) -> String {
        let line = s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return line.count > 160 ? String(line.prefix(160)) + "…" : line
    }
}
