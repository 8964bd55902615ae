import EkiKit
import EkiAccounts
import EkiGeocoding
import Foundation

/// Everything `eki serve` can be told. Paths are files on this machine.
public struct MapServerConfiguration: Sendable {
    /// The station database (opened read-only, one connection per worker thread).
    public var databasePath: String
    /// The visit log (created at start unless `readOnly`).
    public var visitsPath: String
    /// Where to listen; loopback by default.
    public var listen: ListenAddress
    /// Names besides this machine's own and IP addresses that a request's `Host` may give
    /// (`--host`: the names other machines reach this one by); `HostCheck` has the rule.
    public var hostNames: [String] = []
    /// The page's background map (地図); nil draws prefecture outlines only (`--tiles none`).
    public var tiles: TileSource?
    /// The page's aerial photographs (空撮, and 複合's background); nil for none
    /// (`--aerial-tiles none`). Default 地理院タイル 全国最新写真（シームレス）.
    public var aerial: TileSource?
    /// The page asks `/api/clusters` instead of pins while its zoom is below this.
    public var clusterBelowZoom: Int
    /// Refuse every write (403).
    public var readOnly: Bool
    /// The page's pin cap: at most this many pins per view, nearest the centre first.
    public var pins: Int
    /// Worker threads (each with its own read connections).
    public var threads: Int
    /// The page's folder; nil serves the files built into the program.
    public var webRoot: String?
    /// Where Debian's libjs-leaflet installs Leaflet; served under `/leaflet/`.
    public var leafletRoot: String
    /// Geocoding for `/api/geocode` (endpoints, cache, User-Agent), as `eki geocode` uses it.
    public var geocoder: GeocoderConfiguration
    public var limits: HTTPLimits
    /// The accounts file (`eki user add`); nil: one person, the visit log at `visitsPath`, and
    /// loopback only. With it every API call is a logged-in person's, on their own visits.
    public var accountsPath: String?
    /// HTTPS with this certificate and key (libmicrohttpd's TLS); nil: plain HTTP.
    public var tls: TLSCredentials?
    /// Failed logins allowed per account and per client address.
    public var loginLimits = LoginLimits()
    /// The Argon2id parameters passwords are held to (a login with an older hash rehashes it).
    public var passwordHasher: PasswordHasher = .interactive
    /// The counting rules of every n/m the server answers (`eki serve --rules`); nil: each
    /// person's visit log setting (`eki visit config counting-rules`), `CountingRules.default`
    /// when unset.
    public var countingRules: CountingRules?

    public static let debianLeaflet = "/usr/share/javascript/leaflet"

    public init(databasePath: String, visitsPath: String, listen: ListenAddress = .defaultAddress,
                tiles: TileSource? = .openStreetMap, aerial: TileSource? = .gsiSeamlessPhoto, clusterBelowZoom: Int = 12, readOnly: Bool = false, pins: Int = 300, threads: Int = 4,
                webRoot: String? = nil, leafletRoot: String = Self.debianLeaflet,
                geocoder: GeocoderConfiguration = GeocoderConfiguration(), limits: HTTPLimits = HTTPLimits()) {
        self.databasePath = databasePath
        self.visitsPath = visitsPath
        self.listen = listen
        self.tiles = tiles
        self.aerial = aerial
        self.clusterBelowZoom = clusterBelowZoom
        self.readOnly = readOnly
        self.pins = pins
        self.threads = threads
        self.webRoot = webRoot
        self.leafletRoot = leafletRoot
        self.geocoder = geocoder
        self.limits = limits
    }
}

/// A slippy-map tile URL template (`{z}/{x}/{y}`) and the credit it needs.
public struct TileSource: Sendable, Equatable {
    public var url: String
    public var attribution: String

    public init(url: String, attribution: String) {
        self.url = url
        self.attribution = attribution
    }

    /// The OpenStreetMap standard layer (tile usage policy: https://operations.osmfoundation.org/policies/tiles/).
    public static let openStreetMap = TileSource(
        url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
        attribution: "© <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors")

    /// 地理院タイル 全国最新写真（シームレス）, the Geospatial Information Authority of Japan's
    /// seamless aerial photographs (terms: https://maps.gsi.go.jp/development/ichiran.html).
    public static let gsiSeamlessPhoto = TileSource(
        url: "https://cyberjapandata.gsi.go.jp/xyz/seamlessphoto/{z}/{x}/{y}.jpg",
        attribution: "<a href=\"https://maps.gsi.go.jp/development/ichiran.html\">地理院タイル</a>（全国最新写真（シームレス））")
}
