import EkiCLI
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// Sync against a real `eki serve --accounts` process: killed (SIGKILL) during a 5,000-change
/// sync, restarted, the batch sent again: every change is there exactly once. Then `eki visit
/// sync` merges a laptop's log with the account, across a restart of the server.
@Suite(.serialized) struct SyncProcessTests {
    /// A served account: the folder, the database, the accounts file and an API token.
    final class Served: @unchecked Sendable {
        let folder = TestPaths.temporaryDirectory()
        var db: String { folder.appendingPathComponent("stations.gpkg").path }
        var accounts: String { folder.appendingPathComponent("accounts.sqlite").path }
        var tokenFile: String { folder.appendingPathComponent("token").path }
        var token = ""
        var process: Process?
        var port: UInt16 = 0

        init() throws {
            #expect(runEki(["import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv")]).status == 0)
            let password = folder.appendingPathComponent("password").path
            try "correct horse battery staple\n".write(toFile: password, atomically: true, encoding: .utf8)
            #expect(runEki(["user", "add", "alice", "--accounts", accounts, "--password-file", password]).status == 0)
            let t = runEki(["user", "token", "alice", "--accounts", accounts])
            token = t.out.trimmingCharacters(in: .whitespacesAndNewlines)
            try (token + "\n").write(toFile: tokenFile, atomically: true, encoding: .utf8)
        }

        /// Starts `eki serve` (on `port` when set, else any free port) and waits for its URL.
        func start() throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: BrowserTests.ekiBinary!)
            p.arguments = ["serve", "--db", db, "--accounts", accounts, "--listen", "127.0.0.1:\(port)", "--tiles", "none"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            process = p
            var line = ""
            while !line.contains("\n") {
                let d = out.fileHandleForReading.availableData
                if d.isEmpty { break }
                line += String(decoding: d, as: UTF8.self)
            }
            guard let r = line.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                  let p = UInt16(line[r].split(separator: ":")[1]) else { throw RawHTTP.Failure(description: "no URL in \(line)") }
            port = p
        }

        func kill() {
            guard let p = process else { return }
            Foundation.kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            process = nil
        }

        deinit { kill() }

        func request(_ body: String) -> [UInt8] {
            Array(("POST /api/sync HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nContent-Type: application/json\r\n"
                   + "Authorization: Bearer \(token)\r\nContent-Length: \(body.utf8.count)\r\n\r\n").utf8) + Array(body.utf8)
        }

        func sync(_ body: String) throws -> RawResponse {
            let r = request(body)
            return try RawHTTP.exchange(port: port, Array(r[..<(r.count - body.utf8.count)]), body: Array(body.utf8))
        }
    }

    static var canRun: Bool { BrowserTests.ekiBinary != nil }

    @Test(.enabled(if: canRun, "needs the built eki executable beside the tests (swift build)"))
    func aServerKilledDuringASyncLosesNothingAndDoublesNothing() throws {
        let s = try Served()
        try s.start()
        let ids = (0..<5000).map { _ in UUID().uuidString.lowercased() }
        let body = SyncAPITests.batch(ids.enumerated().map { SyncAPITests.change("k/\($0.offset)", "2019-08", id: $0.element) })
        // Send the whole request and kill the server before its answer.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = s.port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        #expect(connected == 0)
        let bytes = s.request(body)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            sent += n
        }
        s.kill()
        close(fd)
        // Restarted on the same port, the client sends the same batch again.
        try s.start()
        let retry = try s.sync(body)
        #expect(retry.status == 200, "\(retry.text)")
        let applied = retry.object["applied"] as? Int ?? -1
        #expect(applied == 0 || applied == 5000, "all or nothing, got \(applied)")
        let again = try s.sync(body)
        #expect(again.object["applied"] as? Int == 0)
        let all = try s.sync(SyncAPITests.batch([])).object["changes"] as? [[String: Any]] ?? []
        let got = all.compactMap { $0["id"] as? String }
        #expect(got.count == 5000 && Set(got) == Set(ids))
        s.kill()
    }

    @Test(.enabled(if: canRun, "needs the built eki executable beside the tests (swift build)"))
    func theCommandLineSyncsALaptopLogWithTheAccount() throws {
        let s = try Served()
        try s.start()
        // The phone recorded two visits; the laptop's log has one of them (same station, date,
        // kind, another uid) and one of its own.
        let phone = [SyncAPITests.change("jr-east/c/小田原", "2019-08-13", kind: "alight"),
                     SyncAPITests.change("odakyu/c/小田原", "2019-08")]
        #expect(try s.sync(SyncAPITests.batch(phone)).status == 200)
        let laptop = s.folder.appendingPathComponent("laptop.sqlite").path
        #expect(runEki(["visit", "add", "jr-east/c/小田原", "--date", "2019-08-13", "--kind", "alight", "--visits", laptop, "--db", s.db]).status == 0)
        #expect(runEki(["visit", "add", "jr-central/s/小田原", "--date", "2020", "--visits", laptop, "--db", s.db]).status == 0)
        let url = "http://127.0.0.1:\(s.port)"
        let first = runEki(["visit", "sync", url, "--token-file", s.tokenFile, "--visits", laptop])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("sent 2 changes"), "\(first.out)")
        #expect(!first.out.contains(s.token) && !first.err.contains(s.token))
        // One visit per station, date and kind: three visits on both sides.
        let log = try VisitLog(path: laptop, create: false)
        #expect(try log.count() == 3)
        let server = try s.sync(SyncAPITests.batch([])).object["changes"] as? [[String: Any]] ?? []
        #expect(server.count == 3)
        #expect(Set(server.compactMap { $0["id"] as? String }) == Set(try log.visits().map(\.uid)))
        // A second sync sends and gets nothing new.
        let second = runEki(["visit", "sync", url, "--token-file", s.tokenFile, "--visits", laptop])
        #expect(second.status == 0 && second.out.contains("sent 0 changes, received 0"), "\(second.out)")
        // Removed on the laptop while the server restarts: the sync retries and the removal arrives.
        let id = try #require(try log.visits().first { $0.stationKey == "odakyu/c/小田原" }?.id)
        #expect(runEki(["visit", "rm", String(id), "--visits", laptop, "--db", s.db]).status == 0)
        s.kill()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { try? s.start() }
        let third = runEki(["visit", "sync", url, "--token-file", s.tokenFile, "--visits", laptop])
        #expect(third.status == 0, "\(third.err)")
        let after = try s.sync(SyncAPITests.batch([])).object["changes"] as? [[String: Any]] ?? []
        #expect(Set(after.compactMap { $0["key"] as? String }) == ["jr-east/c/小田原", "jr-central/s/小田原"])
        // A wrong token: 401, exit 1, and the token is not printed.
        try "not-a-token\n".write(toFile: s.tokenFile, atomically: true, encoding: .utf8)
        let refused = runEki(["visit", "sync", url, "--token-file", s.tokenFile, "--visits", laptop])
        #expect(refused.status == 1 && refused.err.contains("401") && !refused.err.contains("not-a-token"), "\(refused.err)")
        s.kill()
    }
}
