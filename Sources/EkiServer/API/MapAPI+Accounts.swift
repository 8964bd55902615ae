import EkiAccounts
import EkiKit
import Foundation

/// Who is calling: the person whose visits every API call reads and writes.
///
/// A handler reads the caller's visits with `readers.with { ctx in try ctx.snapshot(owner:
/// caller.owner) { visited in … } }` (and `ctx.log(of: caller.owner)` for the log itself) and
/// writes them with `writer.write(owner: caller.owner) { log in … }`.
struct Caller: Sendable, Equatable {
    /// The owner of the visits: the user id with accounts, 0 for the single visit log.
    var owner: Int64
    /// The account name; nil without accounts.
    var user: String?
    /// Authenticated by an API token (`Authorization: Bearer`): writes need no CSRF token.
    var viaToken: Bool
    /// The token a write must send in `X-CSRF-Token` (the session's, or the per-start one
    /// without accounts); nil with an API token.
    var csrf: String?
    /// The session id the cookie held (for logout); nil otherwise.
    var sessionID: String?
}

/// `POST /api/login`, `POST /api/logout`, `GET /api/session`, and who a request is.
extension MapAPI {
    static let csrfHeader = "x-csrf-token"

    /// The caller of `r`. Without accounts: owner 0 and the per-start token. With accounts: the
    /// account of the `Authorization: Bearer TOKEN` field when there is one, else of the
    /// `eki_session` cookie.
    /// - Throws: `APIError` 401 `login_required` when neither names a live session or token
    ///   (an unknown, expired or forged value, a token in another field or scheme).
    func caller(_ r: HTTPRequest) throws(APIError) -> Caller {
        guard let auth = authenticator else { return Caller(owner: 0, user: nil, viaToken: false, csrf: token, sessionID: nil) }
        let required = APIError(401, "login_required", .auth(.loginRequired))
        do {
            if let field = r.headers["authorization"] {
                let parts = field.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "bearer",
                      let user = try auth.user(forToken: String(parts[1]).trimmingCharacters(in: .whitespaces)) else { throw required }
                return Caller(owner: user.id, user: user.name, viaToken: true, csrf: nil, sessionID: nil)
            }
            guard let id = SessionCookie.value(in: r.headers["cookie"]), let s = try auth.session(id: id) else { throw required }
            return Caller(owner: s.user.id, user: s.user.name, viaToken: false, csrf: s.csrf, sessionID: id)
        } catch let e as APIError {
            throw e
        } catch {
            throw APIError(500, "internal", .internalError("the accounts file cannot be read"))
        }
    }

    /// A write (POST, DELETE) may go ahead: not read-only, and with a cookie session (or
    /// without accounts) the `X-CSRF-Token` field equals the caller's token. A request with an
    /// API token needs none: no browser adds that field on its own.
    /// - Throws: `APIError` 403 `read_only`, 403 `bad_csrf`.
    func checkWrite(_ r: HTTPRequest, _ caller: Caller) throws(APIError) {
        if configuration.readOnly { throw APIError(403, "read_only", .readOnly) }
        if caller.viaToken { return }
        guard let expected = caller.csrf, let sent = r.headers[Self.csrfHeader], SecretToken.equal(sent, expected) else {
            throw APIError(403, "bad_csrf", .auth(.badCSRF))
        }
    }

    /// `POST /api/login` with `{"user": NAME, "password": PASSWORD}` (JSON): 200 `{"user",
    /// "csrf"}` and the `eki_session` cookie of a new session; 401 `bad_login` for a wrong pair
    /// or an unknown name (the same answer, after as long); 429 `too_many_attempts` with
    /// `Retry-After` past the limits; 415 for another media type (a plain HTML form cannot log
    /// anyone in). Without accounts: 404.
    func login(_ r: HTTPRequest) throws -> HTTPResponse {
        guard let auth = authenticator else { throw APIError(404, "not_found", .noAPI(r.rawPath)) }
        guard (r.headers["content-type"] ?? "").lowercased().hasPrefix("application/json") else {
            throw APIError(415, "unsupported_media_type", .auth(.loginMediaType))
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(r.body)), let fields = object as? [String: Any],
              let name = fields["user"] as? String, let password = fields["password"] as? String,
              Set(fields.keys).isSubset(of: ["user", "password"]) else {
            throw APIError.bad(.auth(.loginBody))
        }
        switch try auth.login(name: name, password: password, address: r.clientAddress,
                              previous: SessionCookie.value(in: r.headers["cookie"])) {
        case .limited(let seconds):
            var response = APIError(429, "too_many_attempts", .auth(.tooManyAttempts(seconds: seconds))).response(r.language)
            response.headers.append(("Retry-After", String(seconds)))
            return response
        case .refused:
            throw APIError(401, "bad_login", .auth(.badLogin))
        case .success(let user, let session):
            var out: [UInt8] = []
            JSONBytes.append("{\"user\":", to: &out); JSONBytes.appendQuoted(user.name, to: &out)
            JSONBytes.append(",\"csrf\":", to: &out); JSONBytes.appendQuoted(session.csrf, to: &out)
            out.append(UInt8(ascii: "}"))
            var response = HTTPResponse.json(out)
            response.headers.append(("Set-Cookie", SessionCookie.set(session.id, secure: r.isTLS)))
            return response
        }
    }

    /// `POST /api/logout` (a session and its CSRF token): ends the session; 200 `{}` and the
    /// cookie cleared. Without accounts: 404.
    func logout(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        guard let auth = authenticator else { throw APIError(404, "not_found", .noAPI(r.rawPath)) }
        if let id = caller.sessionID { try auth.endSession(id: id) }
        var response = HTTPResponse.json("{}")
        response.headers.append(("Set-Cookie", SessionCookie.clear(secure: r.isTLS)))
        return response
    }

    /// `GET /api/session`: `{"user": NAME|null, "csrf": TOKEN|null, "accounts": BOOL}` for the
    /// caller (csrf null with an API token); 401 `login_required` with accounts and no session.
    func sessionInfo(_ caller: Caller) -> HTTPResponse {
        var out: [UInt8] = []
        JSONBytes.append("{\"user\":", to: &out); JSONBytes.appendOptional(caller.user, to: &out)
        JSONBytes.append(",\"csrf\":", to: &out); JSONBytes.appendOptional(caller.csrf, to: &out)
        JSONBytes.append(",\"accounts\":\(authenticator != nil)}", to: &out)
        return .json(out)
    }

    /// `GET /login`: the login page; 303 to `/` when the caller has a session already or the
    /// server has no accounts.
    func loginPage(_ r: HTTPRequest) throws(APIError) -> HTTPResponse {
        if authenticator == nil || (try? caller(r)) != nil { return Self.redirect("/") }
        return try staticFile("/login.html", language: r.language)
    }

    /// 303 See Other to `location`.
    static func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 303, headers: [("Location", location), ("Cache-Control", "no-store"),
                                            ("Content-Type", "text/plain; charset=utf-8")], body: Array("\(location)\n".utf8))
    }
}
