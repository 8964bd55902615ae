import CCompression
import EkiKit

/// `/api/snapshot`: the whole station database in the compact form the page keeps for offline
/// use (drawn, listed and searched from it when the network is down; `docs/offline.md`).
extension MapAPI {
    /// `GET /api/snapshot`: every open entry, the open lines, the aliases of merged entries and
    /// the kanji-variant table of the search fold, as one JSON object (`SnapshotBuilder`), made
    /// once per station-database version per worker. The same for every person (visits are not in
    /// it: the page has them from `/api/sync`). gzip-encoded when `Accept-Encoding` allows it
    /// (`Vary: Accept-Encoding`); `ETag` from the uncompressed bytes, so every worker gives the
    /// same tag for the same data; `If-None-Match` with it gives 304. `Cache-Control: no-cache`
    /// (the service worker and browsers ask again, and get 304 while the data is unchanged).
    func snapshot(_ r: HTTPRequest) throws -> HTTPResponse {
        _ = try APIParameters(r, allowed: [])
        let cached: CachedSnapshot = try readers.with { ctx in
            // One version of the station database (a read transaction), no one's visits.
            try ctx.store.readSnapshot {
                let version = try ctx.store.info.dataVersion()
                if let c = ctx.stationSnapshot, c.version == version { return c.answer }
                let plain = try SnapshotBuilder(store: ctx.store).json()
                let c = CachedSnapshot(plain: plain, gzip: try Gzip.compress(plain), etag: Self.etag(plain))
                ctx.stationSnapshot = (version, c)
                return c
            }
        }
        let common: [(String, String)] = [("ETag", cached.etag), ("Cache-Control", "no-cache"), ("Vary", "Accept-Encoding")]
        if let match = r.headers["if-none-match"],
           match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == cached.etag || $0 == "*" }) {
            return HTTPResponse(status: 304, headers: common)
        }
        let gzip = Self.acceptsGzip(r.headers["accept-encoding"])
        var headers = [("Content-Type", "application/json; charset=utf-8")] + common
        if gzip { headers.append(("Content-Encoding", "gzip")) }
        return HTTPResponse(status: 200, headers: headers, body: gzip ? cached.gzip : cached.plain)
    }

    /// True when an `Accept-Encoding` value lists gzip (or `*`) without `q=0`.
    static func acceptsGzip(_ value: String?) -> Bool {
        guard let value else { return false }
        for part in value.lowercased().split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let coding = fields.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let q = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if q > 0 { return true }
        }
        return false
    }
}

/// One version's snapshot: its bytes as they are and gzip-encoded, and its entity tag.
struct CachedSnapshot {
    var plain: [UInt8]
    var gzip: [UInt8]
    var etag: String
}

/// The snapshot's JSON: `{"format": 1, "fold": TextFold.foldVersion, "count", "fields",
/// "classes", "kinds", "statuses", "prefectures", "lines", "entries", "aliases", "kanji_variants"}`.
///
/// - `entries`: one array per open entry, in search result order (the sort id), its members
///   named by `fields`: key, name, reading (or null), short operator name (`operator_short`),
///   class (index into `classes`), line ids (indexes into `lines`), prefecture (index into
///   `prefectures`, -1 for none), lon, lat (degrees, 6 decimals), kind (index into `kinds`),
///   the folded search forms of its name, reading, romaji and lines as the search index
///   stores them (`SearchIndex.entryForms`), each field's forms joined by a tab, then its
///   status (index into `statuses`: `StationStatus`, suspended for 肥薩線 八代–吉松 …).
/// - `lines`: `[id, name, operator (short), class index, color or null]` of each open line, as
///   `/api/lines` orders them.
/// - `aliases`: `{old key: current key}` for the keys of merged entries.
/// - `kanji_variants`: `{variant: standard}` (`KanjiVariants`), for folding a query as
///   `TextFold.fold` does.
struct SnapshotBuilder {
    let store: StationStore

    static let fields = ["key", "name", "reading", "operator_short", "class", "lines", "prefecture", "lon", "lat", "kind",
                         "name_forms", "reading_forms", "romaji_forms", "line_forms", "status"]
    static let classes: [ServiceClass] = [.conventional, .shinkansen]

    func json() throws -> [UInt8] {
        // The open lines as `/api/lines` orders them (`ReaderContext.lines`).
        let staffOnly = try store.entries.keys(of: .staffOnly)
        let lines = OperatorTypes.grouped(try store.lines.all()).map { $0.without(staffOnly) }
        var lineIndex: [String: Int] = [:]
        for (i, l) in lines.enumerated() { lineIndex[l.id] = i }
        // Membership from the whole table (staff-only stops are left out of `ctx.lines()`'s totals
        // only, they still lie on their lines).
        var linesOf: [String: [Int]] = [:]
        for l in try store.lines.all() {
            guard let i = lineIndex[l.id] else { continue }
            for k in l.stationKeys where linesOf[k]?.contains(i) != true { linesOf[k, default: []].append(i) }
        }
        let forms = try store.search.entryForms()
        let stations = try store.entries.stations(fids: forms.map(\.fid))
        let byFid = Dictionary(uniqueKeysWithValues: zip(forms.map(\.fid), stations))
        let prefecture = Dictionary(uniqueKeysWithValues: Prefecture.names.enumerated().map { ($0.element, $0.offset) })
        let kinds = StationKind.allCases
        let statuses = StationStatus.allCases

        var out: [UInt8] = []
        out.reserveCapacity(forms.count * 230 + 200_000)
        JSONBytes.append("{\"format\":1,\"fold\":\(TextFold.foldVersion),\"count\":", to: &out)
        JSONBytes.append(String(stations.count), to: &out)
        JSONBytes.append(",\"fields\":", to: &out); JSONBytes.appendStrings(Self.fields, to: &out)
        JSONBytes.append(",\"classes\":", to: &out); JSONBytes.appendStrings(Self.classes.map(\.rawValue), to: &out)
        JSONBytes.append(",\"kinds\":", to: &out); JSONBytes.appendStrings(kinds.map(\.rawValue), to: &out)
        JSONBytes.append(",\"statuses\":", to: &out); JSONBytes.appendStrings(statuses.map(\.rawValue), to: &out)
        JSONBytes.append(",\"prefectures\":", to: &out); JSONBytes.appendStrings(Prefecture.names, to: &out)
        JSONBytes.append(",\"lines\":[", to: &out)
        for (i, l) in lines.enumerated() {
            JSONBytes.append(i > 0 ? ",[" : "[", to: &out)
            JSONBytes.appendQuoted(l.id, to: &out); out.append(UInt8(ascii: ","))
            JSONBytes.appendQuoted(l.name, to: &out); out.append(UInt8(ascii: ","))
            JSONBytes.appendQuoted(l.operatorName, to: &out)
            JSONBytes.append(",\(l.serviceClass == .shinkansen ? 1 : 0),", to: &out)
            JSONBytes.appendOptional(l.color, to: &out)
            out.append(UInt8(ascii: "]"))
        }
        JSONBytes.append("],\"entries\":[", to: &out)
        var first = true
        for f in forms {
            guard let s = byFid[f.fid] else { continue }
            JSONBytes.append(first ? "[" : ",[", to: &out)
            first = false
            JSONBytes.appendQuoted(s.key, to: &out); out.append(UInt8(ascii: ","))
            JSONBytes.appendQuoted(s.name, to: &out); out.append(UInt8(ascii: ","))
            JSONBytes.appendOptional(s.reading, to: &out); out.append(UInt8(ascii: ","))
            JSONBytes.appendOptional(s.operatorLabel, to: &out)
            JSONBytes.append(",\(s.serviceClass == .shinkansen ? 1 : 0),[", to: &out)
            JSONBytes.append((linesOf[s.key] ?? []).map(String.init).joined(separator: ","), to: &out)
            JSONBytes.append("],\(s.prefecture.flatMap { prefecture[$0] } ?? -1),", to: &out)
            JSONBytes.appendNumber(s.coordinate.lon, decimals: 6, to: &out); out.append(UInt8(ascii: ","))
            JSONBytes.appendNumber(s.coordinate.lat, decimals: 6, to: &out)
            JSONBytes.append(",\(kinds.firstIndex(of: s.kind) ?? 0)", to: &out)
            for field in [f.name, f.reading, f.romaji, f.line] {
                out.append(UInt8(ascii: ","))
                JSONBytes.appendQuoted(field.joined(separator: "\t"), to: &out)
            }
            JSONBytes.append(",\(statuses.firstIndex(of: s.status) ?? 0)", to: &out)
            out.append(UInt8(ascii: "]"))
        }
        JSONBytes.append("],\"aliases\":{", to: &out)
        for (i, a) in try store.entries.aliases().enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONBytes.appendQuoted(a.old, to: &out); out.append(UInt8(ascii: ":"))
            JSONBytes.appendQuoted(a.current, to: &out)
        }
        JSONBytes.append("},\"kanji_variants\":{", to: &out)
        for (i, p) in KanjiVariants.pairs.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONBytes.appendQuoted(String(p.variant), to: &out); out.append(UInt8(ascii: ":"))
            JSONBytes.appendQuoted(String(p.standard), to: &out)
        }
        JSONBytes.append("}}", to: &out)
        return out
    }
}

/// gzip (RFC 1952) through zlib (`CCompression`, the package's one zlib wrapper).
enum Gzip {
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "zlib deflate failed (\(code))" }
    }

    /// `bytes` gzip-encoded at compression level 9.
    /// - Throws: `Failure` when zlib refuses (out of memory).
    static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        var z = z_stream()
        var rc = eki_deflate_init2(&z, 9, 15 + 16, 9)
        guard rc == Z_OK else { throw Failure(code: rc) }
        defer { deflateEnd(&z) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&z, uLong(bytes.count))) + 32)
        var input = bytes
        let produced: Int = input.withUnsafeMutableBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                z.next_in = src.baseAddress
                z.avail_in = uInt(src.count)
                z.next_out = dst.baseAddress
                z.avail_out = uInt(dst.count)
                rc = deflate(&z, Z_FINISH)
                return dst.count - Int(z.avail_out)
            }
        }
        guard rc == Z_STREAM_END else { throw Failure(code: rc) }
        return Array(out.prefix(produced))
    }
}
