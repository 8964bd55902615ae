import EkiAccounts
import EkiKit
import Foundation

/// `eki store migrate --from accounts.sqlite --to postgresql://…`: moves a one-machine store to
/// PostgreSQL (`AccountStore.migrate(to:)`).
struct StoreCommand: Command {
    static let summary = "the accounts store: migrate an accounts file to PostgreSQL"
    static let help = """
    usage: eki store migrate --from PATH --to URL

    Copies every account, session, API token, visit, deletion record, setting, sync cursor and
    photo of the accounts file PATH (SQLite) into the PostgreSQL database URL (postgresql://…,
    its schema made when missing), keeping every id, in one transaction; then checks that the
    database holds every row as it is, and prints the counts per table. Re-running it copies
    nothing twice. A row whose id (or an account whose name) the database already gives to
    something else stops it with nothing written. Stop the servers using PATH first, then
    start them with --store URL.

    """

    let from: String
    let to: String
    let console: Console

    init(arguments: [String], console: Console) throws {
        guard arguments.first == "migrate" else {
            throw UsageError(arguments.first.map { "unknown subcommand '\($0)' (migrate)" } ?? "give a subcommand first: migrate")
        }
        let args = try Arguments(Array(arguments.dropFirst()), valued: ["from", "to"], flags: [])
        guard args.positionals.isEmpty else { throw UsageError("store migrate: unexpected argument '\(args.positionals[0])'") }
        guard let from = args["from"], let to = args["to"] else { throw UsageError("store migrate: give --from PATH and --to URL") }
        guard AccountStore.isPostgres(to) else { throw UsageError("store migrate: --to needs a postgresql:// URL, got '\(AccountStore.displayLocation(to))'") }
        guard !AccountStore.isPostgres(from) else { throw UsageError("store migrate: --from needs an accounts file (SQLite)") }
        self.from = from
        self.to = to
        self.console = console
    }

    func run() throws -> Int32 {
        let source = try AccountStore(path: from, create: false, readOnly: true)
        let destination = try AccountStore(path: to, create: true)
        let report: StoreMigrationReport
        do {
            report = try source.migrate(to: destination)
        } catch let e as StoreMigrationError {
            console.err("eki store migrate: \(e.description)\n")
            return 1
        }
        let rows = report.tables.map { [$0.name, String($0.source), String($0.copied), String($0.alreadyThere)] }
        console.out(DisplayWidth.table(header: ["table", "rows", "copied", "already there"], rows: rows, rightAligned: [1, 2, 3]))
        let total = report.tables.reduce(0) { $0 + $1.source }
        console.out("\(total) rows of \(from) are in \(destination.path), each checked\n")
        return 0
    }
}
