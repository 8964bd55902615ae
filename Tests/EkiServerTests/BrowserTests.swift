import EkiTestSupport
import Foundation
import Testing

/// The map screen in real headless Chromium (Selenium driving Debian's chromium through
/// chromium-driver) against the built `eki serve` on the real N02-23 + station_database database,
/// with a loopback fake geocoder for 地点: `browser/map_flow.py` (the core flow) and
/// `browser/map_screen.py` (issue 24: 390x844 and 1280x800, clusters, layers from a loopback tile
/// server, bars, overlap, stacks, languages), `browser/lines_panel.py` (the 路線 panel) and
/// `browser/offline_sync.py` (issue 25: log in, the installed page offline, visits synced between
/// two browser profiles), `browser/photo_card.py` (issue 27: a visit's photo as its card's
/// background, the memo above it). One browser at a time.
@Suite(.serialized) struct BrowserTests {
    static let python = "/usr/bin/python3"
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"

    /// The `eki` executable built beside this test bundle.
    static var ekiBinary: String? {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let p = candidate.appendingPathComponent("eki").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    static var seleniumInstalled: Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = ["-c", "import selenium"]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    static var browserReady: Bool {
        FileManager.default.isExecutableFile(atPath: chromium) && FileManager.default.isExecutableFile(atPath: chromedriver)
            && seleniumInstalled
    }

    static var realData: Bool { TestPaths.n02CSV != nil && TestPaths.stationDatabaseMain != nil }

    /// The real data imported once for the suite (the scripts only read it; visits go to their own
    /// folders): the database path, or the import's error output.
    static let database: Result<String, ImportFailure> = {
        let db = TestPaths.temporaryDirectory().appendingPathComponent("stations.gpkg").path
        let imported = runEki(["import", "--db", db, TestPaths.n02CSV!, TestPaths.stationDatabaseMain!])
        return imported.status == 0 ? .success(db) : .failure(ImportFailure(output: imported.err))
    }()

    struct ImportFailure: Error { var output: String }

    /// Runs `script` against the imported database in a fresh folder; its output is printed.
    func run(_ script: String) throws -> (status: Int32, text: String, out: String) {
        let db = try Self.database.get()
        let folder = TestPaths.temporaryDirectory()
        let screenshots = folder.appendingPathComponent("screenshots").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.python)
        p.arguments = [TestPaths.package("Tests/EkiServerTests/browser/\(script)"), "--eki", Self.ekiBinary!, "--db", db,
                       "--out", screenshots, "--geocoder", GeocoderTestServer.script,
                       "--chromium", Self.chromium, "--chromedriver", Self.chromedriver]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        // Line by line (one large print to a pipe can lose its start), and kept beside the screenshots.
        try? text.write(toFile: screenshots + "/output.txt", atomically: true, encoding: .utf8)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { print(line) }
        print("screenshots and output.txt: \(screenshots)")
        return (p.terminationStatus, text, screenshots)
    }

    @Test(.enabled(if: browserReady, "needs Debian's chromium, chromium-driver and python3-selenium"),
          .enabled(if: realData, "needs ../shared/datasets (N02-23 and station_database)"),
          .enabled(if: ekiBinary != nil, "needs the built eki executable beside the tests (swift build)"))
    func theMapFlowInChromium() throws {
        let r = try run("map_flow.py")
        #expect(r.status == 0, "\(r.text)")
        #expect(r.text.contains("all checks passed"))
        #expect(FileManager.default.fileExists(atPath: r.out + "/map.png"))
    }

    @Test(.enabled(if: browserReady, "needs Debian's chromium, chromium-driver and python3-selenium"),
          .enabled(if: realData, "needs ../shared/datasets (N02-23 and station_database)"),
          .enabled(if: ekiBinary != nil, "needs the built eki executable beside the tests (swift build)"))
    func theMapScreenAtTwoSizesAndInTwoLanguages() throws {
        let r = try run("map_screen.py")
        #expect(r.status == 0, "\(r.text)")
        #expect(r.text.contains("all checks passed"))
        #expect(r.text.contains("390x844 50 pans at z15") && r.text.contains("in 47 prefectures, no pins"))
    }

    @Test(.enabled(if: browserReady, "needs Debian's chromium, chromium-driver and python3-selenium"),
          .enabled(if: realData, "needs ../shared/datasets (N02-23 and station_database)"),
          .enabled(if: ekiBinary != nil, "needs the built eki executable beside the tests (swift build)"))
    func theLinesPanelInChromium() throws {
        let r = try run("lines_panel.py")
        #expect(r.status == 0, "\(r.text)")
        #expect(r.text.contains("all checks passed"))
        #expect(r.text.contains("東海道新幹線: 17 rows in /api/line's order (東京 → 品川 → 新横浜"))
        #expect(r.text.contains("the panel says 1/17 (/api/line 1/17)"))
    }

    @Test(.enabled(if: browserReady, "needs Debian's chromium, chromium-driver and python3-selenium"),
          .enabled(if: realData, "needs ../shared/datasets (N02-23 and station_database)"),
          .enabled(if: ekiBinary != nil, "needs the built eki executable beside the tests (swift build)"))
    func theInstalledPageOfflineAndSyncBetweenTwoDevices() throws {
        let r = try run("offline_sync.py")
        #expect(r.status == 0, "\(r.text)")
        #expect(r.text.contains("all checks passed"))
        #expect(r.text.contains("offline search = /api/search: 小田原 name prefix 5"))
        #expect(r.text.contains("first pins offline from the service worker:"))
    }

    @Test(.enabled(if: browserReady, "needs Debian's chromium, chromium-driver and python3-selenium"),
          .enabled(if: realData, "needs ../shared/datasets (N02-23 and station_database)"),
          .enabled(if: ekiBinary != nil, "needs the built eki executable beside the tests (swift build)"))
    func aPhotoOnTheStationScreenIsItsVisitCardsBackground() throws {
        let r = try run("photo_card.py")
        #expect(r.status == 0, "\(r.text)")
        #expect(r.text.contains("all checks passed"))
        #expect(r.text.contains("ok   「メモを追加」 on the visit without a memo"))
        #expect(FileManager.default.fileExists(atPath: r.out + "/photo-card.png"))
    }
}
