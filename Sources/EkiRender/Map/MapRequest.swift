import EkiKit

/// What to draw: the view, the picture size and the options of `eki render`.
public struct MapRequest: Sendable {
    /// The box to show whole (degrees WGS84); the picture's other axis shows more.
    public var bbox: BoundingBox
    /// Logical size, pixels (1…10,000 each).
    public var width: Int, height: Int
    /// Device pixels per logical pixel: 1, or 2 for phones and high-density screens.
    public var scale: Int
    public var labels: LabelMode
    /// Ordered polylines (a line's stations in order, one per branch) drawn under the pins;
    /// empty for none.
    public var polylines: [[Coordinate]]
    /// Extra attribution lines (e.g. for tiles); the data's own are added from the entries.
    public var attribution: [String]
    /// Whether to draw the legend, scale bar and attribution (a small inset map leaves them out).
    public var decorations: Bool
    /// The language of the legend and credits (`Language.phrases`).
    public var language: Language
    /// Entries drawn above the others and always named (a line's stations with `eki render
    /// --line`), by key; empty for none.
    public var highlighted: Set<String>

    public init(bbox: BoundingBox, width: Int = 1200, height: Int = 800, scale: Int = 1, labels: LabelMode = .auto,
                polylines: [[Coordinate]] = [], attribution: [String] = [], decorations: Bool = true,
                language: Language = .ja, highlighted: Set<String> = []) {
        self.bbox = bbox
        self.width = width
        self.height = height
        self.scale = scale
        self.labels = labels
        self.polylines = polylines
        self.attribution = attribution
        self.decorations = decorations
        self.language = language
        self.highlighted = highlighted
    }

    /// - Throws: `RenderError.invalidRequest` naming the field out of range.
    func validate() throws {
        guard (1...10_000).contains(width), (1...10_000).contains(height) else {
            throw RenderError.invalidRequest("size \(width)x\(height): each side must be 1…10000 pixels")
        }
        guard scale == 1 || scale == 2 else { throw RenderError.invalidRequest("scale \(scale): must be 1 or 2") }
        guard bbox.minLon <= bbox.maxLon, bbox.minLat <= bbox.maxLat,
              bbox.minLat >= -90, bbox.maxLat <= 90, bbox.minLon >= -180, bbox.maxLon <= 180 else {
            throw RenderError.invalidRequest("bbox \(bbox.minLon),\(bbox.minLat),\(bbox.maxLon),\(bbox.maxLat) is not a box in degrees")
        }
    }
}

/// The attribution lines the data need (credits as the sources ask for them): 国土数値情報
/// for N02 stations and the prefecture outlines (N03), station_database for its entries, and
/// © OpenStreetMap contributors for OSM entries.
enum Attribution {
    /// `basemap`: the prefecture outlines are drawn (no tiles over them). The credits are
    /// worded in `language` (国土数値情報's in the Japanese its terms ask for).
    static func lines(for stations: [Station], extra: [String], basemap: Bool = true, language: Language = .ja) -> [String] {
        let words = language.phrases
        var datasets = Set<String>()
        for s in stations { for r in s.sources { datasets.insert(r.dataset) } }
        var out: [String] = []
        switch (datasets.contains("n02"), basemap) {
        case (true, true): out.append(words.creditN02AndN03)
        case (true, false): out.append(words.creditN02)
        case (false, true): out.append(words.creditN03)
        case (false, false): break
        }
        if datasets.contains("station-database") { out.append(words.creditStationDatabase) }
        if datasets.contains("ekidata") { out.append(words.creditEkidata) }
        if datasets.contains(where: { $0.hasPrefix("gtfs/") }) { out.append(words.creditGTFS) }
        var all = out + extra
        if datasets.contains("osm"), !all.contains(where: { $0.contains("OpenStreetMap") }) {
            all.append("© OpenStreetMap contributors")
        }
        return all
    }
}
