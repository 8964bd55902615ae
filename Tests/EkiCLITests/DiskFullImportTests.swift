import Foundation
import Testing
import EkiTestSupport

/// A first import onto a nearly full file system (a 1 MiB tmpfs the test mounts, which needs
/// root) fails with a plain message and leaves no file; a later import that does not fit
/// leaves the database as it was.
@Suite(.serialized) struct DiskFullImportTests {
    /// A fresh 1 MiB tmpfs, or nil when this machine will not mount one (not root, no
    /// CAP_SYS_ADMIN, no mount(8)).
    static func mountSmallDisk() -> String? {
        let dir = TestPaths.temporaryDirectory().path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/mount")
        p.arguments = ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? dir : nil
    }

    static func unmount(_ dir: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/umount")
        p.arguments = [dir]
        try? p.run()
        p.waitUntilExit()
    }

    static let canMount: Bool = {
        guard let dir = mountSmallDisk() else { return false }
        unmount(dir)
        return true
    }()

    @Test(.enabled(if: canMount, "needs to mount a small tmpfs (root with CAP_SYS_ADMIN)"),
          .needsShared(TestPaths.n02CSVFile))
    func fullDiskIsSaidInWordsAndLeavesNothing() throws {
        let dir = try #require(Self.mountSmallDisk())
        defer { Self.unmount(dir) }
        let db = dir + "/stations.gpkg"
        let n02 = TestPaths.requireShared(TestPaths.n02CSVFile)
        let r = eki("import", "--db", db, n02)
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("eki import: \(db): the disk is full: the write needed more than the "), "\(r.err)")
        #expect(r.err.hasSuffix(" its file system has free; the unfinished new database was removed. Free some space and import again\n"), "\(r.err)")
        #expect(!r.err.contains("SQLite"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
        // A small database fits; the nationwide file then does not, and the small one stays.
        #expect(eki("import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv")).status == 0)
        let again = eki("import", "--db", db, n02)
        #expect(again.status == 1)
        #expect(again.err.hasSuffix("nothing was written, the database is as it was. Free some space and import again\n"), "\(again.err)")
        #expect(eki("info", "--db", db).out.hasPrefix("\(db): 39 entries (39 open, 0 retired)"))
    }
}
