import CExpat

// Byte helpers on the NUL-terminated texts expat (and libosmium) hand over.

/// True when the NUL-terminated text at `p` is exactly `s`.
@inline(__always)
func equal(_ p: UnsafePointer<XML_Char>, _ s: StaticString) -> Bool {
    let u = s.utf8Start
    for i in 0..<s.utf8CodeUnitCount where UInt8(bitPattern: p[i]) != u[i] { return false }
    return p[s.utf8CodeUnitCount] == 0
}

/// True when the NUL-terminated text at `p` starts with `s`.
@inline(__always)
func hasPrefix(_ p: UnsafePointer<XML_Char>, _ s: StaticString) -> Bool {
    let u = s.utf8Start
    for i in 0..<s.utf8CodeUnitCount where UInt8(bitPattern: p[i]) != u[i] { return false }
    return true
}

/// Calls `body(name, value)` for each attribute of expat's NULL-terminated name/value array.
@inline(__always)
func forEachAttribute(_ atts: OSMScanner.Attributes,
                      _ body: (UnsafePointer<XML_Char>, UnsafePointer<XML_Char>) -> Void) {
    var i = 0
    while let n = atts[i], let v = atts[i + 1] {
        body(n, v)
        i += 2
    }
}
