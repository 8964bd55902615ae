import EkiAccounts
import EkiCLI
import EkiKit
import EkiTestSupport
import Foundation
import Testing

/// `eki user add|passwd|rm|list|sessions|token` on an accounts file.
@Suite struct UserCommandTests {
    func passwordFile(_ text: String, in dir: URL) throws -> String {
        let p = dir.appendingPathComponent("pw-\(UUID().uuidString)").path
        try text.write(toFile: p, atomically: true, encoding: .utf8)
        return p
    }

    @Test func addListPasswdRm() throws {
        let dir = TestPaths.temporaryDirectory()
        let accounts = dir.appendingPathComponent("accounts.sqlite").path
        let add = eki(["user", "add", "alice", "--accounts", accounts, "--password-file", try passwordFile("correct horse\n", in: dir)])
        #expect(add.status == 0 && add.out == "added user alice (id 1) to \(accounts)\n", "\(add.err)")
        // From standard input (a script): the first line.
        let bob = eki(["user", "add", "bob", "--accounts", accounts], stdin: "battery staple\r\nignored\n")
        #expect(bob.status == 0, "\(bob.err)")
        let store = try AccountStore(path: accounts, create: false)
        #expect(try store.authenticate(name: "alice", password: "correct horse")?.id == 1)
        #expect(try store.authenticate(name: "bob", password: "battery staple")?.id == 2)
        _ = try store.createSession(for: 2)
        let list = eki(["user", "list", "--accounts", accounts])
        let today = UserCommandTests.today
        #expect(list.out == """
            name   id  created     sessions  tokens  visits
            alice   1  \(today)         0       0       0
            bob     2  \(today)         1       0       0

            """, "\(list.out)")
        // A new password ends bob's sessions.
        let passwd = eki(["user", "passwd", "bob", "--accounts", accounts], stdin: "new password\n")
        #expect(passwd.status == 0 && passwd.out == "new password for bob; 1 session ended\n")
        #expect(try store.authenticate(name: "bob", password: "new password") != nil)
        #expect(try store.authenticate(name: "bob", password: "battery staple") == nil)
        let rm = eki(["user", "rm", "alice", "--accounts", accounts])
        #expect(rm.status == 0 && rm.out == "removed user alice with 0 visits\n")
        #expect(try store.users().map(\.user.name) == ["bob"])
        // Nothing printed holds a password.
        for r in [add, bob, list, passwd, rm] { #expect(!(r.out + r.err).contains("correct horse") && !(r.out + r.err).contains("new password\n")) }
    }

    @Test func sessionsAndTokens() throws {
        let dir = TestPaths.temporaryDirectory()
        let accounts = dir.appendingPathComponent("accounts.sqlite").path
        #expect(eki(["user", "add", "carol", "--accounts", accounts], stdin: "long enough\n").status == 0)
        let store = try AccountStore(path: accounts, create: false)
        let s = try store.createSession(for: 1)
        let list = eki(["user", "sessions", "carol", "--accounts", accounts])
        let digest = try SecretToken.digest(s.id)
        #expect(list.status == 0 && list.out.hasPrefix("session       started               last used\n\(digest.prefix(12))  "), "\(list.out)")
        #expect(!list.out.contains(s.id))
        #expect(eki(["user", "sessions", "carol", "--revoke", "--accounts", accounts]).out == "ended 1 session of carol\n")
        #expect(try store.session(id: s.id) == nil)
        let token = eki(["user", "token", "carol", "--accounts", accounts])
        #expect(token.status == 0 && token.out.count == 44 && token.err.contains("Authorization: Bearer TOKEN"))
        #expect(try store.user(forToken: String(token.out.dropLast()))?.name == "carol")
        #expect(eki(["user", "token", "carol", "--revoke", "--accounts", accounts]).out == "revoked 1 token of carol\n")
        #expect(try store.user(forToken: String(token.out.dropLast())) == nil)
    }

    @Test func theDefaultFileIsBesideTheVisitLog() throws {
        let dir = TestPaths.temporaryDirectory()
        let visits = dir.appendingPathComponent("logs/visits.sqlite").path
        #expect(eki(["user", "add", "dave", "--password-file", try passwordFile("long enough", in: dir)],
                    environment: ["EKI_VISITS": visits]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("logs/accounts.sqlite").path))
        let data = dir.appendingPathComponent("data")
        #expect(eki(["user", "add", "erin"], stdin: "long enough\n", environment: ["XDG_DATA_HOME": data.path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("eki/accounts.sqlite").path))
    }

    @Test(arguments: [
        (["user"], 64, "give a subcommand"),
        (["user", "ad", "x"], 64, "did you mean 'add'"),
        (["user", "add"], 64, "give the user NAME"),
        (["user", "add", "a b"], 64, "invalid user name 'a b'"),
        (["user", "add", "-x"], 64, "unknown option -x"),
        (["user", "add", "アリス"], 64, "ASCII letters"),
        (["user", "list", "extra"], 64, "one argument too many"),
        (["user", "sessions", "x", "--revoke=yes"], 64, "takes no value"),
    ] as [([String], Int32, String)])
    func usageErrors(arguments: [String], status: Int32, message: String) {
        let r = eki(arguments + ["--accounts", TestPaths.temporaryDirectory().appendingPathComponent("a.sqlite").path])
        #expect(r.status == status && r.err.contains(message), "\(r.err)")
    }

    @Test func dataErrorsSayWhatIsWrong() throws {
        let dir = TestPaths.temporaryDirectory()
        let accounts = dir.appendingPathComponent("accounts.sqlite").path
        let none = eki(["user", "list", "--accounts", accounts])
        #expect(none.status == 1 && none.err.contains("no accounts file at \(accounts)"))
        #expect(eki(["user", "add", "frank", "--accounts", accounts], stdin: "long enough\n").status == 0)
        let twice = eki(["user", "add", "Frank", "--accounts", accounts], stdin: "long enough\n")
        #expect(twice.status == 1 && twice.err.contains("there is already a user 'Frank'"))
        let short = eki(["user", "add", "gina", "--accounts", accounts], stdin: "short\n")
        #expect(short.status == 1 && short.err == "eki user: password refused: a password has at least 8 characters\n")
        let empty = eki(["user", "add", "gina", "--accounts", accounts], stdin: "")
        #expect(empty.status == 1 && empty.err.contains("no password in standard input"))
        let file = eki(["user", "add", "gina", "--accounts", accounts, "--password-file", dir.appendingPathComponent("nope").path])
        #expect(file.status == 1 && file.err.contains("cannot read --password-file"))
        #expect(eki(["user", "passwd", "nobody", "--accounts", accounts], stdin: "long enough\n").err.contains("no user 'nobody'"))
        #expect(eki(["user", "rm", "nobody", "--accounts", accounts]).status == 1)
        let log = dir.appendingPathComponent("visits.sqlite").path
        _ = try VisitLog(path: log)
        let wrongFile = eki(["user", "list", "--accounts", log])
        #expect(wrongFile.status == 1 && wrongFile.err.contains("is not an EkiKit accounts file"))
        let noLog = eki(["user", "add", "gina", "--accounts", accounts, "--visits", dir.appendingPathComponent("none.sqlite").path],
                        stdin: "long enough\n")
        #expect(noLog.status == 1 && noLog.err.contains("no visit log at"))
        #expect(try AccountStore(path: accounts, create: false).user(named: "gina") == nil)
    }

    @Test func addWithVisitsBringsAnExistingLogAndRmTakesItAway() throws {
        let dir = TestPaths.temporaryDirectory()
        let accounts = dir.appendingPathComponent("accounts.sqlite").path
        let logPath = dir.appendingPathComponent("visits.sqlite").path
        let log = try VisitLog(path: logPath)
        let first = try log.add(Visit(stationKey: "jr-east/c/小田原", date: try VisitDate(parsing: "2019-08-13"), kind: .alight, note: "踊り子"))
        try log.add(Visit(stationKey: "odakyu/c/小田原", date: try VisitDate(parsing: "2020")))
        let add = eki(["user", "add", "alice", "--accounts", accounts, "--visits", logPath], stdin: "long enough\n")
        #expect(add.status == 0 && add.out == "added user alice (id 1, 2 visits from \(logPath)) to \(accounts)\n", "\(add.err)")
        let store = try AccountStore(path: accounts, create: false)
        let hers = try store.visits(of: 1).visits()
        #expect(hers.map(\.stationKey) == ["jr-east/c/小田原", "odakyu/c/小田原"])
        #expect(hers[0].note == "踊り子" && hers[0].kind == .alight && hers[0].uid == first.uid)
        // The single-user log is left as it was.
        #expect(try VisitLog(path: logPath, create: false).count() == 2)
        #expect(eki(["user", "add", "bob", "--accounts", accounts], stdin: "long enough\n").status == 0)
        #expect(try store.visits(of: 2).count() == 0)
        #expect(eki(["user", "list", "--accounts", accounts]).out.contains("alice   1  \(Self.today)         0       0       2"))
        #expect(eki(["user", "rm", "alice", "--accounts", accounts]).out == "removed user alice with 2 visits\n")
        #expect(try store.visits(of: 1).count() == 0)
    }

    @Test func addWithVisitsBringsTheLogsPhotosAndRmTakesThemAway() throws {
        let dir = TestPaths.temporaryDirectory()
        let accounts = dir.appendingPathComponent("accounts.sqlite").path
        let logPath = dir.appendingPathComponent("visits.sqlite").path
        let log = try VisitLog(path: logPath)
        let v = try log.add(Visit(stationKey: "jr-east/c/小田原", date: try VisitDate(parsing: "2019-08-13")))
        let jpeg: [UInt8] = [0xFF, 0xD8, 1, 2, 3, 0xFF, 0xD9]
        try log.addPhotos([NewVisitPhoto(jpeg: jpeg, width: 1600, height: 1200, thumbnail: [0xFF, 0xD8, 0xFF, 0xD9],
                                         thumbnailWidth: 480, thumbnailHeight: 360)], to: v.id)
        let add = eki(["user", "add", "alice", "--accounts", accounts, "--visits", logPath], stdin: "long enough\n")
        #expect(add.out == "added user alice (id 1, 1 visits and 1 photos from \(logPath)) to \(accounts)\n", "\(add.err)")
        let hers = try AccountStore(path: accounts, create: false).visits(of: 1)
        let photos = try hers.allPhotos()
        let bytes = try hers.photoBytes(id: photos[0].id)
        #expect(photos.count == 1 && bytes == jpeg)
        #expect(eki(["user", "rm", "alice", "--accounts", accounts]).status == 0)
        #expect(try AccountStore(path: accounts, create: false).visits(of: 1).allPhotos().isEmpty)
    }

    static var today: String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd"
        return f.string(from: Date())
    }
}
