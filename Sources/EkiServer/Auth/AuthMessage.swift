import EkiKit

/// The sentences of logging in, sessions and CSRF, in Japanese and English (the `auth` case of
/// `APIMessage`). None holds a password, a session id or a token.
enum AuthMessage: Sendable, Equatable {
    case loginRequired
    case badLogin
    case tooManyAttempts(seconds: Int)
    case badCSRF
    case loginBody
    case loginMediaType

    var japanese: String {
        switch self {
        case .loginRequired: return "ログインしてください（またはAPIトークンを Authorization: Bearer で送ってください）"
        case .badLogin: return "ユーザー名かパスワードが違います"
        case .tooManyAttempts(let s): return "ログインの失敗が多すぎます。\(Self.minutes(s, ja: true))後にもう一度お試しください"
        case .badCSRF: return "書き込みには X-CSRF-Token ヘッダーにページのトークンが必要です"
        case .loginBody: return "本文は JSON のオブジェクト {\"user\": 名前, \"password\": パスワード} にしてください"
        case .loginMediaType: return "ログインは application/json で送ってください"
        }
    }

    var english: String {
        switch self {
        case .loginRequired: return "log in first (or send an API token as Authorization: Bearer)"
        case .badLogin: return "wrong user name or password"
        case .tooManyAttempts(let s): return "too many failed logins: try again in \(Self.minutes(s, ja: false))"
        case .badCSRF: return "writes need the page's token in the X-CSRF-Token header"
        case .loginBody: return "the body must be a JSON object {\"user\": NAME, \"password\": PASSWORD}"
        case .loginMediaType: return "send the login as application/json"
        }
    }

    /// `s` seconds for people: whole minutes, rounded up, or seconds under a minute.
    static func minutes(_ s: Int, ja: Bool) -> String {
        if s < 60 { return ja ? "\(s) 秒" : "\(s) s" }
        let m = (s + 59) / 60
        return ja ? "\(m) 分" : "\(m) min"
    }
}
