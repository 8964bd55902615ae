/// The log's counting rules setting (`settings.counting_rules`): which open entries count in
/// n/m when a command is not given `--rules` (`CountingRules`; `oritsubushi` by default).
extension VisitLog {
    /// The stored rules; `CountingRules.default` when none is stored or the value is unknown.
    /// - Throws: `SQLiteError`.
    public func countingRules() throws -> CountingRules {
        let s = try db.cached("SELECT value FROM settings WHERE owner = ? AND name = 'counting_rules'")
        defer { s.reset() }
        try s.bind([.int(owner)])
        return try s.step() ? CountingRules(rawValue: s.text(0)) ?? .default : .default
    }

    /// Stores `rules` as the log's counting rules.
    /// - Throws: `SQLiteError`.
    public func setCountingRules(_ rules: CountingRules) throws {
        try db.prepare("INSERT INTO settings (owner, name, value) VALUES (?, 'counting_rules', ?) \(Self.replacingSetting)")
            .run([.int(owner), .text(rules.rawValue)])
    }
}
