import EkiKit
import EkiPhotos

/// Every sentence the API answers an error with, in Japanese and in English: the one catalog
/// behind the `message` of `{"error": code, "message": …}`. Which language a request gets is
/// `Language(acceptLanguage:)` of its `Accept-Language` field (Japanese unless English is
/// preferred); the `error` codes do not change with it.
enum APIMessage: Sendable, Equatable {
    // Parameters.
    case badPercentEncoding
    case unknownParameter(String, allowed: [String])
    case required(String)
    case bboxRequired
    case wholeNumber(String, min: Int, max: Int, got: String)
    case number(String, min: Double, max: Double, got: String)
    /// `name` must be one of `options` (or null when `orNull`), got `got`.
    case oneOf(String, [String], orNull: Bool = false, got: String)
    case point(String, got: String)
    case badBBox(text: String, reason: String)
    case tooManyCells(Int, max: Int)
    // Hosts, methods, writes.
    case foreignHost(String)
    case foreignOrigin(String)
    case readOnly
    /// Logging in, sessions, CSRF (`AuthMessage`).
    case auth(AuthMessage)
    case methodNotAllowed(String, path: String)
    case noAPI(String)
    case noFile(String)
    case tooLarge(what: Part, limit: Int)
    // Things that are not there.
    case unknownStation(String)
    case unknownVisit(Int64)
    case unknownPhoto(Int64)
    case unknownLine(String)
    // Visits.
    case mediaType
    case bodyNotObject
    /// A JSON body that is not JSON, and where the parser stopped.
    case notJSON(JSONSyntaxError)
    case unknownField(String, allowed: [String])
    case notAString(String)
    case badDate(text: String, noSuchDate: Bool, reason: String)
    case badVisitID(String)
    case duplicateVisit(id: Int64, key: String, date: String, kind: String?)
    // Photos.
    case badPhotoID(String)
    case photoMediaType(String)
    case photo(PhotoError)
    // Sync.
    case syncBatch(VisitSyncError)
    // Services.
    case searchIndex(String)
    case badProvider(String)
    case placeNotFound(String)
    case geocoderRefused(String)
    case geocoderFailed(String)
    case internalError(String)
    /// The server is stopping (503).
    case stopping

    /// The parts of a request `tooLarge` names.
    enum Part: Sendable, Equatable { case target, headers, body }

    /// The sentence in `language`.
    func text(_ language: Language) -> String {
        language == .en ? english : japanese
    }

    var japanese: String {
        switch self {
        case .badPercentEncoding: return "問い合わせのパラメーターが正しいパーセントエンコードの UTF-8 ではありません"
        case .unknownParameter(let p, let allowed):
            return "パラメーター「\(p)」は使えません（使えるのは \(allowed.joined(separator: "、"))）"
        case .required(let p): return "パラメーター「\(p)」が必要です"
        case .bboxRequired: return "パラメーター「bbox」が必要です（最小経度,最小緯度,最大経度,最大緯度）"
        case .wholeNumber(let p, let lo, let hi, let got): return "「\(p)」には \(lo)〜\(hi) の整数を指定してください（「\(got)」は使えません）"
        case .number(let p, let lo, let hi, let got): return "「\(p)」には \(lo)〜\(hi) の数を指定してください（「\(got)」は使えません）"
        case .oneOf(let p, let options, let orNull, let got):
            return "「\(p)」には \(options.joined(separator: "、"))\(orNull ? "、null" : "") のどれかを指定してください（「\(got)」は使えません）"
        case .point(let p, let got): return "「\(p)」には 緯度,経度 を度で指定してください（緯度が先。「\(got)」は読めません）"
        case .badBBox(let text, _): return "bbox「\(text)」が読めません（最小経度,最小緯度,最大経度,最大緯度 の 4 つの数を度で）"
        case .tooManyCells(let n, let max): return "この範囲とズームではセルが \(n) 個になります（最大 \(max) 個）: 範囲を狭めるかズームを下げてください"
        case .foreignHost(let h): return "Host「\(h)」はこのサーバーの名前ではありません（ほかの名前でも受けるには --host NAME を付けて起動します）"
        case .foreignOrigin(let o): return "「\(o)」からの要求はお断りしています"
        case .readOnly: return "サーバーは --read-only で起動しています: 記録は変更できません"
        case .stopping: return "サーバーを停止しています: しばらくしてからもう一度送ってください"
        case .auth(let m): return m.japanese
        case .methodNotAllowed(let m, let path): return "\(path) に \(m) は使えません"
        case .noAPI(let path): return "\(path) という API はありません"
        case .noFile(let path): return "\(path) というファイルはありません"
        case .tooLarge(let part, let limit):
            let what = part == .target ? "要求の URL" : part == .headers ? "ヘッダー" : "本文"
            return "\(what)が \(limit) バイトを超えています"
        case .unknownStation(let key): return "キー「\(key)」の駅はありません"
        case .unknownVisit(let id): return "ID \(id) の記録はありません"
        case .unknownPhoto(let id): return "ID \(id) の写真はありません"
        case .badPhotoID(let t): return "写真の ID は 1 以上の整数です（「\(t)」は使えません）"
        case .photoMediaType(let t): return "写真は image/* で送ってください（\(t.isEmpty ? "Content-Type がありません" : "「\(t)」は使えません")）"
        case .photo(let e): return Self.japanese(e)
        case .unknownLine(let id): return "ID「\(id)」の路線はありません"
        case .mediaType: return "記録は application/json で送ってください"
        case .bodyNotObject: return "本文は JSON のオブジェクト {key, date, kind, note} にしてください"
        case .notJSON(let e): return "本文が JSON ではありません（\(e.line) 行 \(e.column) 列目: \(e.reason)）"
        case .unknownField(let f, let allowed): return "項目「\(f)」は使えません（使えるのは \(allowed.joined(separator: "、"))）"
        case .notAString(let f): return "「\(f)」は文字列か null にしてください"
        case .badDate(let text, let noSuchDate, _):
            return noSuchDate ? "日付「\(text)」は存在しません"
                : "日付「\(text)」が読めません（YYYY、YYYY-MM、YYYY-MM-DD、YYYY/M/D、YYYY年M月D日 の形で）"
        case .badVisitID(let t): return "記録の ID は 1 以上の整数です（「\(t)」は使えません）"
        case .duplicateVisit(let id, let key, let date, let kind):
            let how = ["board": "乗車", "alight": "降車", "transfer": "乗換", "pass": "通過"]
            return "\(key) の \(date)\(kind.map { "（\(how[$0] ?? $0)）" } ?? "")はすでに記録 \(id) にあります"
        case .syncBatch(let e): return Self.japanese(e)
        case .searchIndex(let why): return "検索索引が読めません: \(why)"
        case .badProvider(let why): return "「provider」が読めません: \(why)"
        case .placeNotFound(let q): return "「\(q)」に当たる地点は見つかりません"
        case .geocoderRefused(let why): return "地点検索の問い合わせが受け付けられませんでした: \(why)"
        case .geocoderFailed(let why): return "地点検索のサービスから答えが得られません: \(why)"
        case .internalError(let why): return "サーバー内部のエラーです: \(why)"
        }
    }

    var english: String {
        switch self {
        case .badPercentEncoding: return "a query parameter is not valid percent-encoded UTF-8"
        case .unknownParameter(let p, let allowed): return "unknown parameter '\(p)' (allowed: \(allowed.joined(separator: ", ")))"
        case .required(let p): return "parameter '\(p)' is required"
        case .bboxRequired: return "parameter 'bbox' is required (minLon,minLat,maxLon,maxLat)"
        case .wholeNumber(let p, let lo, let hi, let got): return "'\(p)' needs a whole number \(lo)…\(hi), got '\(got)'"
        case .number(let p, let lo, let hi, let got): return "'\(p)' needs a number in \(lo)…\(hi), got '\(got)'"
        case .oneOf(let p, let options, let orNull, let got):
            if orNull { return "'\(p)' must be one of \(options.joined(separator: ", ")) or null, got '\(got)'" }
            let list = options.count <= 3 ? options.dropLast().joined(separator: ", ") + " or " + options.last!
                : "one of " + options.joined(separator: ", ")
            return "'\(p)' must be \(list), got '\(got)'"
        case .point(let p, let got): return "'\(p)' needs LAT,LON in degrees (latitude first), got '\(got)'"
        case .badBBox(let text, let reason): return "invalid bbox '\(text)': \(reason)"
        case .tooManyCells(let n, let max): return "the box holds \(n) cells at this zoom (at most \(max)): narrow it or zoom out"
        case .foreignHost(let h): return "Host '\(h)' is not a name of this server (start it with --host NAME to answer to another name)"
        case .foreignOrigin(let o): return "requests from '\(o)' are refused"
        case .readOnly: return "the server was started with --read-only"
        case .stopping: return "the server is stopping: send again in a moment"
        case .auth(let m): return m.english
        case .methodNotAllowed(let m, let path): return "\(m) is not allowed on \(path)"
        case .noAPI(let path): return "no API at \(path)"
        case .noFile(let path): return "no file at \(path)"
        case .tooLarge(let part, let limit):
            let what = part == .target ? "the request target" : part == .headers ? "the header fields" : "the body"
            return "\(what) is longer than \(limit) bytes"
        case .unknownStation(let key): return "no entry with key '\(key)'"
        case .unknownVisit(let id): return "no visit with id \(id)"
        case .unknownPhoto(let id): return "no photo with id \(id)"
        case .badPhotoID(let t): return "a photo id is a whole number ≥ 1, got '\(t)'"
        case .photoMediaType(let t): return "send the photo as image/* (\(t.isEmpty ? "no Content-Type" : "got '\(t)'"))"
        case .photo(let e): return e.description
        case .unknownLine(let id): return "no line with id '\(id)'"
        case .mediaType: return "send the visit as application/json"
        case .bodyNotObject: return "the body must be a JSON object {key, date, kind, note}"
        case .notJSON(let e): return "the body is not JSON: \(e)"
        case .unknownField(let f, let allowed): return "unknown field '\(f)' (allowed: \(allowed.joined(separator: ", ")))"
        case .notAString(let f): return "'\(f)' must be a string or null"
        case .badDate(let text, _, let reason): return "invalid date '\(text)': \(reason)"
        case .badVisitID(let t): return "a visit id is a whole number ≥ 1, got '\(t)'"
        case .duplicateVisit(let id, let key, let date, let kind):
            return "visit \(id) already records \(key) on \(date)\(kind.map { " (\($0))" } ?? "")"
        case .syncBatch(let e): return e.description
        case .searchIndex(let why): return why
        case .badProvider(let why): return "'provider': \(why)"
        case .placeNotFound(let q): return "no place found for '\(q)'"
        case .geocoderRefused(let why), .geocoderFailed(let why): return why
        case .internalError(let why): return why
        }
    }
}

extension APIMessage {
    /// A refused sync batch, in Japanese (the field names stay as sent).
    static func japanese(_ e: VisitSyncError) -> String {
        switch e {
        case .notJSON(let j): return APIMessage.notJSON(j).japanese
        case .malformed(let index?, let field?, _): return "同期の変更 \(index) 番目の「\(field)」が正しくありません"
        case .malformed(_, let field?, _): return "同期の要求の「\(field)」が正しくありません"
        case .malformed: return "同期の要求は JSON オブジェクト {since, changes} で送ってください"
        case .duplicateID(let id, let a, let b): return "同期の変更 \(a) 番目と \(b) 番目が同じ id \(id) です"
        case .tooMany(let n, let limit): return "同期の変更が \(n) 件あります（1 回に \(limit) 件まで）"
        }
    }

    /// The message for a date `VisitDate(parsing:)` refused.
    static func date(_ e: VisitDate.ParseError) -> APIMessage {
        .badDate(text: e.text, noSuchDate: e.isNoSuchDate, reason: e.reason)
    }

    /// The message for a box `BoundingBox(parsing:)` refused.
    static func bbox(_ e: BoundingBox.ParseError) -> APIMessage { .badBBox(text: e.text, reason: e.reason) }

    /// A refused photo in Japanese (`PhotoError.description` is the English).
    static func japanese(_ e: PhotoError) -> String {
        let f = e.source
        switch e.reason {
        case .empty: return "\(f): ファイルが空です（0 バイト）"
        case .inputTooLarge(let b, let l): return "\(f): \(b) バイトは写真の上限 \(l) バイトを超えています"
        case .notAnImage: return "\(f): 画像ではありません（JPEG・PNG・WebP・HEIC を送ってください）"
        case .unsupported(let name): return "\(f): \(name) 形式の画像は受け付けません（JPEG・PNG・WebP・HEIC を送ってください）"
        case .tooManyPixels(let w, let h, let l): return "\(f): \(w) × \(h) ピクセルは上限 \(l / 1_000_000) メガピクセルを超えています"
        case .broken(let why): return "\(f): 画像を読めません（\(why)）"
        case .timedOut(let s): return "\(f): 読み込みが \(s) 秒を超えたので止めました"
        case .tooLargeAtFloor(let b, let l, let side): return "\(f): \(side) px・最低画質でも \(b) バイトで、上限 \(l) バイトを超えます"
        case .notAStoredPhoto(let why): return "\(f): 保存形式の写真ではありません（\(why)）"
        }
    }
}
