import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// Slow and idle clients do not shut the others out (`HTTPLimits`: the connection limit, the
/// limit per client address, the idle timeout), all on loopback.
@Suite struct AvailabilityTests {
    /// The soft open-files limit, raised first toward what 600 + 600 connections need here.
    static let openFiles = raiseOpenFiles(to: 4 * 1200 + 512)

    /// 600 slowloris connections (a request head sent a byte at a time, never finished) and
    /// 600 that send nothing stay open, and probes on new connections are each answered within
    /// 1 s. Both ends of every connection are in this process: it needs about 4 descriptors a
    /// pair, and raises its soft open-files limit for them; under a hard limit too low for
    /// that it uses as many pairs as fit and says so.
    @Test(.enabled(if: openFiles >= 4 * 100 + 512, "the open-files limit (ulimit -n) is too low for 100 + 100 connections"))
    func probesAreAnsweredBesideSlowAndIdleConnections() throws {
        let each = min(600, (Self.openFiles - 512) / 4)
        if each < 600 {
            print("AvailabilityTests: the open-files hard limit is \(Self.openFiles): \(each) slow and \(each) idle connections instead of 600 each")
        }
        let s = try TestServer()
        #expect(s.server.connectionLimit == min(4096, Self.openFiles - 256))
        let start = Date()
        let slow = Self.connect(port: s.port, count: each)
        let idle = Self.connect(port: s.port, count: each)
        defer { (slow + idle).forEach { close($0) } }
        #expect(slow.count == each && idle.count == each)
        let head = Array("GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nX-Slow: ".utf8)
        var sent = 0
        func trickle() {
            for fd in slow { _ = [head[sent % head.count]].withUnsafeBytes { send(fd, $0.baseAddress, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } }
            sent += 1
        }
        // Until the server holds them all (it accepts them from its listen backlog).
        while s.server.openConnections < 2 * each && Date().timeIntervalSince(start) < 3 {
            trickle()
            usleep(50_000)
        }
        #expect(s.server.openConnections >= 2 * each, "the server holds \(s.server.openConnections) of \(2 * each)")
        var worst = 0.0
        for _ in 0..<5 {
            trickle()
            let t0 = Date()
            let answer = Self.probe(port: s.port, timeout: 1)
            let took = Date().timeIntervalSince(t0)
            worst = max(worst, took)
            #expect(answer == 200, "probe answered \(answer.map(String.init) ?? "nothing") after \(took) s")
            #expect(took < 1)
        }
        // The slow and idle connections are still there: the server answered beside them.
        #expect(s.server.openConnections >= 2 * each)
        #expect(Date().timeIntervalSince(start) < 8)
        print("AvailabilityTests: \(each) slow + \(each) idle open, 5 probes, worst \(Int(worst * 1000)) ms")
    }

    /// A connection that sends nothing, and one whose request head stalls, are closed after
    /// `idleTimeout` seconds without a byte.
    @Test func idleAndStalledConnectionsAreClosedAfterTheTimeout() throws {
        let s = try TestServer(limits: HTTPLimits(idleTimeout: 1))
        let idle = Self.connect(port: s.port, count: 1)
        let stalled = Self.connect(port: s.port, count: 1)
        defer { (idle + stalled).forEach { close($0) } }
        try #require(idle.count == 1 && stalled.count == 1)
        let head = Array("GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\n".utf8)
        _ = head.withUnsafeBytes { send(stalled[0], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let t0 = Date()
        for fd in idle + stalled {
            #expect(Self.secondsUntilClosed(fd, within: 4) != nil, "still open after 4 s")
            let after = Date().timeIntervalSince(t0)
            #expect(after >= 0.9 && after < 3.5, "closed after \(after) s")
        }
    }

    /// Listening on an address other than loopback, one client address may hold
    /// `maxConnectionsPerClient` connections; one more is closed at once. On loopback there is
    /// no such limit (every client is 127.0.0.1).
    @Test func connectionsPerClientAreLimitedOffLoopbackOnly() throws {
        let limits = HTTPLimits(maxConnectionsPerClient: 4)
        let handler: HTTPServer.Handler = { _ in .json("{}") }
        let wide = try HTTPServer(address: ListenAddress(host: "0.0.0.0", port: 0), threads: 1, limits: limits, handler: handler)
        defer { wide.stop() }
        // Each descriptor is closed once: a second close() would close whatever this process
        // opened under that number since, a socket of another server's libmicrohttpd, which
        // then aborts ("Failed to remove FD from epoll set").
        var held = Self.connect(port: wide.port, count: 4)
        defer { held.forEach { close($0) } }
        try #require(held.count == 4)
        let deadline = Date().addingTimeInterval(2)
        while wide.openConnections < 4 && Date() < deadline { usleep(10_000) }
        #expect(wide.openConnections == 4)
        #expect(Self.probe(port: wide.port, timeout: 1) == nil)   // the fifth: closed unanswered
        close(held.removeFirst())
        let freed = Date().addingTimeInterval(2)
        var answer: Int?
        while answer == nil && Date() < freed { usleep(20_000); answer = Self.probe(port: wide.port, timeout: 1) }
        #expect(answer == 200)

        let loopback = try HTTPServer(address: ListenAddress(host: "127.0.0.1", port: 0), threads: 1, limits: limits, handler: handler)
        defer { loopback.stop() }
        let many = Self.connect(port: loopback.port, count: 8)
        defer { many.forEach { close($0) } }
        #expect(Self.probe(port: loopback.port, timeout: 1) == 200)
    }

    // MARK: Helpers

    /// Raises the soft open-files limit to `n` where the hard limit allows; the soft limit then.
    static func raiseOpenFiles(to n: Int) -> Int {
        var r = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &r) == 0 else { return 1024 }
        if r.rlim_cur != rlim_t.max && r.rlim_cur < rlim_t(n) {
            var raised = r
            raised.rlim_cur = r.rlim_max == rlim_t.max ? rlim_t(n) : min(rlim_t(n), r.rlim_max)
            if setrlimit(resource, &raised) == 0 { r = raised }
        }
        return r.rlim_cur == rlim_t.max ? n : Int(r.rlim_cur)
    }

    /// `count` TCP connections to 127.0.0.1:`port`, connected without blocking (those still
    /// connecting after 3 s are dropped).
    static func connect(port: UInt16, count: Int) -> [Int32] {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var pending: [Int32] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { break }
            _ = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            pending.append(fd)
        }
        var connected: [Int32] = []
        let deadline = Date().addingTimeInterval(3)
        while !pending.isEmpty && Date() < deadline {
            var fds = pending.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 100)
            var still: [Int32] = []
            for p in fds {
                if p.revents == 0 { still.append(p.fd); continue }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(p.fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { connected.append(p.fd) } else { close(p.fd) }
            }
            pending = still
        }
        pending.forEach { close($0) }
        return connected
    }

    /// The status of the answer to `GET /api/session` on a new connection, read whole within
    /// `timeout` seconds; nil when none came (refused, closed, or too slow).
    static func probe(port: UInt16, timeout: Double) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        guard let fd = connect(port: port, count: 1).first else { return nil }
        defer { close(fd) }
        let request = Array("GET /api/session HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return nil }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&p, 1, left) == 1 else { return nil }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { return nil }
            if n == 0 { break }
            data.append(contentsOf: buffer[..<n])
        }
        return (try? RawHTTP.parse(data))?.status
    }

    /// Seconds until the server closes `fd` (a read returns end of file or an error), nil if it
    /// has not within `within` seconds.
    static func secondsUntilClosed(_ fd: Int32, within: Double) -> Double? {
        let start = Date()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date().timeIntervalSince(start) < within {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) == 1 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n <= 0 { return Date().timeIntervalSince(start) }
        }
        return nil
    }
}
