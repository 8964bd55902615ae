/// The line on stderr that says a list was cut by `--limit`: `20 of 51 shown (--limit)`.
enum LimitNotice {
    static func report(shown: Int, of total: Int, console: Console) {
        guard total > shown else { return }
        console.err("\(shown) of \(total) shown (--limit)\n")
    }
}
