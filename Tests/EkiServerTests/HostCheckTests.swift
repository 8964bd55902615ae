import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// The `Host` check as browsers write the field (no `:80` on port 80), on every route, and off
/// loopback too (`HostCheck`).
@Suite struct HostCheckTests {
    @Test func defaultPortsAreLeftOutAsBrowsersDo() {
        let http80 = HostCheck(listen: ListenAddress(host: "127.0.0.1", port: 80), port: 80, isTLS: false)
        for host in ["127.0.0.1", "127.0.0.1:80", "localhost", "LOCALHOST:80", "[::1]", "[::1]:80"] {
            #expect(http80.accepts(host), "\(host)")
        }
        for host in ["127.0.0.1:8080", "127.0.0.1:443", "evil.example", "evil.example:80", "", "127.0.0.1:", ":80",
                     "[::1", "[::1]x", "[::1]:", "192.0.2.7", "localhost:80:80"] {
            #expect(!http80.accepts(host), "\(host)")
        }
        let https443 = HostCheck(listen: ListenAddress(host: "127.0.0.1", port: 443), port: 443, isTLS: true)
        #expect(https443.accepts("localhost") && https443.accepts("127.0.0.1:443"))
        #expect(!https443.accepts("localhost:80"))
        let http8080 = HostCheck(listen: ListenAddress(host: "127.0.0.1", port: 8080), port: 8080, isTLS: false)
        #expect(http8080.accepts("127.0.0.1:8080") && !http8080.accepts("127.0.0.1"))
    }

    @Test func offLoopbackAddressesAndGivenNamesAreAccepted() {
        let wide = HostCheck(listen: ListenAddress(host: "0.0.0.0", port: 8080), port: 8080, isTLS: false, names: ["Eki.Example.org"])
        for host in ["192.0.2.7:8080", "[2001:db8::7]:8080", "localhost:8080", "eki.example.org:8080", "EKI.EXAMPLE.ORG:8080"] {
            #expect(wide.accepts(host), "\(host)")
        }
        for host in ["evil.example:8080", "eki.example.org", "eki.example.org.evil.example:8080", "192.0.2.7", "[2001:db8::zz]:8080"] {
            #expect(!wide.accepts(host), "\(host)")
        }
        let own = HostCheck(listen: ListenAddress(host: "192.0.2.7", port: 8080), port: 8080, isTLS: false)
        #expect(own.accepts("192.0.2.7:8080"))
        let v6 = HostCheck(listen: ListenAddress(host: "::1", port: 8080), port: 8080, isTLS: false)
        #expect(v6.accepts("[::1]:8080") && !v6.accepts("[2001:db8::7]:8080"))
    }

    @Test func theHostOptionTakesNamesOnly() {
        let r = runEki(["serve", "--host", "eki.example.org,http://evil.example"])
        #expect(r.status == 64)
        #expect(r.err == "eki serve: --host: 'http://evil.example' is not a host name (write names without scheme, port or path)\n", "\(r.err)")
    }

    /// Whether this process may listen on 127.0.0.1:80 (root, and the port free).
    static let port80Free: Bool = {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(80).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }()

    /// On port 80 a browser sends `Host: 127.0.0.1`: the page, the API and the files answer it;
    /// a foreign name is refused on each, `/` included.
    @Test(.enabled(if: port80Free, "cannot listen on 127.0.0.1:80 here (not root, or the port is taken)"))
    func port80WithoutThePortInHost() throws {
        let s = try TestServer { $0.listen = ListenAddress(host: "127.0.0.1", port: 80) }
        #expect(s.port == 80)
        let page = try s.send("GET", "/", host: "127.0.0.1")
        #expect(page.status == 200 && page.text.contains(s.token))
        #expect(try s.send("GET", "/api/session", host: "127.0.0.1").status == 200)
        #expect(try s.send("GET", "/api/session", headers: ["Origin": "http://localhost"], host: "localhost").status == 200)
        for target in ["/", "/index.html", "/app.js", "/api/session", "/api/stats", "/nope"] {
            let r = try s.send("GET", target, host: "evil.example")
            #expect(r.status == 403 && r.error == "foreign_host", "\(target): \(r.status)")
            #expect(!r.text.contains(s.token))
        }
    }

    /// `--listen 0.0.0.0` (with accounts): a foreign Host gets neither the login page nor, with a
    /// session, the page and its write token; an address or a `--host` name gets them.
    @Test func wildcardListenRefusesForeignHostsOnEveryRoute() throws {
        let s = try TestServer.withAccounts { c in
            c.listen = ListenAddress(host: "0.0.0.0", port: 0)
            c.hostNames = ["eki.example.org"]
        }
        let alice = try #require(try s.login("alice", "alice-password"))
        let cookie = ["Cookie": "eki_session=\(alice.cookie)"]
        for host in ["127.0.0.1:\(s.port)", "192.0.2.7:\(s.port)", "eki.example.org:\(s.port)"] {
            let page = try s.send("GET", "/", headers: cookie, host: host)
            #expect(page.status == 200 && page.text.contains(alice.csrf), "\(host): \(page.status)")
        }
        for host in ["evil.example:\(s.port)", "eki.example.org", "eki.example.org.evil.example:\(s.port)"] {
            for target in ["/", "/login", "/app.js", "/api/session", "/api/stats"] {
                let r = try s.send("GET", target, headers: cookie, host: host)
                #expect(r.status == 403 && r.error == "foreign_host", "\(host) \(target): \(r.status)")
                #expect(!r.text.contains(alice.csrf))
            }
            let login = try s.send("POST", "/api/login", headers: ["Content-Type": "application/json"],
                                   body: Array(#"{"user":"alice","password":"alice-password"}"#.utf8), host: host)
            #expect(login.status == 403 && login.error == "foreign_host" && login.headers["set-cookie"] == nil)
        }
    }
}
