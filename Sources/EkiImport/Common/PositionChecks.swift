import EkiKit

/// Checks on station positions shared by every importer: placeholders refused, isolated rows
/// flagged.
public enum PositionChecks {
    /// The message for a row at exactly (0, 0): "Null Island", the value a tool writes when it
    /// had no position. No railway station is there, so it is refused as "no position".
    public static let placeholderMessage = "(0, 0) is a placeholder, not a position: no position"

    /// True for exactly latitude 0 and longitude 0 (degrees).
    public static func isPlaceholder(lat: Double, lon: Double) -> Bool { lat == 0 && lon == 0 }

    /// Warnings for the records of one input that lie far outside all the others: no other
    /// record in the same or a neighbouring 1° × 1° cell (so every other one is at least 1° of
    /// latitude or longitude away, roughly 90 km or more in Japan). The analogue of the GTFS
    /// validators' "stop too far" checks (Google's transitfeed, MobilityData's gtfs-validator)
    /// for inputs without shapes: a mistyped digit or swapped coordinate shows up this way.
    /// Inputs of fewer than 3 records are not checked.
    /// - Parameter file: the input, as the warnings name it.
    /// - Returns: one warning per isolated record, in record order (listed with `--verbose`).
    public static func farFromOthers(_ records: [SourceRecord], file: String) -> [ImportWarning] {
        guard records.count >= 3 else { return [] }
        // (latitude cell, longitude cell): x is the latitude's, y the longitude's.
        func cell(_ c: Coordinate) -> SIMD2<Int32> {
            SIMD2(Int32((c.lat + 90).rounded(.down)), Int32((c.lon + 180).rounded(.down)) % 360)
        }
        var counts: [SIMD2<Int32>: Int] = [:]
        for r in records { counts[cell(r.coordinate), default: 0] += 1 }
        var warnings: [ImportWarning] = []
        for r in records {
            let c = cell(r.coordinate)
            // Another record in its own cell: not isolated (the usual case, one look-up).
            if counts[c]! > 1 { continue }
            var near = -1   // the record itself
            for dy: Int32 in -1...1 {
                for dx: Int32 in -1...1 {
                    // Longitude cells wrap at ±180° (0 and 359 are neighbours).
                    near += counts[SIMD2(c.x + dy, (c.y + dx + 360) % 360)] ?? 0
                }
            }
            if near == 0 {
                warnings.append(ImportWarning(
                    file: file,
                    message: "'\(r.name)' (\(r.source.id)) at \(r.coordinate.lat), \(r.coordinate.lon) is far from every other row of this input (none within 1°): check its position"))
            }
        }
        return warnings
    }
}
