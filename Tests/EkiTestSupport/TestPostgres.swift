import Foundation
import EkiSQLite
import Testing

/// A real PostgreSQL server for the tests (Debian `postgresql`): `initdb` into a temporary
/// folder as an unprivileged user (`nobody` when the tests run as root), listening on a Unix
/// socket in that folder only (`listen_addresses = ''`), stopped when the test process ends.
///
/// `TestPostgres.shared` is one server for the whole process; `database()` gives each test a
/// database of its own on it. A test that restarts the server makes its own (`start()`).
public final class TestPostgres: @unchecked Sendable {
    /// The data folder and socket folder (`data/`, the socket beside it).
    public let folder: URL
    private let bin: String
    private let user: String?
    private let lock = NSLock()
    private var count = 0

    /// The folder of PostgreSQL's programs (`/usr/lib/postgresql/N/bin`, highest N), or nil.
    public static let binFolder: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().reversed().map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }()

    /// Why PostgreSQL cannot run here, or nil (checked without starting it).
    public static let unavailableReason: String? = {
        guard binFolder != nil else { return "needs PostgreSQL's initdb (Debian package postgresql)" }
        if getuid() == 0, getpwnam("nobody") == nil { return "running as root with no user 'nobody' to run PostgreSQL as" }
        return nil
    }()

    private static let sharedServer: Result<TestPostgres, Failure> = {
        do {
            let pg = try start()
            atexit { try? TestPostgres.shared().stop() }
            return .success(pg)
        } catch {
            return .failure(error as? Failure ?? Failure(description: "\(error)"))
        }
    }()

    /// The server every test of the process shares, started on first use.
    /// - Throws: `Failure` when it cannot start (where it can run at all: see `needsPostgres`).
    public static func shared() throws -> TestPostgres { try sharedServer.get() }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// A new server in a new temporary folder.
    /// - Throws: `Failure` with the tool's output when initdb or pg_ctl fails.
    public static func start() throws -> TestPostgres {
        guard let bin = binFolder else { throw Failure(description: "no initdb") }
        // Short: a Unix socket path has room for about 100 bytes.
        let folder = URL(fileURLWithPath: "/tmp/eki-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let user: String? = getuid() == 0 ? "nobody" : nil
        if let user, let pw = getpwnam(user) { chown(folder.path, pw.pointee.pw_uid, pw.pointee.pw_gid) }
        let pg = TestPostgres(folder: folder, bin: bin, user: user)
        try pg.tool("initdb", ["-D", "\(folder.path)/data", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync", "-U", "eki"])
        try pg.startServer()
        return pg
    }

    private init(folder: URL, bin: String, user: String?) {
        self.folder = folder
        self.bin = bin
        self.user = user
    }

    /// The URL of database `name` on this server (`postgresql:///NAME?host=FOLDER&user=eki`).
    public func url(database name: String = "postgres") -> String {
        "postgresql:///\(name)?host=\(folder.path)&user=eki"
    }

    /// A new, empty database on this server; its URL.
    public func database() throws -> String {
        let name: String = lock.withLock {
            count += 1
            return "t\(getpid())_\(count)"
        }
        try psql("CREATE DATABASE \(name)")
        return url(database: name)
    }

    /// Runs `sql` with psql on the `postgres` database.
    public func psql(_ sql: String) throws {
        try tool("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", folder.path, "-U", "eki", "-d", "postgres", "-c", sql])
    }

    /// `pg_ctl restart` (fast shutdown: sessions are ended).
    public func restart() throws {
        try tool("pg_ctl", ["-D", "\(folder.path)/data", "-w", "-m", "fast", "restart", "-o", serverOptions, "-l", "\(folder.path)/log"])
    }

    /// Stops the server and removes its folder.
    public func stop() {
        _ = try? tool("pg_ctl", ["-D", "\(folder.path)/data", "-w", "-m", "immediate", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    private var serverOptions: String { "-c listen_addresses='' -c unix_socket_directories='\(folder.path)' -c fsync=off -c max_connections=200" }

    private func startServer() throws {
        try tool("pg_ctl", ["-D", "\(folder.path)/data", "-w", "-l", "\(folder.path)/log", "-o", serverOptions, "start"])
    }

    /// Runs one of PostgreSQL's programs (as `user` when set) and waits for it.
    ///
    /// `posix_spawn` and `waitpid` rather than Foundation's `Process`: `Process.waitUntilExit`
    /// spins a run loop that, on a busy cooperative pool, was seen never to reap the child.
    /// Output goes to a file, not a pipe, since `pg_ctl start` leaves a server running.
    @discardableResult
    private func tool(_ name: String, _ args: [String]) throws -> String {
        let program = "\(bin)/\(name)"
        let argv = user.map { ["/usr/sbin/runuser", "-u", $0, "--", program] + args } ?? [program] + args
        let output = folder.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(6)).out").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArgs, environ)
        guard spawned == 0 else { throw Failure(description: "\(name): posix_spawn failed: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: output)
        let exited = (status & 0x7f) == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            throw Failure(description: "\(name) exited \(exited ? "with \(code)" : "on signal \(status & 0x7f)"): \(text.suffix(600))")
        }
        return text
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs only when a PostgreSQL server can be started here (`TestPostgres.shared`).
    public static var needsPostgres: Self {
        .enabled(if: TestPostgres.unavailableReason == nil, Comment(rawValue: TestPostgres.unavailableReason ?? ""))
    }
}

/// Where a store test keeps its accounts: a new SQLite file, or a new database on the shared
/// PostgreSQL server.
public enum StoreEngines {
    /// A fresh, empty location for `engine`: a file path or a `postgresql://` URL.
    /// - Throws: `TestPostgres.Failure` when the server cannot start or make the database.
    public static func newLocation(_ engine: SQLEngine) throws -> String {
        switch engine {
        case .sqlite: return TestPaths.temporaryDirectory().appendingPathComponent("accounts.sqlite").path
        case .postgresql: return try TestPostgres.shared().database()
        }
    }
}
