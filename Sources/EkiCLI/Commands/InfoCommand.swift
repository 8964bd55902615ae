import EkiKit

/// `eki info`: what the database holds.
struct InfoCommand: Command {
    static let summary = "counts per source, operator and class"
    static let help = """
    usage: eki info [--db PATH] [--format table|json]

    Prints the number of entries (open and all), per source dataset, and per operator × class.
    \(DatabaseOption.help)
    """

    let args: Arguments
    let console: Console
    let format: OutputFormat

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: ["db", "format"], flags: [])
        self.console = console
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        format = try OutputFormat(option: args["format"])
        guard format == .table || format == .json else { throw UsageError("--format must be table or json") }
    }

    func run() throws -> Int32 {
        let path = DatabaseOption.path(args, console)
        let info = try StationStore(path: path, readOnly: true).info()
        if format == .json {
            let j = JSON.object([
                ("database", .string(path)), ("entries", .int(info.entries)), ("open", .int(info.openEntries)),
                ("datasets", .array(info.datasets.map { .object([("dataset", .string($0.name)), ("entries", .int($0.entries)), ("open", .int($0.open))]) })),
                ("operators", .array(info.operators.map { .object([("operator", .string($0.operatorName)), ("class", .string($0.serviceClass.rawValue)), ("entries", .int($0.entries)), ("open", .int($0.open))]) })),
            ])
            console.out(j.text(pretty: true) + "\n")
            return 0
        }
        var out = "\(path): \(info.entries) entries (\(info.openEntries) open)\n\nby source:\n"
        out += DisplayWidth.table(header: ["dataset", "entries", "open"],
                                  rows: info.datasets.map { [$0.name, String($0.entries), String($0.open)] })
        out += "\nby operator and class:\n"
        out += DisplayWidth.table(header: ["operator", "class", "entries", "open"],
                                  rows: info.operators.map { [$0.operatorName, $0.serviceClass == .shinkansen ? "新幹線" : "在来線", String($0.entries), String($0.open)] })
        console.out(out)
        return 0
    }
}
