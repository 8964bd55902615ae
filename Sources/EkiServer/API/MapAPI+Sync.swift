import EkiKit
import Foundation

/// `POST /api/sync`: a device's changes in, the server's changes out (VisitSync.swift has the
/// merge rule).
extension MapAPI {
    /// Body `{"since": CURSOR|null, "changes": [CHANGE…]}` (`VisitSyncBatch`), JSON, as any write.
    /// 200 `{"cursor": CURSOR, "changes": [CHANGE…], "applied": N, "counting": {"transfer_counts": bool,
    /// "rules": "oritsubushi"|"all"}}` (`rules`: which entries count, `eki serve --rules` or the log's setting):
    /// the changes after `since` the client has not sent (every live visit when null), merged and
    /// answered in one write transaction. A batch sent twice changes nothing the second time.
    /// 400 `bad_json` for a body that is not JSON (`line`, `column`, `offset` say where), 400
    /// `bad_change` a malformed change (`index`, `field` say which), 409 one id twice in the batch, 413
    /// over `VisitSyncBatch.maxChanges` changes or `HTTPLimits.maxSyncBody` bytes; nothing is
    /// written then. The caller's visits only (`caller.owner`).
    func sync(_ r: HTTPRequest, _ caller: Caller) throws -> HTTPResponse {
        guard (r.headers["content-type"] ?? "").lowercased().hasPrefix("application/json") else {
            throw APIError(415, "unsupported_media_type", .mediaType)
        }
        let batch: VisitSyncBatch
        do {
            batch = try VisitSyncBatch(json: r.body)
        } catch {
            switch error {
            case .notJSON(let e):
                throw APIError.notJSON(e)
            case .malformed(let index, let field, _):
                throw APIError(400, "bad_change", .syncBatch(error),
                               extra: [("index", index.map { .int($0) } ?? .null), ("field", .optional(field))])
            case .duplicateID(_, _, let again):
                throw APIError(409, "duplicate_id", .syncBatch(error), extra: [("index", .int(again)), ("field", .string("id"))])
            case .tooMany:
                throw APIError(413, "too_large", .syncBatch(error))
            }
        }
        let fixed = configuration.countingRules
        let (result, counting, rules) = try writer.write(owner: caller.owner) { log in
            (try log.sync(batch.changes, since: batch.since), try log.counting(), try fixed ?? log.countingRules())
        }
        var out: [UInt8] = []
        JSONBytes.append("{\"cursor\":\"\(result.cursor)\",\"changes\":", to: &out)
        VisitSyncBatch.append(result.outgoing, to: &out)
        JSONBytes.append(",\"applied\":\(result.applied),\"counting\":{\"transfer_counts\":\(counting.transferCounts),\"rules\":\"\(rules.rawValue)\"}}", to: &out)
        return .json(out)
    }
}
