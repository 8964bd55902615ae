import Foundation

/// The session cookie: its name, how it is read from `Cookie` and written in `Set-Cookie`.
enum SessionCookie {
    static let name = "eki_session"

    /// How long a browser keeps the cookie (400 days, the longest browsers allow): the server
    /// ends an idle session itself (`AccountStore.sessionIdleLimit`), so a phone stays logged
    /// in for as long as it keeps using the map.
    static let maxAge = 400 * 24 * 3600

    /// The value of `eki_session` in a `Cookie` header field, or nil.
    static func value(in header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix(name + "=") {
                let v = String(pair.dropFirst(name.count + 1))
                return v.isEmpty ? nil : v
            }
        }
        return nil
    }

    /// `Set-Cookie` for a new session: `HttpOnly` (no script reads it), `SameSite=Lax` (no
    /// other site's request carries it, except a top-level link), `Secure` over HTTPS.
    static func set(_ id: String, secure: Bool) -> String {
        "\(name)=\(id); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax\(secure ? "; Secure" : "")"
    }

    /// `Set-Cookie` that removes the cookie (logout).
    static func clear(secure: Bool) -> String {
        "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax\(secure ? "; Secure" : "")"
    }
}
