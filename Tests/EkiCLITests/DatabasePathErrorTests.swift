import Foundation
import Testing
import EkiTestSupport

/// `--db` pointing at something that is not a station database: one line in the user's words
/// (not SQLite's "file is not a database" or "disk I/O error"), exit 1, the file untouched.
@Suite struct DatabasePathErrorTests {
    let dir = TestPaths.temporaryDirectory()

    /// A text file (what `--db README.md` gives).
    func textFile() throws -> String {
        let path = dir.appendingPathComponent("README.md").path
        try "# Not a database\n\nJust some notes.\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func textFileIsNotADatabase() throws {
        let path = try textFile()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for (command, args) in [("bbox", ["139.7,35.6,139.8,35.7"]), ("info", []), ("search", ["東京"]),
                                ("nearest", ["--lat", "35.68", "--lon", "139.76"])] {
            let r = eki([command, "--db", path] + args)
            #expect(r.status == 1, "\(command)")
            #expect(r.err == "eki \(command): \(path) is not an EkiKit database\n")
            #expect(r.out == "")
        }
        let r = eki("import", "--db", path, TestPaths.package("Datasets/n02-odawara-tokyo.csv"))
        #expect(r.status == 1)
        #expect(r.err == "eki import: \(path) is not an EkiKit database\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func directoryIsADirectory() throws {
        let folder = dir.appendingPathComponent("Datasets").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (command, args) in [("bbox", ["139.7,35.6,139.8,35.7"]), ("info", []), ("search", ["東京"])] {
            let r = eki([command, "--db", folder] + args)
            #expect(r.status == 1, "\(command)")
            #expect(r.err == "eki \(command): \(folder) is a directory\n")
        }
        let r = eki("import", "--db", folder, TestPaths.package("Datasets/n02-odawara-tokyo.csv"))
        #expect(r.status == 1)
        #expect(r.err == "eki import: \(folder) is a directory\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
