import EkiAccounts
import EkiKit
import Foundation

/// `--store LOCATION` (alias `--accounts`): where accounts, sessions and their visits live — an
/// accounts file (SQLite) or a PostgreSQL database given as a `postgresql://` URL (libpq's URI
/// form, e.g. `postgresql://eki@db.example.org/eki` or `postgresql:///eki?host=/run/postgresql`).
enum StoreOption {
    static let valued: Set<String> = ["store", "accounts"]
    static let help = """
      --store LOCATION  the accounts store: an accounts file (SQLite), or a PostgreSQL database as a
                        postgresql:// URL (default: $EKI_STORE, else $EKI_ACCOUNTS, else
                        accounts.sqlite beside the visit log: $EKI_VISITS's folder, else
                        $XDG_DATA_HOME/eki, else ~/.local/share/eki); --accounts is the same option

    """

    /// `--store`, `--accounts` or `$EKI_STORE` when one is given (the server runs with accounts
    /// only then), else nil.
    /// - Throws: `UsageError` when `--store` and `--accounts` are both given.
    static func given(_ args: Arguments, _ console: Console) throws(UsageError) -> String? {
        if args["store"] != nil && args["accounts"] != nil { throw UsageError("give --store or --accounts (the same option), not both") }
        return args["store"] ?? args["accounts"] ?? console.environment["EKI_STORE"]
    }

    /// The store `args` names, else `$EKI_ACCOUNTS`, else `accounts.sqlite` beside the visit log.
    static func location(_ args: Arguments, _ console: Console) throws(UsageError) -> String {
        try given(args, console) ?? console.environment["EKI_ACCOUNTS"]
            ?? AccountStore.defaultPath(besideVisitLog: console.environment["EKI_VISITS"]
                                        ?? VisitLog.defaultPath(environment: console.environment))
    }
}

/// Where `eki visit` reads and writes: the visit log file (`--visits PATH`), or one account's
/// visits in the accounts store (`--user NAME`, the store from `StoreOption`).
enum VisitLocation: CustomStringConvertible {
    case file(String)
    case account(store: String, user: String)

    static let valued: Set<String> = StoreOption.valued.union(["visits", "user"])
    static let help = """
      --user NAME       the visits of account NAME in the accounts store (see --store) instead of
                        a visit log file
    \(StoreOption.help)
    """

    /// - Throws: `UsageError` for `--user` with `--visits`, or `--store` without `--user`.
    init(_ args: Arguments, _ console: Console) throws(UsageError) {
        if let user = args["user"] {
            if args["visits"] != nil { throw UsageError("give --visits PATH or --user NAME, not both") }
            self = .account(store: try StoreOption.location(args, console), user: user)
        } else if args["store"] != nil || args["accounts"] != nil {
            throw UsageError("--store holds everyone's visits: give --user NAME to say whose")
        } else {
            self = .file(VisitOptions.path(args, console))
        }
    }

    /// The file path, or `NAME in STORE` (a URL's password hidden).
    var description: String {
        switch self {
        case .file(let path): path
        case .account(let store, let user): "\(user) in \(AccountStore.displayLocation(store))"
        }
    }

    /// The log to write to. A file is made when missing (`create`); else `VisitLogError.missing`.
    /// - Throws: `AccountError` when the store or the user does not exist.
    func open(create: Bool = true) throws -> VisitLog {
        switch self {
        case .file(let path):
            if !create && !FileManager.default.fileExists(atPath: path) { throw VisitLogError.missing(path) }
            return try VisitLog(path: path)
        case .account(let location, let user):
            let store = try AccountStore(path: location, create: false)
            return try store.visits(of: store.requireUser(named: user).id)
        }
    }

    /// The log to read: an empty one when the file does not exist yet (with a note on stderr).
    func openForReading(console: Console, note: Bool = true) throws -> VisitLog {
        switch self {
        case .file(let path):
            return try VisitOptions.openForReading(path, console: console, note: note)
        case .account(let location, let user):
            let store = try AccountStore(path: location, create: false, readOnly: true)
            return try store.visits(of: store.requireUser(named: user).id)
        }
    }
}
