// swift-tools-version:6.0
import PackageDescription

/// EkiKit: station data for 降りつぶし (recording every station one has got on or off at).
/// Pipeline: sources (CSV, GTFS, OSM) → EkiImport → EkiKit (model, entry rule, store, index,
/// search, visits) → EkiCLI → `eki`. Geocoding (libcurl) sits beside the importers.
let package = Package(
    name: "EkiKit",
    products: [
        // The core (model, entry rule, store, queries, search, visits): SQLite and PROJ's geodesics.
        .library(name: "EkiKit", targets: ["EkiKit"]),
        // The importers (CSV, GTFS, OSM XML and PBF): adds expat, libarchive, zlib, bzip2 and libosmium.
        .library(name: "EkiImport", targets: ["EkiImport"]),
        // Geocoding over HTTP: adds libcurl.
        .library(name: "EkiGeocoding", targets: ["EkiGeocoding"]),
        // Photos of visits: adds libvips.
        .library(name: "EkiPhotos", targets: ["EkiPhotos"]),
        // Map pictures (PNG): adds cairo and Pango.
        .library(name: "EkiRender", targets: ["EkiRender"]),
        .executable(name: "eki", targets: ["eki"]),
    ],
    targets: [
        // C libraries, each wrapped in exactly one place (Debian -dev packages).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CExpat", path: "Sources/CExpat", pkgConfig: "expat",
                       providers: [.apt(["libexpat1-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CArchive", path: "Sources/CArchive", pkgConfig: "libarchive",
                       providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CCompression", path: "Sources/CCompression", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev", "libbz2-dev"])]),
        .systemLibrary(name: "CProj", path: "Sources/CProj", pkgConfig: "proj",
                       providers: [.apt(["libproj-dev"])]),
        .systemLibrary(name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium",
                       providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CVips", path: "Sources/CVips", pkgConfig: "vips",
                       providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CPangoCairo", path: "Sources/CPangoCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libpango1.0-dev"])]),

        // OpenStreetMap PBF through libosmium (header-only C++, zlib): a C interface, the one
        // target that calls libosmium; its exceptions never leave it.
        .target(name: "COsmium",
                linkerSettings: [.linkedLibrary("z"), .linkedLibrary("pthread")]),

        // The SQLite wrapper (Database, Statement, SQLiteError): the one target that calls SQLite.
        .target(name: "EkiSQLite", dependencies: ["CSQLite"]),
        // PostgreSQL through libpq: the SQLConnection for accounts and visits shared by several
        // servers; the one target that calls libpq.
        .target(name: "EkiPostgres", dependencies: ["EkiSQLite", "CPostgres"]),
        // The core: station model, entry rule, store (GeoPackage + R-tree), queries.
        .target(name: "EkiKit", dependencies: ["EkiSQLite", "CProj"],
                // Prefecture polygons (simplified N03) for the prefecture of a point and offline outlines.
                resources: [.copy("Resources/prefectures-n03.geojson")]),
        // Importers: CSV (N02, station_database, ekidata, generic), GTFS, OSM XML and PBF.
        .target(name: "EkiImport", dependencies: ["EkiKit", "EkiSQLite", "CExpat", "CArchive", "CCompression", "COsmium"]),
        // Geocoding over HTTP (libcurl).
        .target(name: "EkiGeocoding", dependencies: ["EkiKit", "EkiSQLite", "CCurl"]),
        // Map pictures: Web Mercator, offline basemap, pins, labels (cairo + Pango); the only
        // target that calls cairo or Pango (zlib encodes the PNGs).
        .target(name: "EkiRender", dependencies: ["EkiKit", "CCairo", "CPangoCairo", "CPNG"]),
        // Photos of visits: checked, decoded, turned upright, shrunk and re-encoded without metadata
        // (libvips; the only target that calls CVips). Apart from EkiKit so that the core library
        // does not bring libvips and its image libraries; EkiKit stores the bytes it makes.
        .target(name: "EkiPhotos", dependencies: ["CVips"]),
        // The map screen: HTTP server (libmicrohttpd), JSON API and the page (Web/).
        // Accounts: people, password hashes, sessions, API tokens and their visits in one SQLite
        // file; login limits (libsodium; the only caller of CSodium).
        .target(name: "EkiAccounts", dependencies: ["EkiKit", "EkiSQLite", "EkiPostgres", "CSodium"]),
        .target(name: "EkiServer", dependencies: ["EkiKit", "EkiAccounts", "EkiPhotos", "EkiGeocoding", "EkiRender", "CMicroHTTPD", "CCompression"],
                resources: [.copy("Web")]),
        // Commands, testable; the executable only calls into it.
        .target(name: "EkiCLI", dependencies: ["EkiKit", "EkiAccounts", "EkiPhotos", "EkiImport", "EkiGeocoding", "EkiServer", "EkiRender"]),
        .executableTarget(name: "eki", dependencies: ["EkiCLI"]),
        // Every in-process benchmark, run by the scripts in Scripts/bench/ (not part of the product).
        .executableTarget(name: "eki-bench", dependencies: ["EkiKit", "EkiPhotos", "EkiSQLite", "EkiImport", "EkiRender", "EkiAccounts", "EkiServer"]),

        // For the test targets only: ../shared and its real data (read and imported once), skip
        // traits, temporary folders, the seeded RNG and the geocoders' loopback server.
        .target(name: "EkiTestSupport", dependencies: ["EkiKit", "EkiSQLite", "EkiImport"], path: "Tests/EkiTestSupport"),
        .testTarget(name: "EkiSQLiteTests", dependencies: ["EkiSQLite"]),
        .testTarget(name: "EkiKitTests", dependencies: ["EkiKit", "EkiSQLite", "EkiImport", "EkiTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "EkiImportTests", dependencies: ["EkiKit", "EkiSQLite", "EkiImport", "EkiTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "EkiGeocodingTests", dependencies: ["EkiKit", "EkiGeocoding", "EkiTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "EkiCLITests", dependencies: ["EkiCLI", "EkiAccounts", "EkiPhotos", "EkiKit", "EkiSQLite", "EkiImport", "EkiGeocoding",
                                                        "EkiRender", "EkiTestSupport"]),
        .testTarget(name: "EkiRenderTests", dependencies: ["EkiRender", "EkiKit", "EkiImport", "EkiTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "EkiPhotosTests", dependencies: ["EkiPhotos"]),
        .testTarget(name: "EkiAccountsTests", dependencies: ["EkiAccounts", "EkiKit", "EkiSQLite", "EkiPostgres", "EkiTestSupport"]),
        .testTarget(name: "EkiServerTests", dependencies: ["EkiServer", "EkiAccounts", "EkiPhotos", "EkiCLI", "EkiKit", "EkiImport", "EkiGeocoding",
                                                           "EkiRender", "EkiTestSupport"],
                    exclude: ["browser"]),
    ],
    swiftLanguageModes: [.v6]
)
