import EkiKit
import EkiImport
import Foundation

/// The `eki` command line. Each subcommand is a type in Commands/; `run` returns the exit status:
/// 0 success, 1 data error (bad input file, database problem), 64 usage error.
public enum EkiCommandLine {
    static var commands: [String: any Command.Type] { [
        "import": ImportCommand.self,
        "bbox": BBoxCommand.self,
        "nearest": NearestCommand.self,
        "info": InfoCommand.self,
        "visit": VisitCommand.self,
        "stats": StatsCommand.self,
        "geocode": GeocodeCommand.self,
        "search": SearchCommand.self,
        "serve": ServeCommand.self,
        "show": ShowCommand.self,
        "render": RenderCommand.self,
        "lines": LinesCommand.self,
        "line": LineCommand.self,
        "user": UserCommand.self,
        "store": StoreCommand.self,
    ] }

    /// Runs `eki` with `arguments` (without the program name).
    public static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        if arguments.first == "help", arguments.count == 2 {
            // `eki help bbox` is `eki bbox --help`.
            guard let command = commands[arguments[1]] else { return unknownCommand(arguments[1], console: console) }
            console.out(command.help.hasSuffix("\n") ? command.help : command.help + "\n")
            return 0
        }
        guard let name = arguments.first, name != "--help", name != "-h", name != "help" else {
            console.out(usage)
            return arguments.isEmpty ? 64 : 0
        }
        if name == "--version" { console.out("eki \(EkiKitVersion.string)\n"); return 0 }
        guard let command = commands[name] else { return unknownCommand(name, console: console) }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            let help = command.help(for: rest)
            console.out(help.hasSuffix("\n") ? help : help + "\n")
            return 0
        }
        do {
            return try command.init(arguments: rest, console: console).run()
        } catch let e as UsageError {
            console.err("eki \(name): \(e.message)\n")
            return 64
        } catch {
            console.err("eki \(name): \(error)\n")
            return 1
        }
    }

    /// `eki: unknown command 'serach'; did you mean 'search'? …` on stderr; exit 64.
    static func unknownCommand(_ name: String, console: Console) -> Int32 {
        let close = Suggestions.closest(to: name, among: commands.keys.sorted().map { .init(label: "'\($0)'", names: [$0]) })
        console.err("eki: unknown command '\(name)'\(Suggestions.didYouMean(close)) (`eki --help` lists the commands)\n")
        return 64
    }

    static var usage: String {
        """
        eki — station database for 降りつぶし (one entry per operator × Shinkansen/conventional × place)

        usage: eki <command> [options]

        commands:
        \(commands.keys.sorted().map { "  \(DisplayWidth.pad($0, 9)) \(commands[$0]!.summary)" }.joined(separator: "\n"))

        Run `eki <command> --help` (or `eki help <command>`) for a command's options.
        The database is --db PATH, else $EKI_DB, else ./stations.gpkg.
        The visit log is --visits PATH, else $EKI_VISITS, else $XDG_DATA_HOME/eki/visits.sqlite
        (~/.local/share/eki/visits.sqlite when XDG_DATA_HOME is not set).

        """
    }
}

/// A subcommand: parse and check arguments in `init`, then `run`.
protocol Command {
    static var summary: String { get }
    static var help: String { get }
    /// The help for `eki <command> ARGUMENTS --help`: a subcommand's own help when it has one
    /// (`eki visit photo --help`), else `help`.
    static func help(for arguments: [String]) -> String
    init(arguments: [String], console: Console) throws
    func run() throws -> Int32
}

extension Command {
    static func help(for arguments: [String]) -> String { help }
}

/// Options every database command shares.
struct DatabaseOption {
    static let help = "  --db PATH          station database (default: $EKI_DB, else ./stations.gpkg)\n"

    /// `--db`, else `EKI_DB`, else `./stations.gpkg`.
    static func path(_ args: Arguments, _ console: Console) -> String {
        args["db"] ?? console.environment["EKI_DB"] ?? "stations.gpkg"
    }
}
