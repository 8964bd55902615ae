import EkiKit
import Foundation

/// Reads railway stations from an OpenStreetMap XML 0.6 file.
///
/// Input: a file path or `-` for stdin; plain XML, gzip or bzip2 (recognised by magic bytes,
/// whatever the name). Accepted writers: the OSM API, Overpass `[out:xml]` (`<meta>`,
/// `<note>`, `<remark>`, `out center`, `out geom`), JOSM (single quotes, negative ids; the
/// `action` attribute is ignored as osmium ignores it, with one warning counting stations
/// marked `action="delete"`) and osmium. Elements with `visible="false"` are left out.
///
/// Output: `ImportBatch(dataset: "osm")` with one `SourceRecord` per station × operator ×
/// service class × line, `source` = `osm:node/123` (or `way/…`, `relation/…`).
/// - Station: `railway=station|halt|tram_stop`, or `public_transport=station` with a rail mode
///   (see `OSMTagSet.isStation` for the full rule); platforms, stop positions, bus stops,
///   aerialway stations and disused/abandoned/proposed/under-construction ones are not.
/// - `name`: `name:ja` ?? `name`; a `name` of the shape `氷川台 (Hikawadai)` gives the name 氷川台
///   and, failing the tags below, the Latin name Hikawadai. `reading`: `name:ja-Hira` ??
///   `name:ja_kana` ?? `name:ja-Kana`, NFKC then folded to hiragana. `latinName`: `name:ja-Latn`
///   ?? `name:ja_rm` ?? `name:en`.
/// - Point (degrees WGS84): a node's `lat`/`lon`; for ways and relations an Overpass `<center>`
///   or inline geometry when given, else the mean of their nodes' coordinates.
/// - Operators, lines and Shinkansen class from `operator`/`network` and the rail route,
///   route_master and stop_area relations: see `OSMRecordBuilder`. Stations imported from
///   国土数値情報 carry `KSJ2:OPC` (operator) and `KSJ2:LIN` (line) instead: the operator when
///   there is no `operator` or `network`, the line when no route relation gives one.
/// - Elements nested inside elements are refused (OSM XML never nests them).
///
/// Memory: elements are streamed through expat (1 MiB chunks); only stations, rail routes and
/// stop areas are kept. The first pass over a plain file of several MiB is read in parts on
/// up to `threads` threads (`OSMParallelScan`), with the same result and errors; a compressed
/// file is decompressed on a thread of its own while expat parses (`OSMReadAhead`). When a station is a way or relation whose nodes came earlier in the
/// file, the file is read again for just those nodes (a sorted file's later passes stop at its
/// first way, or first relation; a pass for node positions only scans the bytes for `<node`
/// tags without expat, see `OSMNodeRescan`); a pipe or stdin is copied to a temporary file during the
/// first pass so that it can be read again, and the copy is removed afterwards.
public struct OSMImporter: OSMFileImporter {
    /// The dataset name in every source reference.
    public static let dataset = "osm"

    /// The input (a path or `-` for stdin), operator override, name in messages and longest
    /// tag value: longer input between two `<` (a start tag with its attributes, or text) is
    /// refused before it is buffered.
    public var options: OSMReadOptions

    /// The default `maxValueBytes`: 1 MiB, as for CSV fields (`CSVReader.defaultMaxFieldBytes`).
    public static let defaultMaxValueBytes = CSVReader.defaultMaxFieldBytes

    /// The most threads the first pass over a plain file uses (`OSMParallelScan`); 1 reads on
    /// the calling thread only. Default: the active processor count, at most 8.
    public var threads: Int
    /// The smallest part, in bytes, the first pass cuts a plain file into: a file shorter than
    /// twice this is read on one thread. Default 4 MiB.
    public var minimumPartBytes: Int

    public init(options: OSMReadOptions) {
        self.options = options
        threads = min(ProcessInfo.processInfo.activeProcessorCount, 8)
        minimumPartBytes = 4 << 20
    }

    /// Reads the whole input.
    /// - Returns: the rows and warnings (stations without name or position, Overpass remarks).
    /// - Throws: `ImportError` with file, line and column for: a DOCTYPE with an internal subset
    ///   or external DTD, malformed or truncated XML, a root other than `<osm>` or a version
    ///   other than 0.6, a non-numeric or out-of-range coordinate, a non-integer id or ref, an
    ///   Overpass `<remark>` reporting a runtime error; without line for unreadable files and
    ///   corrupt or truncated gzip/bzip2 data.
    public func read() throws -> ImportBatch {
        let scanner = UnsafeMutablePointer<OSMScanner>.allocate(capacity: 1)
        scanner.initialize(to: OSMScanner(file: options.displayName, maxValueBytes: options.maxValueBytes))
        defer {
            scanner.deinitialize(count: 1)
            scanner.deallocate()
        }

        // A pipe or stdin can be read once only: keep a raw copy for later passes.
        var copy: (path: String, fd: Int32)?
        defer {
            if let copy {
                close(copy.fd)
                unlink(copy.path)
            }
        }
        if !Self.isRegularFile(options.path) {
            copy = try Self.makeTemporaryFile(for: options.displayName)
        }
        let isCompressed = copy == nil && Self.isCompressed(path: options.path)

        if copy == nil, !isCompressed, let parts = OSMParallelScan.firstPass(
            path: options.path, file: options.displayName, maxValueBytes: options.maxValueBytes, threads: threads, minimumPartBytes: minimumPartBytes) {
            scanner.pointee = parts
        } else {
            try Self.runPass(scanner, input: Self.readAhead(OSMByteStream(path: options.path, teeFD: copy?.fd), regularFile: copy == nil))
        }
        var pass = 1
        while pass < 3 {
            let pending = Self.pending(scanner.pointee, fromPass: pass)
            guard pending.nodes || pending.ways else { break }
            pass += 1
            let stopAt: OSMElementType? = scanner.pointee.isSorted ? (pending.ways ? .relation : .way) : nil
            scanner.pointee.beginPass(pass, stopAt: stopAt)
            // Node positions only: read without expat (`OSMNodeRescan`), unless it declines.
            if !pending.ways, try OSMNodeRescan.run(scanner, input: Self.readAhead(OSMByteStream(path: copy?.path ?? options.path, displayName: options.displayName)),
                                                    stopAt: stopAt) {
                continue
            }
            let input = try OSMByteStream(path: copy?.path ?? options.path, displayName: options.displayName)
            try Self.runPass(scanner, input: Self.readAhead(input))
        }

        return Self.batch(from: scanner.pointee, operatorOverride: options.operatorOverride)
    }

    /// The rows and warnings of what the passes over one file collected (XML or PBF).
    static func batch(from scan: OSMScanner, operatorOverride: String?) -> ImportBatch {
        let built = OSMRecordBuilder(scan: scan, operatorOverride: operatorOverride).build()
        var warnings = scan.warnings + built.warnings
        if scan.stationsMarkedDeleted > 0 {
            warnings.append(ImportWarning(file: scan.file, field: "action", message:
                "\(scan.stationsMarkedDeleted) station(s) marked action=\"delete\" by JOSM were imported (the attribute is ignored, as osmium does)"))
        }
        var batch = ImportBatch(dataset: Self.dataset, records: built.records, warnings: warnings)
        if built.records.isEmpty {
            batch.emptyReason = "no stations in this file (railway=station, halt or tram_stop, public_transport=station with a rail mode, or station=subway, light_rail, monorail or funicular)"
        }
        return batch
    }

    /// True when `identify(path:)` says yes.
    public static func looksLikeOSM(path: String) -> Bool {
        identify(path: path) == .yes
    }

    /// Whether a file is OSM XML, reading at most 4 KiB of its (decompressed) text:
    /// - yes: after an optional gzip/bzip2 layer, a byte-order mark, the XML declaration,
    ///   comments and processing instructions, the document starts with an `<osm` start tag or
    ///   a `<!DOCTYPE osm` (which the importer then refuses, as it refuses any DOCTYPE with
    ///   declarations);
    /// - maybe: compressed data that does not decompress (the importer says why), or an XML
    ///   prologue that runs past the 4 KiB read;
    /// - no: anything else, `-` (stdin cannot be read without consuming it) and unreadable
    ///   files.
    public static func identify(path: String) -> Identification {
        guard path != "-", let input = try? OSMByteStream(path: path) else {
            return isCompressed(path: path) ? .maybe : .no
        }
        var head = [UInt8](repeating: 0, count: 4096)
        var count = 0
        var failed = false
        while count < head.count {
            let n: Int
            do {
                n = try head.withUnsafeMutableBytes { try input.read(into: $0.baseAddress! + count, capacity: $0.count - count) }
            } catch {
                failed = true
                break
            }
            if n == 0 { break }
            count += n
        }
        if failed && count == 0 { return .maybe }
        let complete = count < head.count && !failed
        var s = head[..<count]
        if s.starts(with: [0xEF, 0xBB, 0xBF]) { s = s.dropFirst(3) }
        let compressed = isCompressed(path: path)
        var sawProlog = false
        while true {
            while let b = s.first, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { s = s.dropFirst() }
            if s.starts(with: Array("<!DOCTYPE osm".utf8)) { return .yes }
            let skips: [(open: String, close: String)] = [("<?", "?>"), ("<!--", "-->")]
            guard let skip = skips.first(where: { s.starts(with: Array($0.open.utf8)) }) else { break }
            sawProlog = true
            guard let end = find(Array(skip.close.utf8), in: s) else { return complete ? .no : .maybe }
            s = s[end...]
        }
        if s.starts(with: Array("<osm".utf8)), s.count > 4 {
            let next = s[s.startIndex + 4]
            if next == 0x20 || next == 0x09 || next == 0x0A || next == 0x0D || next == 0x3E || next == 0x2F { return .yes }
        }
        if s.isEmpty && !complete && (sawProlog || compressed) { return .maybe }
        return .no
    }

    /// Whether the file starts with gzip or bzip2 magic bytes.
    private static func isCompressed(path: String) -> Bool {
        guard path != "-", let f = fopen(path, "rb") else { return false }
        defer { fclose(f) }
        var magic = [UInt8](repeating: 0, count: 3)
        let n = fread(&magic, 1, 3, f)
        return (n >= 2 && magic[0] == 0x1F && magic[1] == 0x8B) || (n == 3 && magic == [0x42, 0x5A, 0x68])
    }

    /// The index just past the first occurrence of `needle` in `hay`.
    private static func find(_ needle: [UInt8], in hay: ArraySlice<UInt8>) -> Int? {
        guard hay.count >= needle.count else { return nil }
        var i = hay.startIndex
        while i + needle.count <= hay.endIndex {
            if hay[i..<i + needle.count].elementsEqual(needle) { return i + needle.count }
            i += 1
        }
        return nil
    }

    /// A compressed regular file is decompressed ahead on a thread of its own (`OSMReadAhead`).
    private static func readAhead(_ stream: OSMByteStream, regularFile: Bool = true) -> any OSMByteSource {
        regularFile && stream.compression != .none ? OSMReadAhead(stream) : stream
    }

    private static func runPass(_ scanner: UnsafeMutablePointer<OSMScanner>, input: some OSMByteSource) throws {
        let parser = try OSMExpatParser(scanner: scanner)
        try parser.parse(input)
    }

    /// Whether nodes or ways asked for in `pass` are still missing. Ones asked for earlier
    /// had a full pass to turn up: they are not in the file.
    private static func pending(_ scan: OSMScanner, fromPass pass: Int) -> (nodes: Bool, ways: Bool) {
        (scan.neededNodes.values.contains { $0.coordinate == nil && $0.pass == pass },
         scan.neededWays.values.contains { $0.nodes == nil && $0.pass == pass })
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return path != "-" && stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    private static func makeTemporaryFile(for name: String) throws -> (path: String, fd: Int32) {
        var template = Array((NSTemporaryDirectory() + "/eki-osm-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ImportError(file: name, message: "cannot create a temporary copy: \(String(cString: strerror(errno)))")
        }
        return (String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self), fd)
    }
}
