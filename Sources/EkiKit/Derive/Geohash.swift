/// Geohash (G. Niemeyer, 2008; base-32 alphabet 0-9 b-z without a i l o), used to name places in
/// station keys.
public enum Geohash {
    private static let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz")

    /// The geohash of `c` with `precision` characters (5 ≈ 4.9 km × 4.9 km cells).
    public static func encode(_ c: Coordinate, precision: Int) -> String {
        var latRange = (-90.0, 90.0), lonRange = (-180.0, 180.0)
        var out = ""
        var bit = 0, ch = 0, even = true
        while out.count < precision {
            if even {
                let mid = (lonRange.0 + lonRange.1) / 2
                if c.lon >= mid { ch = ch << 1 | 1; lonRange.0 = mid } else { ch <<= 1; lonRange.1 = mid }
            } else {
                let mid = (latRange.0 + latRange.1) / 2
                if c.lat >= mid { ch = ch << 1 | 1; latRange.0 = mid } else { ch <<= 1; latRange.1 = mid }
            }
            even.toggle()
            bit += 1
            if bit == 5 { out.append(alphabet[ch]); bit = 0; ch = 0 }
        }
        return out
    }
}
