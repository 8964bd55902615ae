import EkiKit
import Foundation

/// `eki visit sync`: merges a visit log with a person's account on an `eki serve --accounts`
/// server over `POST /api/sync` (libcurl, as the geocoder's requests).
///
/// One sync: the log's changes since the last sync with that server are sent in batches of at
/// most `VisitSyncBatch.maxChanges`, each with an API token (`Authorization: Bearer`, from
/// `eki user token NAME`); the server's answer is merged into the log and its cursor noted, in
/// one transaction per batch. A batch whose answer does not arrive (server stopped, network
/// gone) is sent again, up to `attempts` times: the server merges a batch whole or not at all
/// and a batch sent twice changes nothing, so a retry never doubles a visit.
public struct VisitSyncClient {
    /// The server's address, `http(s)://HOST:PORT` (a trailing slash or `/api/sync` is taken off).
    public let server: String
    let token: String
    let caFile: String?
    let attempts: Int
    let retryPause: Double
    let curl: CurlEasy

    /// - Parameters:
    ///   - caFile: PEM certificates to trust instead of the system's (a self-signed server).
    ///   - attempts: sends of one batch before giving up (≥ 1); `retryPause` seconds between, doubling.
    /// - Throws: `GeocodingError.transport` when libcurl cannot start.
    public init(server: String, token: String, caFile: String? = nil, attempts: Int = 4, retryPause: Double = 0.5,
                userAgent: String = GeocoderConfiguration.userAgent(contact: nil)) throws(GeocodingError) {
        var s = server
        if s.hasSuffix("/api/sync") { s.removeLast("/api/sync".count) }
        while s.hasSuffix("/") { s.removeLast() }
        self.server = s
        self.token = token
        self.caFile = caFile
        self.attempts = max(1, attempts)
        self.retryPause = retryPause
        curl = try CurlEasy(settings: TransferSettings(userAgent: userAgent, connectTimeout: 5, timeout: 60,
                                                       maxResponseBytes: 64 << 20, maxRedirects: 0))
    }

    /// What one `sync(_:)` did.
    public struct Report: Sendable, Equatable {
        /// Local changes sent (live visits and removals).
        public var sent = 0
        /// Changes the server sent back, and how many of them changed the log.
        public var received = 0, applied = 0
        /// Batches sent again after a failure.
        public var retries = 0
    }

    /// Syncs `log` with the account the token belongs to.
    /// - Throws: `VisitSyncClientError` (the server's status and message, or the transport
    ///   failure after the last attempt); the log keeps every batch merged before the failure.
    public func sync(_ log: VisitLog) throws -> Report {
        var report = Report()
        var peer = try log.syncPeer(server)
        repeat {
            let (changes, through) = try log.changes(since: peer.sentSequence, limit: VisitSyncBatch.maxChanges)
            let answer = try send(VisitSyncBatch(since: peer.cursor, changes: changes), report: &report)
            report.sent += changes.count
            report.received += answer.changes.count
            report.applied += try log.receive(answer.changes, from: server, cursor: answer.cursor, sentThrough: through)
            let last = peer.sentSequence
            peer = try log.syncPeer(server)
            if changes.count < VisitSyncBatch.maxChanges || peer.sentSequence == last { break }
        } while true
        return report
    }

    func send(_ batch: VisitSyncBatch, report: inout Report) throws -> VisitSyncAnswer {
        var pause = retryPause
        for attempt in 1...attempts {
            do {
                let r = try curl.post(server + "/api/sync", body: batch.json,
                                      headers: ["Content-Type: application/json", "Accept: application/json",
                                                "Authorization: Bearer \(token)"], caFile: caFile)
                switch r.status {
                case 200:
                    do { return try VisitSyncAnswer(json: r.body) } catch { throw VisitSyncClientError.badAnswer(error.description) }
                case 500..<600 where attempt < attempts:
                    break
                default:
                    throw VisitSyncClientError.refused(status: r.status, message: Self.message(r.body))
                }
            } catch let e as GeocodingError {
                switch e {
                case .unavailable, .timedOut:
                    if attempt == attempts { throw VisitSyncClientError.unreachable(server, e.description, attempts: attempts) }
                case .transport(code: 60, _) where caFile == nil:
                    throw VisitSyncClientError.failed(server, e.description + "; for a self-signed server give --cacert PEM")
                default:
                    throw VisitSyncClientError.failed(server, e.description)
                }
            }
            report.retries += 1
            Thread.sleep(forTimeInterval: pause)
            pause *= 2
        }
        throw VisitSyncClientError.unreachable(server, "no answer", attempts: attempts)
    }

    /// The `message` (else `error`) of a JSON error answer; the start of the body otherwise.
    static func message(_ body: [UInt8]) -> String {
        if let o = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] {
            if let m = o["message"] as? String { return m }
            if let e = o["error"] as? String { return e }
        }
        return HTTPClient.snippet(body)
    }
}

/// Why `eki visit sync` failed.
public enum VisitSyncClientError: Error, CustomStringConvertible, Equatable {
    /// The server answered with an error status (401: the token is not valid there).
    case refused(status: Int, message: String)
    /// No answer after the last of `attempts` sends.
    case unreachable(String, String, attempts: Int)
    /// The transfer failed in a way a retry would not mend (TLS verification, a bad URL).
    case failed(String, String)
    /// A 200 answer that is not a sync answer.
    case badAnswer(String)

    public var description: String {
        switch self {
        case .refused(401, let m): return "the server refused the token (401: \(m)); make one with `eki user token NAME` on the server"
        case .refused(let status, let m): return "the server refused the sync (\(status)): \(m)"
        case .unreachable(let server, let why, let n): return "no answer from \(server) after \(n) attempts: \(why)"
        case .failed(let server, let why): return "cannot sync with \(server): \(why)"
        case .badAnswer(let why): return "the server's answer is not a sync answer: \(why)"
        }
    }
}
