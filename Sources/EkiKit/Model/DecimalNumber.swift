/// Decimal number text as people and files write coordinates: `35.69`, `-0.5`, `+139`, `.5`,
/// `1e-3`. Swift's `Double(_:)` also reads `0x23` (35), `inf`, `nan` and `0x1p3`; those are
/// refused here, so a value that is not plainly a decimal number never becomes a position.
public enum DecimalNumber {
    /// The value of `text` when it is a finite decimal number (an optional sign, digits with at
    /// most one `.`, an optional exponent `e`/`E` with optional sign and digits); nil otherwise.
    /// Surrounding whitespace is not allowed: trim first.
    public static func parse(_ text: some StringProtocol) -> Double? {
        if let s = text as? String { return parse(s) }
        return parse(String(text))
    }

    /// As `parse(_:)` for a `String` (the form importers read): a plain decimal of at most 15
    /// digits (`35.6812362`, the usual coordinate) is computed exactly as the integer of its
    /// digits divided by a power of ten — both exact in a Double, so the one rounded division
    /// gives the correctly rounded value, as `Double(_:)` does (Clinger's fast path); anything
    /// else goes through `Double(_:)`.
    public static func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { fastDecimal($0) } ?? checkedParse(text)
    }

    /// Powers of ten exact in a Double (10^0 … 10^22).
    private static let exactPowers: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }

    /// A sign, then at most 15 digits with at most one `.`: the value; nil for anything else
    /// (left to `checkedParse`).
    private static func fastDecimal(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        var negative = false
        if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { negative = b[i] == UInt8(ascii: "-"); i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0, fraction = 0
        var seenDot = false
        while i < b.count {
            let c = b[i]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                mantissa = mantissa &* 10 &+ UInt64(c &- UInt8(ascii: "0"))
                digits += 1
                if seenDot { fraction += 1 }
                if digits > 15 { return nil }
            } else if c == UInt8(ascii: "."), !seenDot {
                seenDot = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        let v = Double(mantissa) / exactPowers[fraction]
        return negative ? -v : v
    }

    private static func checkedParse(_ text: String) -> Double? {
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
