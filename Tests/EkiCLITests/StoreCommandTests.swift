import EkiAccounts
import EkiCLI
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// `--store` (a file or a `postgresql://` URL) for `eki user` and `eki visit --user`, and
/// `eki store migrate`.
@Suite struct StoreCommandTests {
    @Test(.needsPostgres) func accountsAndTheirVisitsOnPostgreSQL() throws {
        let url = try TestPostgres.shared().database()
        let dir = TestPaths.temporaryDirectory()
        let db = sampleDatabase(in: dir)
        let add = eki(["user", "add", "alice", "--store", url], stdin: "correct horse\n")
        #expect(add.status == 0 && add.out == "added user alice (id 1) to \(url)\n", "\(add.err)")
        let visit = eki(["visit", "add", "jr-east/c/小田原", "--date", "2019-08-13", "--user", "alice", "--store", url, "--db", db])
        #expect(visit.status == 0 && visit.out == "visit 1: 2019-08-13 - 小田原 (JR東日本) jr-east/c/小田原\n", "\(visit.err)")
        // $EKI_STORE says the same as --store.
        let env = ["EKI_STORE": url, "EKI_DB": db]
        let list = eki(["visit", "list", "--user", "alice"], environment: env)
        #expect(list.status == 0 && list.out.contains("1   2019-08-13        小田原 (JR東日本)        jr-east/c/小田原\n"), "\(list.out)\(list.err)")
        #expect(eki(["user", "list"], environment: env).out.contains("alice   1"))
        let noUser = eki(["visit", "add", "jr-east/c/小田原", "--store", url, "--db", db])
        #expect(noUser.status == 64 && noUser.err == "eki visit: --store holds everyone's visits: give --user NAME to say whose\n")
        let zed = eki(["visit", "list", "--user", "zed"], environment: env)
        #expect(zed.status == 1 && zed.err == "eki visit: no user 'zed'\n")
        // Nothing went to a visit log file.
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("visits.sqlite").path))
    }

    @Test(.needsPostgres) func migrateMovesAFileAndCanRunAgain() throws {
        let dir = TestPaths.temporaryDirectory()
        let file = dir.appendingPathComponent("accounts.sqlite").path
        #expect(eki(["user", "add", "alice", "--store", file], stdin: "correct horse\n").status == 0)
        let db = sampleDatabase(in: dir)
        for key in ["jr-east/c/小田原", "odakyu/c/小田原"] {
            #expect(eki(["visit", "add", key, "--user", "alice", "--store", file, "--db", db]).status == 0)
        }
        let url = try TestPostgres.shared().database()
        let first = eki(["store", "migrate", "--from", file, "--to", url])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out == """
            table             rows  copied  already there
            users                1       1              0
            sessions             0       0              0
            api_tokens           0       0              0
            visits               2       2              0
            visit_tombstones     0       0              0
            settings             0       0              0
            sync_peers           0       0              0
            key_sources          2       2              0
            visit_photos         0       0              0
            5 rows of \(file) are in \(url), each checked

            """)
        let again = eki(["store", "migrate", "--from", file, "--to", url])
        #expect(again.status == 0 && again.out.contains("visits               2       0              2\n"))
        #expect(eki(["visit", "list", "--user", "alice", "--store", url, "--db", db]).out.hasSuffix("(2 visits)\n"))
    }

    @Test func aStoreThatCannotBeReachedIsNamedWithoutItsPassword() {
        let r = eki(["user", "list", "--store", "postgresql://eki:sekrit@127.0.0.1:1/eki"])
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("eki user: PostgreSQL: cannot connect to postgresql://eki:***@127.0.0.1:1/eki: "), "\(r.err)")
        #expect(!r.err.contains("sekrit"))
        let wrongWay = eki(["store", "migrate", "--from", "postgresql:///eki", "--to", "postgresql:///other"])
        #expect(wrongWay.status == 64 && wrongWay.err == "eki store: store migrate: --from needs an accounts file (SQLite)\n")
        let toFile = eki(["store", "migrate", "--from", "a.sqlite", "--to", "b.sqlite"])
        #expect(toFile.status == 64 && toFile.err == "eki store: store migrate: --to needs a postgresql:// URL, got 'b.sqlite'\n")
    }
}
