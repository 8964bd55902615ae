import EkiKit

/// `--rules oritsubushi|all`: which open entries count (`CountingRules`).
enum CountingOption {
    static let help = """
      --rules R     oritsubushi (default: 降りつぶし.net's rules, suspended stations such as
                    肥薩線 八代–吉松 do not count) or all (every open entry counts)

    """

    /// The rules `--rules` names, the default without it.
    /// - Throws: `UsageError` for another value.
    static func rules(_ args: Arguments) throws -> CountingRules {
        guard let r = args["rules"] else { return .default }
        guard let c = CountingRules(rawValue: r) else {
            throw UsageError("--rules must be oritsubushi or all, got '\(r)'")
        }
        return c
    }
}
