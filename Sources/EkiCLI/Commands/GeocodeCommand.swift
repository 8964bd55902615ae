import EkiGeocoding
import EkiKit
import Foundation

/// `eki geocode QUERY`: the places a name may mean, from the station database (offline), 国土地理院
/// or Nominatim — the candidates that `--place` on nearest and bbox picks from.
struct GeocodeCommand: Command {
    static let summary = "places a name may mean (stations offline, 国土地理院, Nominatim)"
    static let help = """
    usage: eki geocode [--db PATH] QUERY [--provider P[,P]] [--endpoint URL] [--limit N]
                       [--user-agent UA] [--no-cache] [--format F]

    Lists the candidates for QUERY (a station, address or place) from the first provider that
    finds any, numbered for --pick on `eki nearest --place` and `eki bbox --place`:
    title, lat, lon (degrees WGS84), provider, and bbox (minLon,minLat,maxLon,maxLat) when known.
      stations    the station database: entries of one name within 1.5 km are one place
                  (小田原駅 = 5 entries); a trailing 駅 is optional; no network
      gsi         国土地理院 address search (出典: 国土地理院)
      nominatim   OpenStreetMap Nominatim (© OpenStreetMap contributors, ODbL); at most one
                  request per second, identifying User-Agent, answers cached
      --limit N          at most N candidates (default 10)
    \(GeocodingOptions.help)  --format F         table (default), json, geojson (Points with bbox) or csv
    \(DatabaseOption.help)
    Web answers are cached for 7 days in $EKI_CACHE (default $XDG_CACHE_HOME/eki/geocode.sqlite,
    else ~/.cache/eki/geocode.sqlite; empty: no cache), which also spaces requests to each
    service at least 1 s apart across `eki` processes. Time budget: $EKI_HTTP_TIMEOUT seconds (default 10)
    for the whole command, all providers together.
    Exit status 1 with one line when nothing is found or a service fails (timed out, rate
    limited, refused, unavailable, unparseable answer).

    """

    let args: Arguments
    let console: Console
    let query: String
    let limit: Int
    let format: OutputFormat
    let geocoding: GeocodingOptions

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: Set(["db", "limit", "format"]).union(GeocodingOptions.valued),
                             flags: GeocodingOptions.flags)
        self.console = console
        query = try args.query()
        limit = try args.int("limit", default: 10, min: 1)
        format = try OutputFormat(option: args["format"])
        geocoding = try GeocodingOptions(args, console)
    }

    func run() throws -> Int32 {
        var store: StationStore?
        let stations = geocoding.stations
        if stations.used {
            let path = DatabaseOption.path(args, console)
            if stations.named || FileManager.default.fileExists(atPath: path) {
                store = try StationStore(path: path, readOnly: true)
            } else {
                console.err("note: no station database at \(path); the stations provider is skipped\n")
            }
        }
        let found = try geocoding.geocode(query, limit: limit, store: store)
        console.out(GeocodeOutput.render(found, format: format))
        return 0
    }
}

/// Geocoding candidates in the shared output formats. Each carries its rank (1-based, the
/// number `--pick` takes), title, lat, lon, provider and bbox (RFC 7946 order, or null); json
/// and geojson are `GeocodeCandidateJSON`'s, as the map server writes them.
enum GeocodeOutput {
    static func render(_ found: [GeocodeCandidate], format: OutputFormat) -> String {
        switch format {
        case .table:
            let rows = found.enumerated().map { i, c in
                [String(i + 1), c.title, String(format: "%.6f", c.coordinate.lat), String(format: "%.6f", c.coordinate.lon),
                 c.provider.rawValue, c.bbox.map { box in
                     [box.minLon, box.minLat, box.maxLon, box.maxLat].map { String(format: "%.6f", $0) }.joined(separator: ",")
                 } ?? "-"]
            }
            var footer = "(\(found.count) candidate\(found.count == 1 ? "" : "s"))\n"
            for p in Set(found.map(\.provider)).sorted(by: { $0.rawValue < $1.rawValue }) {
                if let credit = attribution(p) { footer += credit + "\n" }
            }
            return DisplayWidth.table(header: ["#", "title", "lat", "lon", "provider", "bbox"], rows: rows) + footer
        case .json:
            return GeocodeCandidateJSON.array(found).text(pretty: true) + "\n"
        case .geojson:
            return GeocodeCandidateJSON.featureCollection(found).text(pretty: true) + "\n"
        case .csv:
            var out = "rank,title,lat,lon,provider,bbox\r\n"
            for (i, c) in found.enumerated() {
                let box = c.bbox.map { b in [b.minLon, b.minLat, b.maxLon, b.maxLat].map { String($0) }.joined(separator: ";") } ?? ""
                out += CSVWriter.record([String(i + 1), c.title, String(c.coordinate.lat), String(c.coordinate.lon), c.provider.rawValue, box])
            }
            return out
        }
    }

    /// The credit a provider's data needs where it is shown.
    static func attribution(_ p: GeocodeProvider) -> String? {
        switch p {
        case .stations: return nil
        case .gsi: return "出典: 国土地理院 (GSI address search)"
        case .nominatim: return "Data © OpenStreetMap contributors, ODbL (Nominatim)"
        }
    }
}
