/// Variant kanji that station names are written with in one source and not in another
/// (麴町 / 麹町, 湯檜曽 / 湯桧曽, 下祗園 / 下祇園), folded to one form by `TextFold.fold`.
///
/// The pairs are `Datasets/kanji-variants.csv` (each row cites its source: the Unicode Han
/// Database's `Unihan_Variants.txt` field that links the two, or the real station spelt both
/// ways in N02-23 and station_database), compiled into `KanjiVariants+Data.swift` by
/// `Scripts/gen-kanji-variants.py`.
public enum KanjiVariants {
    /// variant → standard form, one lookup (the table has no chains).
    static let table: [Unicode.Scalar: Unicode.Scalar] = {
        var t: [Unicode.Scalar: Unicode.Scalar] = [:]
        for r in rows { t[r.variant] = r.standard }
        return t
    }()

    /// The standard form of `u`, or `u` when it is not a listed variant.
    @inline(__always)
    public static func standard(_ u: Unicode.Scalar) -> Unicode.Scalar {
        u.value < 0x3400 ? u : (table[u] ?? u)
    }

    /// Every pair as (variant, standard form, source), in the table's order.
    public static var pairs: [(variant: Character, standard: Character, source: String)] {
        rows.map { (Character($0.variant), Character($0.standard), $0.source) }
    }
}
