import EkiGeocoding
import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// Readers in parallel with the writer and with `eki import`: no visit lost, no request failed,
/// every answer from one version of the data.
@Suite struct ConcurrencyTests {
    @Test func visitsRecordedWhile30ClientsPanAreAllKept() throws {
        let s = try TestServer()
        let keys = try s.get("/api/bbox?bbox=139.0,35.0,140.0,36.0").keys
        #expect(keys.count == 39)
        let failures = Mutexed(0)
        DispatchQueue.concurrentPerform(iterations: 30 + keys.count) { i in
            do {
                if i < 30 {
                    // A client panning: 20 viewports around 東京 and 小田原.
                    for j in 0..<20 {
                        let lon = (i + j) % 2 == 0 ? 139.76 : 139.15, lat = (i + j) % 2 == 0 ? 35.68 : 35.26
                        let d = 0.005 * Double(1 + (i * 7 + j) % 5)
                        let r = try s.get("/api/bbox?bbox=\(lon - d),\(lat - d),\(lon + d),\(lat + d)&limit=300")
                        if r.status != 200 { failures.withLock { $0 += 1 } }
                    }
                } else {
                    let key = keys[i - 30]
                    let r = try s.write("POST", "/api/visits", json: #"{"key":"\#(key)","date":"2024-05-0\#(1 + i % 9)"}"#)
                    if r.status != 201 { failures.withLock { $0 += 1 } }
                }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let stats = try s.get("/api/stats").object["total"] as? [String: Any] ?? [:]
        #expect(stats["visited"] as? Int == 39)
        #expect(try s.get("/api/bbox?bbox=139.0,35.0,140.0,36.0&filter=unvisited").object["total"] as? Int == 0)
        #expect(try VisitLog(path: s.visits, create: false).count() == 39)
    }

    @Test func anImportWhileServingIsSeenWholeOrNotAtAll() throws {
        let s = try TestServer()
        let box = "/api/bbox?bbox=139.10,35.22,139.20,35.30"
        /// What an answer shows: each entry with whether it has a reading (the second dataset
        /// brings readings to the 21 entries around 小田原).
        @Sendable func signature(_ r: RawResponse) -> [String] {
            r.features.map { f in
                let p = f["properties"] as? [String: Any] ?? [:]
                return "\(p["key"] as? String ?? "?") \(p["reading"] is String)"
            }
        }
        let before = signature(try s.get(box))
        #expect(before.count == 21 && before.allSatisfy { $0.hasSuffix("false") })
        let columns = "id=駅コード,name=駅名,reading=よみ,lat=緯度,lon=経度,operator=事業者,line=路線,class=区分"
        let seen = Mutexed([[String]: Int]())
        let failures = Mutexed(0)
        let done = Mutexed(false)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<8 {
            Thread.detachNewThread {
                while !done.withLock({ $0 }) {
                    do {
                        let r = try s.get(box)
                        if r.status == 200 { seen.withLock { $0[signature(r), default: 0] += 1 } } else { failures.withLock { $0 += 1 } }
                    } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
                finished.signal()
            }
        }
        // Let the readers start, import a second dataset twice (the second time changes nothing)
        // while they run, and let them see the result.
        while seen.withLock({ $0.values.reduce(0, +) }) < 20 { Thread.sleep(forTimeInterval: 0.01) }
        for _ in 0..<2 {
            let imported = runEki(["import", "--db", s.db, "--columns", columns, TestPaths.package("Datasets/odawara-readings.csv")])
            #expect(imported.status == 0, "\(imported.err)")
        }
        let counted = seen.withLock { $0.values.reduce(0, +) }
        while seen.withLock({ $0.values.reduce(0, +) }) < counted + 20 { Thread.sleep(forTimeInterval: 0.01) }
        done.withLock { $0 = true }
        for _ in 0..<8 { finished.wait() }
        let after = signature(try s.get(box))
        #expect(after.count == 21 && after.allSatisfy { $0.hasSuffix("true") })
        #expect(failures.withLock { $0 } == 0)
        let signatures = seen.withLock { $0 }
        #expect(Set(signatures.keys).isSubset(of: [before, after]), "an answer mixed old and new data")
        #expect(signatures[after] ?? 0 >= 20)
        #expect(try s.get("/api/search?q=\(percent("おだわら"))&by=reading").keys.count == 5)
    }
}

@Suite struct StopTests {
    @Test("stop() lets a request in flight finish, answers a new one 503, then closes the port")
    func stoppingLetsARequestInFlightFinish() throws {
        let fake = try GeocoderTestServer()
        let s = try TestServer(geocoder: GeocoderConfiguration(gsiEndpoint: fake.endpoint("slow/1"), cachePath: nil,
                                                               minimumRequestInterval: 0, providerOrder: [.gsi]))
        let answer = Mutexed<RawResponse?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            answer.withLock { $0 = try? s.get("/api/geocode?q=\(percent("小田原城"))") }
            finished.signal()
        }
        Thread.sleep(forTimeInterval: 0.3)   // the request is waiting for the (slow) geocoder
        let port = s.port
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            s.server.stop()
            stopped.signal()
        }
        Thread.sleep(forTimeInterval: 0.2)   // stop() is waiting for the request in flight
        let late = try RawHTTP.exchange(port: port, Array("GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect(late.status == 503)
        #expect(late.error == "stopping")
        #expect(late.headers["retry-after"] == "1")
        finished.wait()
        stopped.wait()
        let r = answer.withLock { $0 }
        #expect(r?.status == 200)
        #expect(r?.features.count == 2)
        // Stopped: nothing listens any more.
        #expect(throws: (any Error).self) { try RawHTTP.exchange(port: port, Array("GET / HTTP/1.1\r\n\r\n".utf8)) }
    }
}

extension StopTests {
    /// Before `stop` left `MHD_quiesce_daemon` aside, 3,000 rounds aborted the process in two
    /// runs of three ("Failed to remove listen FD from epoll set").
    @Test("2,000 servers started and stopped with requests arriving do not abort the process")
    func stoppingWhileRequestsArrive() throws {
        var answered = 0
        for round in 0..<2000 {
            let server = try HTTPServer(address: ListenAddress(host: "127.0.0.1", port: 0), threads: 4) { _ in
                HTTPResponse(status: 200, body: Array("ok".utf8))
            }
            let port = server.port
            let statuses = Mutexed<[Int]>([])
            let group = DispatchGroup()
            for _ in 0..<3 {
                DispatchQueue.global().async(group: group) {
                    let head = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
                    if let r = try? RawHTTP.exchange(port: port, head) { statuses.withLock { $0.append(r.status) } }
                }
            }
            if round % 2 == 0 { group.wait() }
            server.stop(grace: 0.05)
            group.wait()
            let seen = statuses.withLock { $0 }
            #expect(seen.allSatisfy { $0 == 200 || $0 == 503 }, "\(seen)")
            answered += seen.filter { $0 == 200 }.count
        }
        // Every round that waited for its three requests had them answered.
        #expect(answered >= 3000)
    }
}

/// A value behind a lock, for counting across threads in tests.
final class Mutexed<T>: @unchecked Sendable {
    private var value: T
    private let lock = NSLock()
    init(_ value: T) { self.value = value }
    func withLock<R>(_ body: (inout T) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
