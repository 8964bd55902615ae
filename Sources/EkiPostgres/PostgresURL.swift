import Foundation


/// A PostgreSQL connection string as `eki --store` takes it: a `postgresql://` or
/// `postgres://` URI (libpq's form, e.g. `postgresql://eki@db.example/eki`,
/// `postgresql:///eki?host=/run/postgresql`).
public enum PostgresURL {
    /// Whether `text` names a PostgreSQL database rather than a file.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// `url` with any password replaced by `***`, for messages and logs
    /// (`postgresql://eki:secret@host/db` → `postgresql://eki:***@host/db`; a `password=`
    /// query parameter likewise).
    public static func redacted(_ url: String) -> String {
        var out = url
        if let scheme = out.range(of: "://") {
            let rest = out[scheme.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@"),
               let colon = rest[..<at].firstIndex(of: ":") {
                out.replaceSubrange(rest.index(after: colon)..<at, with: "***")
            }
        }
        if let r = out.range(of: "password=") {
            let end = out[r.upperBound...].firstIndex(of: "&") ?? out.endIndex
            out.replaceSubrange(r.upperBound..<end, with: "***")
        }
        return out
    }
}
