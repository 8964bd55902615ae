import EkiAccounts
import EkiServer
import EkiTestSupport
import Foundation

/// Cheap Argon2id parameters for the tests (libsodium's smallest sensible: 64 KiB, one pass):
/// the hash format and every check are the same, only the cost differs.
let cheapHasher = PasswordHasher(operations: 1, memory: 64 * 1024)

/// A logged-in client: the cookie's value and the session's CSRF token.
struct LoggedIn {
    var user: String
    var cookie: String
    var csrf: String
}

extension TestServer {
    /// A server on the sample database with an accounts file holding `users` (name, password),
    /// hashed with `cheapHasher`.
    static func withAccounts(_ users: [(String, String)] = [("alice", "alice-password"), ("bob", "bob-password")],
                             readOnly: Bool = false, limits: LoginLimits = LoginLimits(),
                             configure: ((inout MapServerConfiguration) throws -> Void)? = nil) throws -> TestServer {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("accounts.sqlite").path
        let store = try AccountStore(path: path, hasher: cheapHasher)
        for (name, password) in users { try store.addUser(name: name, password: password) }
        return try TestServer(readOnly: readOnly) { c in
            c.accountsPath = path
            c.passwordHasher = cheapHasher
            c.loginLimits = limits
            try configure?(&c)
        }
    }

    var accountsPath: String { server.configuration.accountsPath! }

    /// `POST /api/login` as the page sends it.
    func postLogin(_ user: String, _ password: String, headers: [String: String] = [:]) throws -> RawResponse {
        var h = headers
        h["Content-Type"] = h["Content-Type"] ?? "application/json"
        let body = try JSONSerialization.data(withJSONObject: ["user": user, "password": password])
        return try send("POST", "/api/login", headers: h, body: Array(body))
    }

    /// Logs in and returns the session, or nil when the login was refused.
    func login(_ user: String, _ password: String) throws -> LoggedIn? {
        let r = try postLogin(user, password)
        guard r.status == 200, let cookie = r.headers["set-cookie"].flatMap(Self.sessionValue),
              let csrf = r.object["csrf"] as? String else { return nil }
        return LoggedIn(user: user, cookie: cookie, csrf: csrf)
    }

    /// The value of `eki_session=…` in a `Set-Cookie` field.
    static func sessionValue(_ setCookie: String) -> String? {
        guard setCookie.hasPrefix("eki_session=") else { return nil }
        let v = setCookie.dropFirst("eki_session=".count).prefix { $0 != ";" }
        return v.isEmpty ? nil : String(v)
    }

    /// A GET with the session's cookie.
    func get(_ target: String, as s: LoggedIn, headers: [String: String] = [:]) throws -> RawResponse {
        var h = headers
        h["Cookie"] = "eki_session=\(s.cookie)"
        return try send("GET", target, headers: h)
    }

    /// A write as the page sends it with a session: the cookie, JSON and the CSRF token.
    func write(_ method: String, _ target: String, json: String? = nil, as s: LoggedIn,
               csrf: String? = nil, headers: [String: String] = [:]) throws -> RawResponse {
        var h = headers
        h["Cookie"] = "eki_session=\(s.cookie)"
        return try write(method, target, json: json, token: csrf ?? s.csrf, headers: h)
    }
}

extension RawResponse {
    /// `total.visited` of a `/api/stats` answer.
    var visitedTotal: Int? { (object["total"] as? [String: Any])?["visited"] as? Int }
}
