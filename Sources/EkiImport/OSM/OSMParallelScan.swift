import Dispatch
import Foundation

/// Pass 1 over a large plain OSM XML file on several threads: the file is cut into parts at
/// lines that start a `<node`, `<way` or `<relation` tag, each part is read by its own expat
/// parser and `OSMScanner`, and what the parts collected is joined in file order.
///
/// A part after the first is read behind the file's own prologue (its bytes up to the end of
/// the `<osm …>` start tag, then a newline), so the encoding declaration and the root checks
/// are the file's; a part before the last is read with `</osm>` after it. A cut inside a
/// comment, processing instruction, CDATA section or element leaves the part before it
/// malformed (an unclosed token, or `</osm>` closing another element), so every part reading
/// cleanly shows that each cut lies between top-level elements, where reading the parts one
/// after the other is reading the file. Any error in any part, or a file that cannot be cut,
/// gives nil and the caller reads the file on one thread: errors and their positions are
/// always the one-thread reader's.
///
/// Lines in warnings and station candidates are the file's (the newlines before each cut are
/// counted when a later part has lines to move).
/// One difference from one thread, without effect on the result: a way or relation station
/// does not pick up the nodes (or ways) its centroid needs from later parts in this pass; they
/// stay pending and the next pass reads them, as it reads those that came before the station.
enum OSMParallelScan {
    /// The window searched for a cut after each even split point.
    static let cutWindow = 1 << 20

    /// Reads pass 1 of the plain (uncompressed) regular file at `path` in up to `threads`
    /// parts of at least `minimumPartBytes` bytes.
    /// - Returns: the joined scanner, or nil when the file is not read in parts (fewer than
    ///   two parts, compressed, no prologue without DOCTYPE, no cut found) or a part failed.
    static func firstPass(path: String, file: String, maxValueBytes: Int, threads: Int,
                          minimumPartBytes: Int) -> OSMScanner? {
        guard threads >= 2 else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(st.st_size)
        let wanted = min(threads, size / max(minimumPartBytes, 1))
        guard wanted >= 2, let prologue = prologue(fd) else { return nil }

        var cuts = [0]
        for i in 1..<wanted {
            if let c = cut(fd, near: size / wanted * i, size: size), c > cuts.last!, c > prologue.count {
                cuts.append(c)
            }
        }
        guard cuts.count >= 2 else { return nil }
        cuts.append(size)
        let parts = cuts.count - 1

        let slots = Slots(count: parts)
        defer { slots.free() }
        let rootLine = [UInt8](prologue + [0x0A])
        let close = Array("</osm>".utf8)
        let bounds = cuts
        DispatchQueue.concurrentPerform(iterations: parts) { i in
            let source = OSMFilePart(fd: fd, range: bounds[i]..<bounds[i + 1], prefix: i == 0 ? [] : rootLine,
                                     suffix: i == parts - 1 ? [] : close)
            slots.base[i] = readPart(source, file: file, maxValueBytes: maxValueBytes)
        }
        let results = slots.base
        guard results.allSatisfy({ $0 != nil }) else { return nil }

        // Lines are counted only when a later part has some to move (warnings, way and
        // relation stations, stations without name).
        let needsLines = results[1...].contains { part in
            part!.warnings.contains { $0.line != nil } || part!.stations.contains { $0.line > 0 }
        }
        guard let linesBefore = needsLines ? newlines(fd, before: Array(cuts[1..<parts])) : Array(repeating: 0, count: parts - 1) else {
            return nil
        }
        let prologueLines = OSMFilePart.newlines(in: prologue)
        var joined = results[0]!
        for i in 1..<parts {
            // The part's text starts on line prologueLines + 2 of what its parser read, and on
            // line linesBefore + 1 of the file.
            joined.append(results[i]!, lineOffset: linesBefore[i - 1] - prologueLines - 1)
        }
        return joined
    }

    /// The number of newlines before each of the ascending `offsets`; nil when the file
    /// cannot be read.
    private static func newlines(_ fd: Int32, before offsets: [Int]) -> [Int]? {
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var counts: [Int] = []
        var offset = 0, count = 0
        for target in offsets {
            while offset < target {
                let n = pread(fd, buffer.baseAddress!, min(chunk, target - offset), off_t(offset))
                guard n > 0 else { return nil }
                count += OSMFilePart.newlines(in: UnsafeRawBufferPointer(rebasing: buffer[..<n]))
                offset += n
            }
            counts.append(count)
        }
        return counts
    }

    /// One result per part. Each part's thread writes only its own slot, and
    /// `concurrentPerform` returns after every part has finished, before the slots are read.
    private struct Slots: @unchecked Sendable {
        let base: UnsafeMutableBufferPointer<OSMScanner?>

        init(count: Int) {
            base = .allocate(capacity: count)
            base.initialize(repeating: nil)
        }

        func free() {
            _ = base.deinitialize()
            base.deallocate()
        }
    }

    /// One part read by its own parser; nil when it fails.
    private static func readPart(_ source: OSMFilePart, file: String, maxValueBytes: Int) -> OSMScanner? {
        let scanner = UnsafeMutablePointer<OSMScanner>.allocate(capacity: 1)
        scanner.initialize(to: OSMScanner(file: file, maxValueBytes: maxValueBytes))
        defer { scanner.deallocate() }
        do {
            let parser = try OSMExpatParser(scanner: scanner)
            try parser.parse(source)
        } catch {
            scanner.deinitialize(count: 1)
            return nil
        }
        // The parser is gone (its deinit cleared `scanner.parser`).
        let scan = scanner.move()
        return scan.error == nil ? scan : nil
    }

    /// The file's bytes up to the end of the `<osm …>` start tag, after an optional byte-order
    /// mark, XML declaration, comments and processing instructions; nil when they are not
    /// found in the first 64 KiB, there is a DOCTYPE, or the root is empty (`<osm …/>`).
    static func prologue(_ fd: Int32) -> [UInt8]? {
        var head = [UInt8](repeating: 0, count: 1 << 16)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, 0) }
        guard n > 0 else { return nil }
        head.removeSubrange(n...)
        var i = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func at(_ s: String) -> Bool { head[i...].starts(with: s.utf8) }
        func skip(past s: String) -> Bool {
            let needle = Array(s.utf8)
            while i + needle.count <= head.count {
                if head[i..<i + needle.count].elementsEqual(needle) { i += needle.count; return true }
                i += 1
            }
            return false
        }
        while i < head.count {
            let b = head[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1 }
            else if at("<?") { guard skip(past: "?>") else { return nil } }
            else if at("<!--") { guard skip(past: "-->") else { return nil } }
            else { break }
        }
        guard at("<osm"), i + 4 < head.count, [0x20, 0x09, 0x0A, 0x0D, 0x3E].contains(head[i + 4]) else { return nil }
        i += 4
        var quote: UInt8 = 0
        while i < head.count {
            let b = head[i]
            if quote != 0 { if b == quote { quote = 0 } }
            else if b == 0x22 || b == 0x27 { quote = b }
            else if b == 0x3E { return head[i - 1] == 0x2F ? nil : Array(head[...i]) }
            i += 1
        }
        return nil
    }

    /// The offset of the first line at or after `near` that starts (after blanks) with a
    /// `<node`, `<way` or `<relation` tag; nil when there is none within `cutWindow` bytes.
    static func cut(_ fd: Int32, near: Int, size: Int) -> Int? {
        var window = [UInt8](repeating: 0, count: min(cutWindow, size - near))
        let n = window.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(near)) }
        guard n > 0 else { return nil }
        var i = 0
        while i < n {
            guard window[i] == 0x0A else { i += 1; continue }
            i += 1
            var j = i
            while j < n && (window[j] == 0x20 || window[j] == 0x09 || window[j] == 0x0D) { j += 1 }
            for name in ["<node", "<way", "<relation"] {
                let k = j + name.utf8.count
                if k < n, window[j..<k].elementsEqual(name.utf8),
                   [0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F].contains(window[k]) {
                    return near + i
                }
            }
        }
        return nil
    }
}

/// One part of a plain file as an expat input: `prefix`, the bytes of `range` (read with
/// `pread`, so parts share one descriptor), then `suffix`.
final class OSMFilePart: OSMByteSource {
    private let fd: Int32
    private var offset: Int
    private let end: Int
    private let prefix: [UInt8]
    private let suffix: [UInt8]
    private var prefixDone = 0
    private var suffixDone = 0

    init(fd: Int32, range: Range<Int>, prefix: [UInt8], suffix: [UInt8]) {
        self.fd = fd
        offset = range.lowerBound
        end = range.upperBound
        self.prefix = prefix
        self.suffix = suffix
    }

    func read(into dst: UnsafeMutableRawPointer, capacity: Int) throws -> Int {
        if prefixDone < prefix.count {
            let n = min(capacity, prefix.count - prefixDone)
            prefix.withUnsafeBytes { dst.copyMemory(from: $0.baseAddress! + prefixDone, byteCount: n) }
            prefixDone += n
            return n
        }
        if offset < end {
            var n: Int
            repeat { n = pread(fd, dst, min(capacity, end - offset), off_t(offset)) } while n < 0 && errno == EINTR
            guard n > 0 else { throw ImportError(file: "", message: "read failed") }
            offset += n
            return n
        }
        if suffixDone < suffix.count {
            let n = min(capacity, suffix.count - suffixDone)
            suffix.withUnsafeBytes { dst.copyMemory(from: $0.baseAddress! + suffixDone, byteCount: n) }
            suffixDone += n
            return n
        }
        return 0
    }

    /// The number of `\n` bytes, eight at a time.
    static func newlines(in bytes: UnsafeRawBufferPointer) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var count = 0, i = 0
        while i + 8 <= bytes.count {
            let x = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ (ones &* 0x0A)
            // The high bit of each byte of x that is zero, and no other bit.
            count += (~(((x & lows) &+ lows) | x | lows)).nonzeroBitCount
            i += 8
        }
        while i < bytes.count {
            if bytes[i] == 0x0A { count += 1 }
            i += 1
        }
        return count
    }

    static func newlines(in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { newlines(in: $0) }
    }
}

extension OSMScanner {
    /// Adds what pass 1 over the next part of the same file collected; its lines are moved by
    /// `lineOffset`.
    mutating func append(_ later: OSMScanner, lineOffset: Int) {
        if let first = later.firstType, first < lastType { isSorted = false }
        isSorted = isSorted && later.isSorted
        if firstType == nil { firstType = later.firstType }
        lastType = max(lastType, later.lastType)
        for var s in later.stations {
            if s.line > 0 { s.line += lineOffset }
            stations.append(s)
        }
        routes += later.routes
        routeMasters += later.routeMasters
        stopAreas += later.stopAreas
        // A position or node list found later wins, as one pass overwrites it.
        for (id, n) in later.neededNodes where n.coordinate != nil || neededNodes[id] == nil {
            neededNodes[id] = n
        }
        for (id, w) in later.neededWays where w.nodes != nil || neededWays[id] == nil {
            neededWays[id] = w
        }
        for var w in later.warnings {
            w.line = w.line.map { $0 + lineOffset }
            warnings.append(w)
        }
        stationsMarkedDeleted += later.stationsMarkedDeleted
    }
}
