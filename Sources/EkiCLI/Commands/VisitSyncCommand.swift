import EkiGeocoding
import EkiKit
import Foundation

/// `eki visit sync URL --token-file F [--cacert PEM]` (see `VisitSyncClient`).
extension VisitCommand {
    func sync() throws -> Int32 {
        let url = args.positionals[0]
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw UsageError("visit sync: URL must be http(s)://HOST:PORT, got '\(url)'")
        }
        guard let tokenFile = args["token-file"] else {
            throw UsageError("visit sync: give --token-file F (an API token from `eki user token NAME`)")
        }
        guard let data = FileManager.default.contents(atPath: tokenFile) else {
            console.err("eki visit sync: cannot read the token file \(tokenFile)\n")
            return 1
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, !token.contains(where: { $0.isWhitespace || !$0.isASCII }) else {
            console.err("eki visit sync: \(tokenFile) does not hold a token (one line, from `eki user token NAME`)\n")
            return 1
        }
        if let ca = args["cacert"], !FileManager.default.isReadableFile(atPath: ca) {
            console.err("eki visit sync: cannot read the certificate file \(ca)\n")
            return 1
        }
        let log = try location.open()
        let client = try VisitSyncClient(server: url, token: token, caFile: args["cacert"],
                                         userAgent: try GeocoderConfiguration.fromEnvironment(console.environment).userAgent)
        let report: VisitSyncClient.Report
        do {
            report = try client.sync(log)
        } catch let e as VisitSyncClientError {
            console.err("eki visit sync: \(e)\n")
            return 1
        }
        console.out("synced with \(client.server): sent \(report.sent) change\(report.sent == 1 ? "" : "s"), "
                    + "received \(report.received) (\(report.applied) new here); the log holds \(try log.count()) visits\n")
        return 0
    }
}
