import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Text encodings the importers accept.
public enum TextEncoding: String, Sendable, CaseIterable {
    /// UTF-8, with or without a byte-order mark.
    case utf8 = "utf-8"
    /// Windows-31J (CP932): Shift_JIS with the NEC/IBM extensions Japanese Excel writes
    /// (e.g. U+FA10 塚). Decoded with the C library's iconv.
    case cp932 = "cp932"

    /// Parses `utf-8`/`utf8`, `cp932`/`windows-31j`/`shift_jis`/`sjis` (case-insensitive).
    public init?(name: String) {
        switch name.lowercased() {
        case "utf-8", "utf8": self = .utf8
        case "cp932", "windows-31j", "ms932", "shift_jis", "shift-jis", "sjis": self = .cp932
        default: return nil
        }
    }
}

/// Turns file bytes into UTF-8 bytes (without BOM).
public enum TextDecoding {
    /// Decodes `bytes` as `encoding`; with nil, detects (`EncodingDetector.decide`): a UTF-8
    /// BOM or ASCII is UTF-8, a UTF-16 BOM is refused; valid UTF-8 is UTF-8 unless it also reads
    /// as CP932, that reading is plausible Japanese (kana or kanji) and the UTF-8 one is not
    /// (茗荷谷 in CP932 reads `䪉גJ` as UTF-8); when both readings are Japanese text it stops,
    /// naming the line and both readings; invalid UTF-8 is read as CP932 when that reading is
    /// plausible, else refused naming the line (a Latin-1 file).
    /// - Returns: the UTF-8 bytes without a BOM, and the encoding used.
    /// - Throws: `ImportError` naming the line of the first byte that does not decode, a
    ///   UTF-16 file, or a UTF-8 BOM with `encoding` `.cp932` (a BOM that contradicts it).
    public static func decode(_ bytes: [UInt8], file: String,
                              encoding: TextEncoding? = nil) throws(ImportError) -> (bytes: [UInt8], encoding: TextEncoding) {
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw ImportError(file: file, line: 1, message: "file is UTF-16; convert it to UTF-8 (or CP932)")
        }
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        switch encoding {
        case .utf8:
            let body = hasBOM ? Array(bytes[3...]) : bytes
            if let bad = firstInvalidUTF8(body) {
                throw ImportError(file: file, line: lineNumber(body, at: bad),
                                  message: "invalid UTF-8 byte 0x\(String(body[bad], radix: 16, uppercase: true)); use --encoding cp932 if the file is Shift_JIS")
            }
            return (body, .utf8)
        case .cp932:
            if hasBOM { throw bomContradicts(file: file) }
            return (try cp932ToUTF8(bytes, file: file), .cp932)
        case nil:
            if hasBOM { return try decode(bytes, file: file, encoding: .utf8) }
            var detector = EncodingDetector(file: file)
            try detector.add(bytes, firstLine: 1)
            switch try detector.decide() {
            case .utf8: return (bytes, .utf8)
            case .cp932: return (try cp932ToUTF8(bytes, file: file), .cp932)
            }
        }
    }

    /// The error for a file that starts with a UTF-8 byte-order mark read with `--encoding cp932`.
    static func bomContradicts(file: String) -> ImportError {
        ImportError(file: file, line: 1, message: "starts with a UTF-8 byte-order mark, so it is UTF-8, but --encoding cp932 was given: drop --encoding (or give utf-8)")
    }

    /// The first character of valid UTF-8 `text` that station data does not hold, or nil.
    /// Plausible in either reading: ASCII (its controls too: the same bytes both ways), Latin
    /// letters with accents, IPA letters and modifiers (`ʤ`), combining marks, Greek, Cyrillic,
    /// Hangul, general punctuation and symbols, CJK punctuation, kana (halfwidth too), the CJK
    /// unified and compatibility ideographs (and extension B onwards), fullwidth forms.
    /// Implausible: C1 control characters, Hebrew, Arabic and the like, CJK extension A,
    /// private use. In the CP932 reading (`asCP932`, how UTF-8 or Latin-1 bytes misread look)
    /// also: a halfwidth katakana right after an ideograph (UTF-8 東京 → 譚ｱ莠ｬ), and an
    /// ideograph inside a Latin word: right after an ASCII letter and before an ASCII letter
    /// or a space (Latin-1 S\xE3o Paulo → S縊 Paulo; JR東日本 and JR線 are plausible).
    static func implausibleScalar(_ text: [UInt8], asCP932: Bool = true) -> Unicode.Scalar? {
        var previousIdeograph = false
        let isLetter = { (u: Unicode.Scalar) in (0x41...0x5A).contains(u.value) || (0x61...0x7A).contains(u.value) }
        return firstScalar(text) { before, u, after in
            let v = u.value
            let ideograph = (0x4E00...0x9FFF).contains(v) || (0xF900...0xFAFF).contains(v) || v >= 0x20000 && v <= 0x3FFFF
            let halfwidthKana = (0xFF61...0xFF9F).contains(v)
            let plausible = v <= 0x7F
                || (0xA0...0x52F).contains(v)
                || (0x1E00...0x1EFF).contains(v) || (0x2000...0x27BF).contains(v) || (0x3000...0x30FF).contains(v) || (0x31F0...0x33FF).contains(v)
                || ideograph || (0xAC00...0xD7AF).contains(v) || (0xFF01...0xFFEF).contains(v) || v == 0xFEFF
            if !plausible { return true }
            if asCP932 {
                if halfwidthKana && previousIdeograph { return true }
                if ideograph, let b = before, let a = after, isLetter(b), isLetter(a) || a == " " { return true }
            }
            previousIdeograph = ideograph
            return false
        }
    }

    /// The first scalar of UTF-8 `text` for which `test(before, scalar, after)` holds, walked with
    /// one scalar of look-behind and one of look-ahead (no array of them: the text may be
    /// megabytes long).
    static func firstScalar(_ text: [UInt8],
                            where test: (Unicode.Scalar?, Unicode.Scalar, Unicode.Scalar?) -> Bool) -> Unicode.Scalar? {
        var scalars = String(decoding: text, as: UTF8.self).unicodeScalars.makeIterator()
        var before: Unicode.Scalar? = nil
        var current = scalars.next()
        while let u = current {
            let after = scalars.next()
            if test(before, u, after) { return u }
            before = u
            current = after
        }
        return nil
    }

    /// True when UTF-8 `text` holds a fullwidth kana or a CJK ideograph with no halfwidth
    /// katakana on either side: Japanese text as CP932's two-byte characters write it.
    /// Halfwidth katakana are no evidence (every two-byte UTF-8 letter, `ʤ` or `é`, reads as
    /// two of them in CP932), nor is a kanji beside one (`Ō` and the `m` after it read `ﾅ`
    /// and a kanji).
    static func hasJapanese(_ text: [UInt8]) -> Bool {
        let isHalfwidth = { (u: Unicode.Scalar?) in u.map { (0xFF61...0xFF9F).contains($0.value) } ?? false }
        return firstScalar(text) { before, u, after in
            let v = u.value
            return ((0x3041...0x30FF).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xF900...0xFAFF).contains(v)
                || (0x20000...0x3FFFF).contains(v)) && !isHalfwidth(before) && !isHalfwidth(after)
        } != nil
    }

    /// Index of the first byte that is not part of valid UTF-8, or nil.
    public static func firstInvalidUTF8(_ b: [UInt8]) -> Int? {
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            var need = 0
            var minValue: UInt32 = 0
            var v: UInt32 = 0
            if c & 0xE0 == 0xC0 { need = 1; minValue = 0x80; v = UInt32(c & 0x1F) }
            else if c & 0xF0 == 0xE0 { need = 2; minValue = 0x800; v = UInt32(c & 0x0F) }
            else if c & 0xF8 == 0xF0 { need = 3; minValue = 0x10000; v = UInt32(c & 0x07) }
            else { return i }
            if i + need >= n { return i }
            for k in 1...need {
                let d = b[i + k]
                if d & 0xC0 != 0x80 { return i }
                v = v << 6 | UInt32(d & 0x3F)
            }
            if v < minValue || v > 0x10FFFF || (0xD800...0xDFFF).contains(v) { return i }
            i += need + 1
        }
        return nil
    }

    /// 1-based line number of the first `scalar` in UTF-8 `text`.
    static func lineOf(scalar: Unicode.Scalar, in text: [UInt8]) -> Int {
        var line = 1
        for u in String(decoding: text, as: UTF8.self).unicodeScalars {
            if u == scalar { return line }
            if u == "\n" { line += 1 }
        }
        return line
    }

    /// 1-based line number of byte `index`.
    public static func lineNumber(_ b: [UInt8], at index: Int) -> Int {
        var line = 1
        for i in 0..<min(index, b.count) where b[i] == 0x0A { line += 1 }
        return line
    }

    /// CP932 → UTF-8 with iconv (glibc's CP932 table includes the NEC and IBM extensions).
    static func cp932ToUTF8(_ bytes: [UInt8], file: String) throws(ImportError) -> [UInt8] {
        let cd = iconv_open("UTF-8", "CP932")
        if cd == iconv_t(bitPattern: -1) {
            throw ImportError(file: file, message: "this system's iconv has no CP932 converter")
        }
        defer { iconv_close(cd) }
        var output = [UInt8](repeating: 0, count: bytes.count * 3 + 16)
        var input = bytes
        let inCount = input.count
        var failedAt: Int? = nil
        var produced = 0
        input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                var inPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuf.baseAddress!)
                    .assumingMemoryBound(to: CChar.self)
                var inLeft = inCount
                var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuf.baseAddress!)
                    .assumingMemoryBound(to: CChar.self)
                var outLeft = outBuf.count
                if inCount > 0 && iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft) == -1 {
                    failedAt = inCount - inLeft
                }
                produced = outBuf.count - outLeft
            }
        }
        if let at = failedAt {
            throw ImportError(file: file, line: lineNumber(bytes, at: at),
                              message: "byte 0x\(String(bytes[min(at, bytes.count - 1)], radix: 16, uppercase: true)) is not valid CP932")
        }
        var result = Array(output[0..<produced])
        if result.count >= 3 && result[0] == 0xEF && result[1] == 0xBB && result[2] == 0xBF {
            result.removeFirst(3)
        }
        return result
    }
}

/// Decides a text's encoding from all of it, given part by part (each part ending at a line
/// break, so that no character is cut): the rule of `TextDecoding.decode(_:file:encoding:)`
/// with no encoding given, without holding the whole text.
struct EncodingDetector {
    let file: String
    private var started = false
    private var hasBOM = false
    private var anyHigh = false
    /// The first byte that is not UTF-8: its line and value.
    private var invalidUTF8: (line: Int, byte: UInt8)? = nil
    /// The first implausible character of the UTF-8 reading (while it is valid).
    private var utf8Odd: Unicode.Scalar? = nil
    private var utf8Japanese = false
    private var cp932Possible = true
    private var cp932Japanese = false
    /// The first implausible character of the CP932 reading, and its line.
    private var cp932Odd: (scalar: Unicode.Scalar, line: Int)? = nil
    /// The first line holding a byte above ASCII (where the readings first differ): its
    /// number and the bytes of the field around that byte (up to 200).
    private var firstHighLine: (line: Int, bytes: [UInt8])? = nil

    init(file: String) { self.file = file }

    /// Takes the next part; `firstLine` is the line it starts on.
    /// - Throws: `ImportError` for a UTF-16 file (its BOM at the start).
    mutating func add(_ part: [UInt8], firstLine: Int) throws(ImportError) {
        if !started && !part.isEmpty {
            started = true
            if part.count >= 2, (part[0] == 0xFF && part[1] == 0xFE) || (part[0] == 0xFE && part[1] == 0xFF) {
                throw ImportError(file: file, line: 1, message: "file is UTF-16; convert it to UTF-8 (or CP932)")
            }
            hasBOM = part.count >= 3 && part[0] == 0xEF && part[1] == 0xBB && part[2] == 0xBF
        }
        guard let high = part.firstIndex(where: { $0 >= 0x80 }) else { return }
        anyHigh = true
        if firstHighLine == nil, !hasBOM {
            // The field around it: from the comma, tab or line break before to the one after
            // (neither byte is ever part of a CP932 character).
            let stops: Set<UInt8> = [0x0A, 0x0D, 0x2C, 0x09]
            var start = high
            while start > 0 && !stops.contains(part[start - 1]) && high - start < 100 { start -= 1 }
            var end = high
            while end < part.count && !stops.contains(part[end]) && end - start < 200 { end += 1 }
            firstHighLine = (firstLine + TextDecoding.lineNumber(part, at: high) - 1, Array(part[start..<end]))
        }
        if invalidUTF8 == nil, let bad = TextDecoding.firstInvalidUTF8(part) {
            invalidUTF8 = (firstLine + TextDecoding.lineNumber(part, at: bad) - 1, part[bad])
        }
        if invalidUTF8 == nil {
            if utf8Odd == nil { utf8Odd = TextDecoding.implausibleScalar(part, asCP932: false) }
            if !utf8Japanese { utf8Japanese = TextDecoding.hasJapanese(part) }
        }
        if hasBOM { return }
        if cp932Possible && cp932Odd == nil {
            if let asCP932 = try? TextDecoding.cp932ToUTF8(part, file: file) {
                if let odd = TextDecoding.implausibleScalar(asCP932) {
                    cp932Odd = (odd, firstLine + TextDecoding.lineOf(scalar: odd, in: asCP932) - 1)
                }
                if !cp932Japanese { cp932Japanese = TextDecoding.hasJapanese(asCP932) }
            } else {
                cp932Possible = false
            }
        }
    }

    /// The encoding of the whole text. Valid UTF-8 is UTF-8 unless its CP932 reading is
    /// possible, plausible and Japanese while the UTF-8 reading is implausible or not
    /// Japanese (then CP932); when both readings are plausible Japanese, it cannot tell.
    /// - Throws: `ImportError` when it cannot tell (naming the first line where the readings
    ///   differ, both readings and `--encoding`), when a text that is not UTF-8 is not
    ///   plausible CP932 either (naming the line), or a file with a UTF-8 BOM is not UTF-8.
    func decide() throws(ImportError) -> TextEncoding {
        if hasBOM {
            if let bad = invalidUTF8 {
                throw ImportError(file: file, line: bad.line,
                                  message: "invalid UTF-8 byte 0x\(String(bad.byte, radix: 16, uppercase: true)); use --encoding cp932 if the file is Shift_JIS")
            }
            return .utf8
        }
        if !anyHigh { return .utf8 }
        if invalidUTF8 == nil {
            // Short CP932 text can be valid UTF-8 too (茗荷谷 in CP932 reads `䪉גJ`, 螢田
            // `壓c`): only a plausible Japanese CP932 reading outweighs the UTF-8 one.
            guard cp932Possible && cp932Odd == nil && cp932Japanese else { return .utf8 }
            if utf8Odd != nil || !utf8Japanese { return .cp932 }
            throw cannotTell()
        }
        if !cp932Possible, let bad = invalidUTF8 {
            throw ImportError(file: file, line: bad.line,
                              message: "neither UTF-8 nor CP932 (invalid byte 0x\(String(bad.byte, radix: 16, uppercase: true)))")
        }
        // Latin-1 often decodes as CP932 too (S\xE3o Paulo → S縊 Paulo): not station text.
        if let odd = cp932Odd {
            throw ImportError(file: file, line: odd.line, message: "not UTF-8, and as CP932 it reads '\(odd.scalar)' (U+\(String(odd.scalar.value, radix: 16, uppercase: true))), which is not station text (Latin-1 or another encoding?): convert it to UTF-8, or give --encoding cp932 if it is CP932")
        }
        return .cp932
    }

    /// The error for a text both of whose readings are Japanese: the first line where they
    /// differ, and the field there read both ways.
    private func cannotTell() -> ImportError {
        guard let (line, bytes) = firstHighLine else {
            return ImportError(file: file, message: "reads as UTF-8 and as CP932, and both look like Japanese text: give --encoding utf-8|cp932")
        }
        let asUTF8 = String(decoding: bytes, as: UTF8.self)
        let asCP932 = (try? TextDecoding.cp932ToUTF8(bytes, file: file)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        return ImportError(file: file, line: line,
                           message: "reads as UTF-8 '\(asUTF8)' and as CP932 '\(asCP932)', and both look like Japanese text: give --encoding utf-8|cp932")
    }
}
