import Testing
import Foundation
import EkiTestSupport

/// `Scripts/install.sh [PREFIX]`: copies the release `eki` and the resource bundles beside it,
/// and says whether PREFIX is on PATH. Run on a stand-in build folder (`BUILD_DIR`).
@Suite struct InstallScriptTests {
    static let bashPresent = FileManager.default.isExecutableFile(atPath: "/bin/bash")

    func install(prefix: String, build: String, path: String) throws -> (status: Int32, out: String, err: String) {
        try Tools.run("/bin/bash", [TestPaths.package("Scripts/install.sh"), prefix],
                      environment: ["BUILD_DIR": build, "PATH": path, "HOME": "/nonexistent"])
    }

    @Test("eki and the .resources bundles are copied; PREFIX on PATH or not is said",
          .enabled(if: bashPresent, "needs /bin/bash"))
    func copiesBinaryAndBundles() throws {
        let dir = TestPaths.temporaryDirectory()
        let build = dir.appendingPathComponent("release").path
        let fm = FileManager.default
        try fm.createDirectory(atPath: build + "/EkiKit_EkiCLI.resources/web", withIntermediateDirectories: true)
        #expect(fm.createFile(atPath: build + "/EkiKit_EkiCLI.resources/web/index.html", contents: Data("<html>".utf8)))
        #expect(fm.createFile(atPath: build + "/eki", contents: Data("#!/bin/sh\necho eki\n".utf8),
                              attributes: [.posixPermissions: 0o755]))
        #expect(fm.createFile(atPath: build + "/eki-bench", contents: Data()))
        let prefix = dir.appendingPathComponent("bin").path
        let off = try install(prefix: prefix, build: build, path: "/usr/bin:/bin")
        #expect(off.status == 0, "\(off.err)")
        #expect(off.out == """
            installed \(prefix)/eki
            installed \(prefix)/EkiKit_EkiCLI.resources
            \(prefix) is not on PATH: add it, e.g. `export PATH="\(prefix):$PATH"` in ~/.profile

            """)
        #expect(fm.isExecutableFile(atPath: prefix + "/eki"))
        #expect(fm.contents(atPath: prefix + "/EkiKit_EkiCLI.resources/web/index.html") == Data("<html>".utf8))
        #expect(!fm.fileExists(atPath: prefix + "/eki-bench"))
        let on = try install(prefix: prefix, build: build, path: "/usr/bin:\(prefix):/bin")
        #expect(on.out.hasSuffix("\(prefix) is on PATH: run `eki --help`\n"))
    }

    @Test("without a release build it says what to run, and exits 1", .enabled(if: bashPresent, "needs /bin/bash"))
    func missingBuild() throws {
        let dir = TestPaths.temporaryDirectory()
        let r = try install(prefix: dir.appendingPathComponent("bin").path, build: dir.path, path: "/usr/bin:/bin")
        #expect(r.status == 1)
        #expect(r.err == "install.sh: \(dir.path)/eki is missing: run `swift build -c release` first\n")
    }
}
