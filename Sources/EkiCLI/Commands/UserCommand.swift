import EkiAccounts
import EkiKit
import Foundation

/// `eki user add|passwd|rm|list|sessions|token`: the accounts of `eki serve --accounts`.
struct UserCommand: Command {
    static let summary = "accounts for `eki serve --accounts`: add, passwd, rm, list, sessions, token"
    static let help = """
    usage: eki user add NAME [--password-file F] [--visits PATH]
           eki user passwd NAME [--password-file F]
           eki user rm NAME
           eki user list
           eki user sessions NAME [--revoke]
           eki user token NAME [--revoke]

    Accounts, their login sessions, API tokens and visits live in one store: an accounts
    file (SQLite), or a PostgreSQL database several servers share. Passwords are kept only as
    Argon2id hashes (libsodium).
      add       makes an account. NAME: 1–32 ASCII letters, digits, '.', '_' or '-' (case does
                not tell names apart). The password (at least 8 characters) is asked twice on a
                terminal, else read from the first line of --password-file F or of standard input.
                --visits PATH gives the account an existing visit log (its visits are merged in,
                with their photos).
      passwd    sets a new password; every session of the account ends (tokens stay).
      rm        removes the account with its sessions, tokens and visits.
      list      every account: id, created, sessions, tokens, visits.
      sessions  the account's sessions (started, last used); --revoke ends them all.
      token     prints a new API token on standard output, once (only its hash is kept); scripts
                send it as `Authorization: Bearer TOKEN`. --revoke revokes the account's tokens.
    \(StoreOption.help)
    """

    static let subcommands = ["add", "passwd", "rm", "list", "sessions", "token"]

    let sub: String
    let args: Arguments
    let console: Console

    init(arguments: [String], console: Console) throws {
        guard let sub = arguments.first, !sub.hasPrefix("-") else {
            throw UsageError("give a subcommand first: \(Self.subcommands.joined(separator: ", "))")
        }
        guard Self.subcommands.contains(sub) else {
            let close = Suggestions.closest(to: sub, among: Self.subcommands.map { .init(label: "'\($0)'", names: [$0]) })
            throw UsageError("unknown subcommand '\(sub)'\(Suggestions.didYouMean(close)) (\(Self.subcommands.joined(separator: ", ")))")
        }
        self.sub = sub
        self.console = console
        let valued: Set<String> = switch sub {
        case "add": ["password-file", "visits"]
        case "passwd": ["password-file"]
        default: []
        }
        let flags: Set<String> = sub == "sessions" || sub == "token" ? ["revoke"] : []
        args = try Arguments(Array(arguments.dropFirst()), valued: valued.union(StoreOption.valued), flags: flags)
        let wanted = sub == "list" ? 0 : 1
        guard args.positionals.count == wanted else {
            throw UsageError(args.positionals.count < wanted ? "user \(sub): give the user NAME"
                             : "user \(sub): one argument too many (not repeated here: it may be a password)")
        }
        if sub == "add" {
            do { try UserName.check(args.positionals[0]) } catch { throw UsageError(error.description) }
        }
    }


    var name: String { args.positionals[0] }

    func open(create: Bool = false) throws -> AccountStore {
        try AccountStore(path: StoreOption.location(args, console), create: create)
    }

    func run() throws -> Int32 {
        switch sub {
        case "add": return try add()
        case "passwd": return try passwd()
        case "rm": return try remove()
        case "list": return try list()
        case "sessions": return try sessions()
        default: return try token()
        }
    }

    func add() throws -> Int32 {
        // The visit log to import is checked before anything is made.
        let source = try args["visits"].map { try VisitLog(path: $0, create: false) }
        let password = try PasswordInput.read(for: name, file: args["password-file"], console: console)
        let store = try open(create: true)
        let user = try store.addUser(name: name, password: password)
        var imported = ""
        if let source {
            do {
                // The log's photos come along with their visits, in the same transaction.
                let r = try store.visits(of: user.id).merge(try source.visits(), photos: try source.archivedPhotos())
                imported = ", \(r.visits.added.count) visits\(r.photosAdded > 0 ? " and \(r.photosAdded) photos" : "") from \(source.path)"
            } catch {
                _ = try? store.removeUser(name: name)   // the user is not kept without the visits asked for
                throw error
            }
        }
        console.out("added user \(user.name) (id \(user.id)\(imported)) to \(store.path)\n")
        return 0
    }

    func passwd() throws -> Int32 {
        let store = try open()
        _ = try store.requireUser(named: name)
        let password = try PasswordInput.read(for: name, file: args["password-file"], console: console)
        let ended = try store.setPassword(name: name, password: password)
        console.out("new password for \(name); \(ended) session\(ended == 1 ? "" : "s") ended\n")
        return 0
    }

    func remove() throws -> Int32 {
        let store = try open()
        let visits = try store.removeUser(name: name)
        console.out("removed user \(name) with \(visits) visit\(visits == 1 ? "" : "s")\n")
        return 0
    }

    func list() throws -> Int32 {
        let store = try open()
        let users = try store.users()
        guard !users.isEmpty else {
            console.err("no users in \(store.path) (add one with `eki user add NAME`)\n")
            return 0
        }
        let rows = users.map { [$0.user.name, String($0.user.id), Self.day($0.user.createdAt), String($0.sessions), String($0.tokens), String($0.visits)] }
        console.out(DisplayWidth.table(header: ["name", "id", "created", "sessions", "tokens", "visits"], rows: rows,
                                       rightAligned: [1, 3, 4, 5]))
        return 0
    }

    func sessions() throws -> Int32 {
        let store = try open()
        let user = try store.requireUser(named: name)
        if args.has("revoke") {
            let n = try store.endSessions(of: user.id)
            console.out("ended \(n) session\(n == 1 ? "" : "s") of \(user.name)\n")
            return 0
        }
        let list = try store.sessions(of: user.id)
        guard !list.isEmpty else {
            console.err("\(user.name) has no sessions\n")
            return 0
        }
        // The start of the digest names a session (never the cookie's value).
        let rows = list.map { [String($0.digest.prefix(12)), Self.minute($0.createdAt), Self.minute($0.lastSeen)] }
        console.out(DisplayWidth.table(header: ["session", "started", "last used"], rows: rows))
        return 0
    }

    func token() throws -> Int32 {
        let store = try open()
        let user = try store.requireUser(named: name)
        if args.has("revoke") {
            let n = try store.revokeTokens(of: user.id)
            console.out("revoked \(n) token\(n == 1 ? "" : "s") of \(user.name)\n")
            return 0
        }
        let token = try store.createToken(for: user.id)
        console.out(token + "\n")
        console.err("a new API token for \(user.name), shown this once: send it as `Authorization: Bearer TOKEN`\n")
        return 0
    }

    static func day(_ d: Date) -> String { stamp(d, "yyyy-MM-dd") }
    static func minute(_ d: Date) -> String { stamp(d, "yyyy-MM-dd HH:mm") + " UTC" }

    static func stamp(_ d: Date, _ format: String) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = format
        return f.string(from: d)
    }
}
