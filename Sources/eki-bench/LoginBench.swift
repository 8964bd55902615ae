import EkiAccounts
import EkiServer
import Foundation

// eki-bench login --db D.gpkg [--runs 20] [--seconds 20]   (bench-login.sh)
//
// 1. One Argon2id hash and one verification (`PasswordHasher.interactive`, libsodium), timed
//    `runs` times each: min / p50 / p90 / max in ms.
// 2. A password guesser against `eki serve --accounts` with the default login limits: one
//    client posting wrong passwords for one account as fast as the server answers, for
//    `seconds`; how many guesses were checked (401) and how many refused (429).
// 3. The same server with the limits lifted, 1, 2 and 4 guessing clients at once: the guesses a
//    second the server can check (Argon2id bound), i.e. what the limits hold back.

func runLogin(_ args: [String]) throws {
    guard let db = option("db", args) else { throw BenchUsageError("login: --db D.gpkg is required") }
    let runs = Int(option("runs", args) ?? "20") ?? 20
    let seconds = Double(option("seconds", args) ?? "20") ?? 20
    let hasher = PasswordHasher.interactive

    var hashMS: [Double] = [], verifyMS: [Double] = []
    let encoded = try hasher.hash("correct horse battery staple")
    for i in 0..<runs {
        var t0 = now()
        _ = try hasher.hash("password \(i)")
        hashMS.append(Double(now() - t0) / 1e6)
        t0 = now()
        precondition(!PasswordHasher.verify("wrong \(i)", against: encoded))
        verifyMS.append(Double(now() - t0) / 1e6)
    }
    func summary(_ xs: [Double]) -> [String: Double] {
        let s = xs.sorted()
        return ["min_ms": round2(s.first ?? 0), "p50_ms": round2(percentile(s, 50)), "p90_ms": round2(percentile(s, 90)), "max_ms": round2(s.last ?? 0)]
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("eki-bench-login-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let accounts = folder.appendingPathComponent("accounts.sqlite").path
    try AccountStore(path: accounts, hasher: hasher).addUser(name: "alice", password: "correct horse battery staple")

    func serve(_ limits: LoginLimits) throws -> MapServer {
        var c = MapServerConfiguration(databasePath: db, visitsPath: folder.appendingPathComponent("v.sqlite").path,
                                       listen: ListenAddress(host: "127.0.0.1", port: 0), tiles: nil)
        c.accountsPath = accounts
        c.loginLimits = limits
        return try MapServer(configuration: c)
    }

    // 2. Against the limits.
    let limited = try serve(LoginLimits())
    var checked = 0, refused = 0, other = 0, n = 0
    let start = now()
    while Double(now() - start) / 1e9 < seconds {
        switch try loginStatus(port: limited.port, password: "guess \(n)") {
        case 401: checked += 1
        case 429: refused += 1
        default: other += 1
        }
        n += 1
    }
    let elapsed = Double(now() - start) / 1e9
    limited.stop()

    // 3. Without limits.
    let open = try serve(LoginLimits(perAccount: 1_000_000, perAddress: 1_000_000, window: 900))
    var unlimited: [String: Double] = [:]
    for clients in [1, 2, 4] {
        let counter = Counter()
        let until = now() + UInt64(min(seconds, 10) * 1e9)
        DispatchQueue.concurrentPerform(iterations: clients) { c in
            var i = 0
            while now() < until {
                if (try? loginStatus(port: open.port, password: "guess \(c)-\(i)")) == 401 { counter.add() }
                i += 1
            }
        }
        unlimited["\(clients)_clients_per_s"] = round2(Double(counter.value) / min(seconds, 10))
    }
    open.stop()

    let defaults = LoginLimits()
    emit([
        "argon2id": ["opslimit": Int(hasher.operations), "memlimit_mib": hasher.memory / (1024 * 1024),
                     "hash": summary(hashMS), "verify": summary(verifyMS), "runs": runs],
        "cores": ProcessInfo.processInfo.activeProcessorCount,
        "guesser_against_limits": ["seconds": round2(elapsed), "requests": n, "checked_401": checked, "refused_429": refused,
                                   "other": other, "requests_per_s": round2(Double(n) / elapsed),
                                   "limit_per_account": defaults.perAccount, "limit_per_address": defaults.perAddress,
                                   "window_s": Int(defaults.window),
                                   "guesses_per_hour_one_account": Double(defaults.perAccount) * 3600 / defaults.window,
                                   "guesses_per_hour_one_address": Double(defaults.perAddress) * 3600 / defaults.window],
        "guesses_checked_without_limits": unlimited,
    ])
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}

/// POST /api/login {"user":"alice","password":…} over a new loopback connection; the status.
private func loginStatus(port: UInt16, password: String) throws -> Int {
    let body = #"{"user":"alice","password":"\#(password)"}"#
    let request = "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BenchUsageError("socket failed") }
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = port.bigEndian
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    guard rc == 0 else { throw BenchUsageError("connect failed") }
    let bytes = Array(request.utf8)
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var head = [UInt8](repeating: 0, count: 64)
    let n = head.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard n >= 12 else { return 0 }
    return Int(String(decoding: head[9..<12], as: UTF8.self)) ?? 0
}
