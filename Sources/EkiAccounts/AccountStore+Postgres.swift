import EkiKit
import EkiPostgres
import EkiSQLite

/// The accounts store on PostgreSQL: the same tables as the accounts file (users, sessions,
/// API tokens, and the visit log's visits, tombstones, settings, sync peers, key sources and
/// photos, every row of a person carrying their user id as `owner`), made and upgraded by eki
/// itself. Several `eki serve` processes share one database.
///
/// Schema: `eki_schema (version)` says which of `postgresSteps` have run; each step is frozen
/// SQL (a later change is a new step, never an edit) and runs in one transaction holding an
/// advisory lock, so two servers starting at once upgrade it once. Differences from the SQLite
/// file: ids come from sequences (`users_id_seq`, `visits_id_seq`, `visit_photos_id_seq`),
/// the change counter is the sequence `sync_sequence` (two servers never hand out the same
/// change number; one owner's writes take turns on an advisory lock, so the numbers are in
/// commit order: `VisitLog.write`), names are unique on `lower(name)`, dates are checked by a
/// regular expression, blobs are `bytea`, and `ifnull` is a SQL function (as SQLite's).
extension AccountStore {
    /// The schema version this eki makes and reads.
    public static var postgresSchemaVersion: Int { postgresSteps.count }

    /// Advisory lock key of schema changes (apart from owners' keys, which are positive).
    static let schemaLockKey: Int64 = -0x454B_4941

    /// Step n makes version n. Frozen: never edit a step that has shipped; add one.
    static let postgresSteps: [String] = [
        """
        CREATE FUNCTION ifnull(anyelement, anyelement) RETURNS anyelement
          LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT coalesce($1, $2)';
        CREATE SEQUENCE users_id_seq;
        CREATE TABLE users (
          id bigint PRIMARY KEY DEFAULT nextval('users_id_seq'),
          name text NOT NULL CHECK (name <> ''),
          password_hash text NOT NULL,
          created_at bigint NOT NULL);
        ALTER SEQUENCE users_id_seq OWNED BY users.id;
        CREATE UNIQUE INDEX users_name ON users (lower(name));
        CREATE TABLE sessions (
          digest text PRIMARY KEY,
          user_id bigint NOT NULL,
          csrf text NOT NULL,
          created_at bigint NOT NULL,
          last_seen bigint NOT NULL);
        CREATE INDEX sessions_user ON sessions (user_id);
        CREATE TABLE api_tokens (
          digest text PRIMARY KEY,
          user_id bigint NOT NULL,
          created_at bigint NOT NULL,
          last_used bigint);
        CREATE INDEX api_tokens_user ON api_tokens (user_id);
        CREATE SEQUENCE visits_id_seq;
        CREATE TABLE visits (
          id bigint PRIMARY KEY DEFAULT nextval('visits_id_seq'),
          owner bigint NOT NULL DEFAULT 0,
          uid text NOT NULL CHECK (length(uid) BETWEEN 1 AND 64),
          station_key text NOT NULL CHECK (station_key <> ''),
          date text CHECK (date IS NULL OR date ~ '^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$'),
          kind text CHECK (kind IS NULL OR kind IN ('board', 'alight', 'transfer', 'pass')),
          note text CHECK (note IS NULL OR note <> ''),
          updated_at bigint NOT NULL,
          seq bigint NOT NULL);
        ALTER SEQUENCE visits_id_seq OWNED BY visits.id;
        CREATE UNIQUE INDEX visits_identity ON visits (owner, station_key, ifnull(date, ''), ifnull(kind, ''));
        CREATE UNIQUE INDEX visits_uid ON visits (owner, uid);
        CREATE INDEX visits_seq ON visits (owner, seq);
        CREATE TABLE visit_tombstones (
          owner bigint NOT NULL DEFAULT 0, uid text NOT NULL, station_key text NOT NULL, date text, kind text, note text,
          updated_at bigint NOT NULL, seq bigint NOT NULL, PRIMARY KEY (owner, uid));
        CREATE INDEX visit_tombstones_seq ON visit_tombstones (owner, seq);
        CREATE TABLE settings (owner bigint NOT NULL DEFAULT 0, name text NOT NULL, value text NOT NULL, PRIMARY KEY (owner, name));
        CREATE SEQUENCE sync_sequence;
        CREATE TABLE sync_peers (owner bigint NOT NULL DEFAULT 0, url text NOT NULL, cursor text, sent_seq bigint NOT NULL DEFAULT 0,
          PRIMARY KEY (owner, url));
        CREATE TABLE key_sources (station_key text NOT NULL, source text NOT NULL, PRIMARY KEY (station_key, source));
        CREATE SEQUENCE visit_photos_id_seq;
        CREATE TABLE visit_photos (
          id bigint PRIMARY KEY DEFAULT nextval('visit_photos_id_seq'),
          owner bigint NOT NULL DEFAULT 0,
          visit_id bigint NOT NULL,
          width integer NOT NULL CHECK (width > 0),
          height integer NOT NULL CHECK (height > 0),
          jpeg bytea NOT NULL CHECK (length(jpeg) > 0),
          thumb_width integer NOT NULL CHECK (thumb_width > 0),
          thumb_height integer NOT NULL CHECK (thumb_height > 0),
          thumb bytea NOT NULL CHECK (length(thumb) > 0),
          created_at bigint NOT NULL);
        ALTER SEQUENCE visit_photos_id_seq OWNED BY visit_photos.id;
        CREATE INDEX visit_photos_visit ON visit_photos (owner, visit_id, id);
        CREATE FUNCTION visit_photos_follow_visit() RETURNS trigger LANGUAGE plpgsql AS
          $$ BEGIN DELETE FROM visit_photos WHERE visit_id = OLD.id; RETURN OLD; END $$;
        CREATE TRIGGER visit_photos_follow_visit AFTER DELETE ON visits
          FOR EACH ROW EXECUTE FUNCTION visit_photos_follow_visit();
        """,
    ]

    /// Connects to `url` and brings its schema to `postgresSchemaVersion` (with `create`, or
    /// for a writer when it is older); a reader needs the current version.
    /// - Throws: `PostgresError`; `AccountError.noSchema` (no eki schema there and not
    ///   `create`), `.schemaTooNew` (made by a later eki).
    static func openPostgres(url: String, create: Bool, readOnly: Bool) throws -> PostgresConnection {
        let db = try PostgresConnection(url: url)
        let name = PostgresURL.redacted(url)
        var version = try schemaVersion(db)
        if version == nil, !create { throw AccountError.noSchema(name) }
        if (version ?? 0) > postgresSchemaVersion { throw AccountError.schemaTooNew(name, version ?? 0, postgresSchemaVersion) }
        if !readOnly {
            while (version ?? 0) < postgresSchemaVersion {
                version = try db.transaction {
                    _ = try db.scalarInt("SELECT count(*) FROM (SELECT pg_advisory_xact_lock(?)) AS turn", [.int(schemaLockKey)])
                    try db.execute("CREATE TABLE IF NOT EXISTS eki_schema (version integer NOT NULL)")
                    let now = Int(try db.scalarInt("SELECT max(version) FROM eki_schema") ?? 0)
                    // Another server may have run the step while this one waited for the lock.
                    guard now < postgresSchemaVersion else { return now }
                    try db.execute(postgresSteps[now])
                    try db.execute("DELETE FROM eki_schema")
                    _ = try db.scalarInt("INSERT INTO eki_schema (version) VALUES (?) RETURNING version", [.int(Int64(now + 1))])
                    return now + 1
                }
            }
        } else {
            guard version == postgresSchemaVersion else { throw AccountError.noSchema(name) }
            try db.execute("SET default_transaction_read_only = on")
        }
        return db
    }

    /// The version in `eki_schema`, or nil when the database has no eki schema.
    static func schemaVersion(_ db: PostgresConnection) throws -> Int? {
        guard try db.hasTable("eki_schema") else { return nil }
        return Int(try db.scalarInt("SELECT max(version) FROM eki_schema") ?? 0)
    }
}
