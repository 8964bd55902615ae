import COsmium
import EkiKit
import Foundation

/// Reads railway stations from an OpenStreetMap PBF file (`.osm.pbf`), decoded by libosmium
/// (through `COsmium`).
///
/// Output: the same `ImportBatch` as `OSMImporter` gives for the XML of the same data (same
/// station rule, names, operators, routes, stop areas and centroids; see `OSMImporter`),
/// except that PBF carries no Overpass centers, inline geometry or JOSM actions. Coordinates
/// are PBF's 1e-7 degree units, as osmium writes them to XML.
///
/// Memory: no pass holds every node; the passes are those of the XML importer. Pass 1 reads
/// everything: stations, rail routes, route masters and stop areas, every node position
/// checked, and the ids of the nodes (and, for relation stations, ways) that station centroids
/// need. Nodes without tags, the bulk of a file, are checked in COsmium and never handed over.
/// When a relation station needs ways that came before it, one more pass reads those ways.
/// When a centroid needs nodes, a last pass reads only those, and stops once it has them all
/// (a file whose stations are all nodes is read once). libosmium decodes blocks on one thread
/// per core. Stations are then put in node, way, relation order, as a sorted XML file gives
/// them.
public struct OSMPBFImporter: OSMFileImporter {
    /// The input (a file; PBF is not read from stdin), operator override, name in messages and
    /// longest tag value (PBF itself bounds every string by its 32 MiB block size).
    public var options: OSMReadOptions

    public init(options: OSMReadOptions) {
        self.options = options
    }

    /// Reads the whole file.
    /// - Returns: the rows and warnings (stations without name or position).
    /// - Throws: `ImportError` naming the file for: an unreadable or empty file, a history file (several
    ///   versions of objects), truncated or corrupt PBF (libosmium's message); naming the
    ///   element for a position out of range or at (0, 0) and a tag value longer than
    ///   `maxValueBytes`.
    public func read() throws -> ImportBatch {
        // libosmium reads an empty file as PBF without elements.
        var st = stat()
        guard stat(options.path, &st) == 0 else {
            throw ImportError(file: options.displayName, message: "cannot read file: \(String(cString: strerror(errno)))")
        }
        guard st.st_size > 0 else {
            throw ImportError(file: options.displayName, message: "not OpenStreetMap PBF: the file is empty")
        }
        let scanner = UnsafeMutablePointer<OSMScanner>.allocate(capacity: 1)
        scanner.initialize(to: OSMScanner(file: options.displayName, maxValueBytes: options.maxValueBytes))
        defer {
            scanner.deinitialize(count: 1)
            scanner.deallocate()
        }
        try readPass(Int32(COSM_NODE | COSM_WAY | COSM_RELATION), scanner, nodes: Int32(COSM_PLAIN_NODES))
        var pass = 1
        if scanner.pointee.neededWays.values.contains(where: { $0.nodes == nil }) {
            pass += 1
            scanner.pointee.beginPass(pass, stopAt: nil)
            try readPass(Int32(COSM_WAY), scanner)
        }
        let wanted = scanner.pointee.neededNodes.compactMap { $0.value.coordinate == nil ? $0.key : nil }
        if !wanted.isEmpty {
            scanner.pointee.beginPass(pass + 1, stopAt: nil)
            try readPass(Int32(COSM_NODE), scanner, nodes: Int32(COSM_WANTED_NODES), wanted: wanted)
        }

        let order = scanner.pointee.stations.enumerated().sorted {
            ($0.element.ref.type, $0.offset) < ($1.element.ref.type, $1.offset)
        }
        scanner.pointee.stations = order.map(\.element)
        return OSMImporter.batch(from: scanner.pointee, operatorOverride: options.operatorOverride)
    }

    /// Whether the file starts as OSM PBF does: a 4-byte big-endian BlobHeader length, then a
    /// BlobHeader whose type (field 1) is `OSMHeader`.
    public static func isPBF(path: String) -> Bool {
        guard path != "-", let f = fopen(path, "rb") else { return false }
        defer { fclose(f) }
        var head = [UInt8](repeating: 0, count: 15)
        guard fread(&head, 1, head.count, f) == head.count else { return false }
        let length = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
        return length > 0 && length < 64 * 1024 && head[4] == 0x0A && head[5] == 9
            && head[6...].elementsEqual("OSMHeader".utf8)
    }

    /// One pass over the file reading elements of `types` (`COSM_*` bits), nodes filtered by
    /// `nodes` (`COSM_*_NODES`, see cosmium.h) with the `wanted` ids.
    private func readPass(_ types: Int32, _ scanner: UnsafeMutablePointer<OSMScanner>,
                          nodes: Int32 = Int32(COSM_ALL_NODES), wanted: [Int64] = []) throws {
        var message = [CChar](repeating: 0, count: 512)
        guard let reader = cosm_open(options.path, types, &message, message.count) else {
            throw ImportError(file: options.displayName, message: "cannot read as OpenStreetMap PBF: \(String(cString: message))")
        }
        defer { cosm_close(reader) }
        if cosm_is_history(reader) != 0 {
            throw ImportError(file: options.displayName, message: "an OSM history file (several versions of objects) is not read; give a snapshot (osmium time-filter)")
        }
        if nodes != Int32(COSM_ALL_NODES), cosm_filter_nodes(reader, nodes, wanted, wanted.count) != 0 {
            throw ImportError(file: options.displayName, message: "out of memory for \(wanted.count) node ids")
        }
        var element = cosm_element()
        while true {
            let status = cosm_next(reader, &element, &message, message.count)
            if status == 0 { return }
            if status < 0 {
                throw ImportError(file: options.displayName, message: "corrupt or truncated OpenStreetMap PBF: \(String(cString: message))")
            }
            scanner.pointee.read(element)
            if let error = scanner.pointee.error { throw error }
        }
    }
}
