/// Decimal number text as people and files write coordinates: `35.69`, `-0.5`, `+139`, `.5`,
/// `1e-3`. Swift's `Double(_:)` also reads `0x23` (35), `inf`, `nan` and `0x1p3`; those are
/// refused here, so a value that is not plainly a decimal number never becomes a position.
public enum DecimalNumber {
    /// The value of `text` when it is a finite decimal number (an optional sign, digits with at
    /// most one `.`, an optional exponent `e`/`E` with optional sign and digits); nil otherwise.
    /// Surrounding whitespace is not allowed: trim first.
    public static func parse(_ text: some StringProtocol) -> Double? {
        var digits = 0
        var state = 0          // 0 mantissa, 1 after `e`, 3 after the exponent's sign, 2 exponent digits
        var seenDot = false
        for (i, b) in text.utf8.enumerated() {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if state == 0 { digits += 1 } else { state = 2 }
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                // A sign opens the number or follows the exponent mark.
                if state == 1 { state = 3 } else if i != 0 { return nil }
            case UInt8(ascii: "."):
                guard state == 0, !seenDot else { return nil }
                seenDot = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard state == 0, digits > 0 else { return nil }
                state = 1
            default:
                return nil
            }
        }
        guard digits > 0, state == 0 || state == 2 else { return nil }
        guard let v = Double(String(text)), v.isFinite else { return nil }
        return v
    }
}
