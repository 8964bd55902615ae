import EkiKit
import Foundation

/// A later pass that only needs node positions (way and area stations' centroids), read
/// without expat: the bytes are scanned for `<node` start tags and only their `id`, `lat`, `lon`
/// and `visible` attributes are read.
///
/// Sound only after pass 1 has read the same bytes with expat: the file is then known to be
/// well-formed OSM XML without entity declarations, with nodes only at the top level. Markup
/// is found at each `<` (attribute values and text cannot hold one); comments, CDATA sections,
/// processing instructions and declarations, which can, are skipped whole. A start tag whose
/// needed attribute holds an entity or character reference (`id="&#49;"`, legal but never
/// written by OSM tools) is not read here: the scan reports it and the caller reads the pass
/// with expat instead (positions found so far are the ones expat finds too).
enum OSMNodeRescan {
    /// Bytes read per call; the buffer grows only for a construct longer than this.
    static let chunkSize = 1 << 20

    /// Scans `input` for the positions of the nodes `scanner` still needs.
    /// - Parameter stopAt: in a sorted file, the first element type that cannot be a node
    ///   (the scan stops there).
    /// - Returns: false when the scan met a start tag it leaves to expat (see above).
    /// - Throws: the input's read or decompression error.
    static func run(_ scanner: UnsafeMutablePointer<OSMScanner>, input: some OSMByteSource,
                    stopAt: OSMElementType?) throws -> Bool {
        var capacity = 2 * chunkSize
        var base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { base.deallocate() }
        var start = 0, end = 0
        var atEnd = false

        /// Keeps [start, end), reads more after it; false when the input is exhausted.
        func fill() throws -> Bool {
            if atEnd { return false }
            if start > 0 {
                memmove(base, base + start, end - start)
                end -= start
                start = 0
            }
            if capacity - end < chunkSize {
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                grown.update(from: base, count: end)
                base.deallocate()
                base = grown
                capacity *= 2
            }
            let n = try input.read(into: base + end, capacity: capacity - end)
            if n == 0 { atEnd = true }
            end += n
            return n > 0
        }

        while true {
            guard let lt = memchr(base + start, 0x3C, end - start) else {
                start = end
                if try !fill() { return true }
                continue
            }
            let at = base.distance(to: lt.assumingMemoryBound(to: UInt8.self))
            switch markup(base, at, end, scanner, stopAt) {
            case .next(let i):
                start = i
            case .incomplete:
                start = at
                if try !fill() { return true }
            case .stop:
                return true
            case .unsupported:
                return false
            }
        }
    }

    enum Step {
        case next(Int), incomplete, stop, unsupported
    }

    /// Reads the markup starting at `b[at] == "<"`.
    private static func markup(_ b: UnsafeMutablePointer<UInt8>, _ at: Int, _ end: Int,
                               _ scanner: UnsafeMutablePointer<OSMScanner>, _ stopAt: OSMElementType?) -> Step {
        func starts(_ s: StaticString, _ i: Int) -> Bool? {
            let n = s.utf8CodeUnitCount
            guard i + n <= end else { return nil }
            return memcmp(b + i, s.utf8Start, n) == 0
        }
        func past(_ s: StaticString, from i: Int) -> Step {
            let n = s.utf8CodeUnitCount
            var j = i
            while j + n <= end {
                if b[j] == s.utf8Start[0] && memcmp(b + j, s.utf8Start, n) == 0 { return .next(j + n) }
                j += 1
            }
            return .incomplete
        }
        guard at + 1 < end else { return .incomplete }
        switch b[at + 1] {
        case 0x21:  // <!
            guard let comment = starts("<!--", at) else { return .incomplete }
            if comment { return past("-->", from: at + 4) }
            guard let cdata = starts("<![CDATA[", at) else { return .incomplete }
            if cdata { return past("]]>", from: at + 9) }
            return past(">", from: at + 2)  // <!DOCTYPE osm> (pass 1 refused any with declarations)
        case 0x3F:  // <?
            return past("?>", from: at + 2)
        case 0x2F:  // </
            return .next(at + 2)
        default:
            break
        }
        var i = at + 1
        while i < end && !isSpace(b[i]) && b[i] != 0x3E && b[i] != 0x2F { i += 1 }
        guard i < end else { return .incomplete }
        let nameLength = i - at - 1
        if nameLength == 4 && memcmp(b + at + 1, "node", 4) == 0 {
            return node(b, i, end, scanner)
        }
        if let stopAt {
            let type: OSMElementType? = nameLength == 3 && memcmp(b + at + 1, "way", 3) == 0 ? .way
                : nameLength == 8 && memcmp(b + at + 1, "relation", 8) == 0 ? .relation : nil
            if let type, type >= stopAt { return .stop }
        }
        return .next(i)
    }

    /// A `<node` start tag's attributes from `b[from]` to its `>`.
    private static func node(_ b: UnsafeMutablePointer<UInt8>, _ from: Int, _ end: Int,
                             _ scanner: UnsafeMutablePointer<OSMScanner>) -> Step {
        var id: Range<Int>?, lat: Range<Int>?, lon: Range<Int>?
        var hidden = false
        var i = from
        while true {
            while i < end && isSpace(b[i]) { i += 1 }
            guard i < end else { return .incomplete }
            if b[i] == 0x3E || b[i] == 0x2F { break }  // > or />
            let nameStart = i
            while i < end && b[i] != 0x3D && !isSpace(b[i]) { i += 1 }
            let name = nameStart..<i
            while i < end && b[i] != 0x22 && b[i] != 0x27 { i += 1 }  // past =, to the quote
            guard i < end else { return .incomplete }
            let quote = b[i]
            let valueStart = i + 1
            i = valueStart
            while i < end && b[i] != quote { i += 1 }
            guard i < end else { return .incomplete }
            let value = valueStart..<i
            i += 1
            switch name.count {
            case 2 where b[name.lowerBound] == 0x69 && b[name.lowerBound + 1] == 0x64: id = value  // id
            case 3 where memcmp(b + name.lowerBound, "lat", 3) == 0: lat = value
            case 3 where memcmp(b + name.lowerBound, "lon", 3) == 0: lon = value
            case 7 where memcmp(b + name.lowerBound, "visible", 7) == 0:
                hidden = value.count == 5 && memcmp(b + value.lowerBound, "false", 5) == 0
            default: continue
            }
            if memchr(b + value.lowerBound, 0x26, value.count) != nil { return .unsupported }  // &
        }
        let next = Step.next(i)
        guard !hidden, let id, let lat, let lon else { return next }
        guard let nodeID = number(b, id, OSMNumber.int64) else { return .unsupported }
        guard let needed = scanner.pointee.neededNodes[nodeID], needed.coordinate == nil else { return next }
        guard let y = number(b, lat, OSMNumber.double), let x = number(b, lon, OSMNumber.double) else {
            return .unsupported
        }
        scanner.pointee.neededNodes[nodeID]!.coordinate = Coordinate(lat: y, lon: x)
        return next
    }

    /// `parse` on a NUL-terminated copy of `b[range]` (at most 63 bytes, else nil).
    @inline(__always)
    private static func number<T>(_ b: UnsafeMutablePointer<UInt8>, _ range: Range<Int>,
                                  _ parse: (UnsafePointer<CChar>) -> T?) -> T? {
        guard range.count < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { text in
            UnsafeMutableRawPointer(text.baseAddress!).copyMemory(from: b + range.lowerBound, byteCount: range.count)
            text[range.count] = 0
            return parse(text.baseAddress!)
        }
    }

    @inline(__always)
    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }
}
