import EkiKit

/// `--rules oritsubushi|all`: which open entries count (`CountingRules`).
enum CountingOption {
    static let help = """
      --rules R     oritsubushi (降りつぶし.net's rules, suspended stations such as
                    肥薩線 八代–吉松 do not count) or all (every open entry counts); the
                    default is the log's setting (`eki visit config counting-rules`),
                    oritsubushi when unset

    """

    /// The rules `--rules` names; without it, `log`'s setting (the default rules without a log).
    /// - Throws: `UsageError` for another value; `SQLiteError` reading the log.
    static func rules(_ args: Arguments, log: VisitLog? = nil) throws -> CountingRules {
        guard let r = args["rules"] else { return try log?.countingRules() ?? .default }
        guard let c = CountingRules(rawValue: r) else {
            throw UsageError("--rules must be oritsubushi or all, got '\(r)'")
        }
        return c
    }
}
