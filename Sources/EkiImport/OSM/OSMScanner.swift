import CExpat
import EkiKit
import Foundation

/// What one or more passes over an OSM XML file collected, and the expat event handlers that
/// collect it; a PBF file's elements come in through `read(_:)` (OSMScanner+PBF.swift).
///
/// Pass 1 reads everything a station needs: station elements (nodes, ways, relations), rail
/// route and route_master relations, stop_area relations, and checks the root, version and
/// every node coordinate. Elements are not kept: only stations, routes and stop areas are
/// (a small part of an extract). Where a station is a way or a relation, the ids of the nodes
/// (and ways) its centroid needs are noted; nodes that come later in the file are picked up in
/// the same pass, the rest in further passes (`pass` > 1) that read only those.
///
/// The scanner lives behind an `UnsafeMutablePointer` that is expat's user data (instead of the
/// usual `Unmanaged` class box): the handlers run for every element of files of many GB, and
/// accesses through an unsafe pointer carry no dynamic exclusivity checks, which a class's
/// stored properties do. Errors follow the usual pattern: stored here, parser stopped, rethrown
/// by `OSMExpatParser.parse` once expat returns.
struct OSMScanner {
    let file: String
    /// The parser of the current pass (set by `OSMExpatParser`).
    var parser: XML_Parser?
    var pass = 1
    /// The first error; the parser is stopped when it is set.
    var error: ImportError?
    /// Set when a later pass stopped because the rest of a sorted file cannot hold what it needs.
    var stoppedEarly = false
    /// In a later pass over a sorted file: stop at the first element of this type.
    var stopAt: OSMElementType?
    /// True while every element seen in pass 1 came in node → way → relation order.
    var isSorted = true
    /// The first element type and the greatest one seen in pass 1 (to join parts of a file).
    var firstType: OSMElementType?
    var lastType = OSMElementType.node

    private var depth = 0
    var halted = false
    // The element being read (depth 2).
    var current: OSMElementType?
    var currentID: Int64 = 0
    /// `visible="false"`: a deleted version (history files); the element is left out.
    var skip = false
    /// JOSM `action="delete"`: a pending edit in a working file. Read like any element, as
    /// osmium does (the HokkaidoRailGTFS file keeps its 24 tram stops this way), and counted.
    var markedDeleted = false
    var coordinate: Coordinate?
    var center: Coordinate?
    var tags = OSMTagSet()
    var refs: [Int64] = []
    var collectRefs = false
    var members: [OSMObjectRef] = []
    var memberRoles: [UInt8] = []  // 0 other, 1 stop*/platform*
    var inlineLat = 0.0, inlineLon = 0.0, inlineCount = 0
    // Overpass <remark>.
    private var inRemark = false
    private var remarkText: [UInt8] = []
    private var remarkLine = 0, remarkColumn = 0

    // What the passes keep.
    var stations: [OSMStationCandidate] = []
    var routes: [OSMRoute] = []
    var routeMasters: [OSMRouteMaster] = []
    var stopAreas: [OSMStopArea] = []
    var neededNodes: [Int64: OSMNeededNode] = [:]
    var neededWays: [Int64: OSMNeededWay] = [:]
    var warnings: [ImportWarning] = []
    /// Stations that JOSM marks `action="delete"` (imported all the same).
    var stationsMarkedDeleted = 0

    /// The longest tag value accepted, in bytes (`--max-field-bytes`).
    let maxValueBytes: Int

    init(file: String, maxValueBytes: Int = OSMImporter.defaultMaxValueBytes) {
        self.file = file
        self.maxValueBytes = maxValueBytes
        refs.reserveCapacity(2048)
    }

    /// Prepares a later pass: the element state is reset, what was collected is kept.
    mutating func beginPass(_ number: Int, stopAt: OSMElementType?) {
        pass = number
        self.stopAt = stopAt
        stoppedEarly = false
        halted = false
        depth = 0
        current = nil
    }

    // MARK: errors

    private var line: Int { parser.map { Int(XML_GetCurrentLineNumber($0)) } ?? 0 }
    private var column: Int { parser.map { Int(XML_GetCurrentColumnNumber($0)) + 1 } ?? 0 }

    /// Records the error at the current position and stops the parser.
    mutating func fail(_ message: String, field: String? = nil) {
        guard error == nil else { return }
        if parser == nil, let current {
            // PBF has no lines: name the element instead.
            error = ImportError(file: file, field: field, message: "\(current.text)/\(currentID): \(message)")
        } else {
            error = ImportError(file: file, line: line, column: column, field: field, message: message)
        }
        halted = true
        if let parser { XML_StopParser(parser, 0) }
    }

    private mutating func warn(_ message: String, line: Int? = nil) {
        warnings.append(ImportWarning(file: file, line: line.flatMap { $0 > 0 ? $0 : nil }, message: message))
    }

    // MARK: start and end of elements

    typealias Attributes = UnsafeMutablePointer<UnsafePointer<XML_Char>?>

    mutating func startElement(_ name: UnsafePointer<XML_Char>, _ atts: Attributes) {
        guard !halted else { return }
        depth += 1
        switch depth {
        case 1: startRoot(name, atts)
        case 2:
            if equal(name, "node") { startObject(.node, atts) }
            else if equal(name, "way") { startObject(.way, atts) }
            else if equal(name, "relation") { startObject(.relation, atts) }
            else {
                current = nil
                if pass == 1 && equal(name, "remark") { startRemark() }
            }
        default:
            // OSM elements never nest (a file of 200,000 nested <node>s is not OSM data).
            if equal(name, "node") || equal(name, "way") || equal(name, "relation") {
                return fail("<\(String(cString: name))> inside another element: OSM nodes, ways and relations do not nest")
            }
            guard let type = current, !skip else { return }
            if equal(name, "nd") { readNd(type, atts) }
            else if depth == 3 {
                if equal(name, "tag") {
                    if pass == 1 { readTag(atts) }
                } else if equal(name, "member") {
                    if type == .relation && pass == 1 { readMember(atts) }
                } else if equal(name, "center") {
                    center = readLatLon(atts)
                }
            }
        }
    }

    mutating func endElement() {
        guard !halted else { return }
        if depth == 2 {
            if let type = current {
                if !skip { pass == 1 ? finishFirstPass(type) : finishLaterPass(type) }
                current = nil
            } else if inRemark {
                finishRemark()
            }
        }
        depth -= 1
    }

    private mutating func startRoot(_ name: UnsafePointer<XML_Char>, _ atts: Attributes) {
        guard pass == 1 else { return }
        guard equal(name, "osm") else {
            return fail("the root element is <\(String(cString: name))>, not <osm>: not an OSM XML data file")
        }
        var version: String?
        forEachAttribute(atts) { n, v in if equal(n, "version") { version = String(cString: v) } }
        guard let version else { return fail("<osm> has no version; OSM XML 0.6 expected", field: "version") }
        guard version == "0.6" else {
            return fail("OSM XML version \(version) is not supported (0.6 expected)", field: "version")
        }
    }

    private mutating func startObject(_ type: OSMElementType, _ atts: Attributes) {
        if pass == 1 {
            if firstType == nil { firstType = type }
            if type < lastType { isSorted = false }
            lastType = max(lastType, type)
        } else if let stopAt, type >= stopAt {
            stoppedEarly = true
            halted = true
            if let parser { XML_StopParser(parser, 0) }
            return
        }
        beginElement(type)
        var idText: UnsafePointer<XML_Char>?
        var latText: UnsafePointer<XML_Char>?
        var lonText: UnsafePointer<XML_Char>?
        forEachAttribute(atts) { n, v in
            switch UInt8(bitPattern: n[0]) {
            case 0x69: if equal(n, "id") { idText = v }  // i
            case 0x6c: if equal(n, "lat") { latText = v } else if equal(n, "lon") { lonText = v }  // l
            case 0x61: if equal(n, "action") && equal(v, "delete") { markedDeleted = true }  // a (JOSM)
            case 0x76: if equal(n, "visible") && equal(v, "false") { skip = true }  // v
            default: break
            }
        }
        guard let idText else { return fail("<\(type.text)> without id", field: "id") }
        guard let id = OSMNumber.int64(idText) else {
            return fail("id '\(String(cString: idText))' is not an integer", field: "id")
        }
        currentID = id
        if type == .node {
            // Pass 1 checks every node's coordinates; later passes read only the ones needed.
            if pass == 1 || (neededNodes[id].map { $0.coordinate == nil } ?? false) {
                coordinate = checkedCoordinate(lat: latText, lon: lonText)
            }
        } else if type == .way {
            collectRefs = pass == 1 || (neededWays[id].map { $0.nodes == nil } ?? false)
        }
    }

    /// The point given by `lat`/`lon` texts, nil when both are absent (deleted or redacted
    /// nodes carry none). Fails on a missing half, non-numeric text, a value out of range or
    /// (0, 0), a placeholder (`PositionChecks.placeholderMessage`).
    /// Forgets the element before, as a node, way or relation of `type` starts (XML and PBF).
    mutating func beginElement(_ type: OSMElementType) {
        current = type
        skip = false
        markedDeleted = false
        coordinate = nil
        center = nil
        tags.reset()
        refs.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        memberRoles.removeAll(keepingCapacity: true)
        inlineCount = 0
        inlineLat = 0
        inlineLon = 0
    }

    mutating func checkedCoordinate(lat: UnsafePointer<XML_Char>?,
                                    lon: UnsafePointer<XML_Char>?) -> Coordinate? {
        if lat == nil && lon == nil { return nil }
        guard let lat else { fail("lon without lat", field: "lat"); return nil }
        guard let lon else { fail("lat without lon", field: "lon"); return nil }
        guard let y = OSMNumber.double(lat) else {
            fail("'\(String(cString: lat))' is not a number", field: "lat"); return nil
        }
        guard let x = OSMNumber.double(lon) else {
            fail("'\(String(cString: lon))' is not a number", field: "lon"); return nil
        }
        return checkedCoordinate(lat: y, lon: x)
    }

    /// The point (`lat`, `lon` in degrees), nil after failing when it is out of range or the
    /// (0, 0) placeholder.
    mutating func checkedCoordinate(lat y: Double, lon x: Double) -> Coordinate? {
        guard (-90...90).contains(y) else { fail("\(y) is outside -90...90", field: "lat"); return nil }
        guard (-180...180).contains(x) else { fail("\(x) is outside -180...180", field: "lon"); return nil }
        if PositionChecks.isPlaceholder(lat: y, lon: x) { fail(PositionChecks.placeholderMessage, field: "lat"); return nil }
        return Coordinate(lat: y, lon: x)
    }

    private mutating func readLatLon(_ atts: Attributes) -> Coordinate? {
        var latText: UnsafePointer<XML_Char>?
        var lonText: UnsafePointer<XML_Char>?
        forEachAttribute(atts) { n, v in
            if equal(n, "lat") { latText = v } else if equal(n, "lon") { lonText = v }
        }
        return checkedCoordinate(lat: latText, lon: lonText)
    }

    private mutating func readTag(_ atts: Attributes) {
        // Fast path: `k` then `v`, as every writer puts them.
        guard let kName = atts[0], let key = atts[1], equal(kName, "k"), let vName = atts[2],
              let value = atts[3], equal(vName, "v") else {
            // Attribute order other than k, v (legal, rare): look them up by name.
            var key: UnsafePointer<XML_Char>?
            var value: UnsafePointer<XML_Char>?
            forEachAttribute(atts) { n, v in
                if equal(n, "k") { key = v } else if equal(n, "v") { value = v }
            }
            if let key, let value, let known = OSMKey.lookup(key) { setTag(known, value) }
            return
        }
        if let known = OSMKey.lookup(key) { setTag(known, value) }
    }

    /// Keeps the value of a known key; fails when it is longer than `maxValueBytes`.
    mutating func setTag(_ key: OSMKey, _ value: UnsafePointer<CChar>) {
        let n = strlen(value)
        guard n <= maxValueBytes else {
            return fail("the value of '\(key.text)' is \(n) bytes, longer than the limit of \(maxValueBytes) bytes (--max-field-bytes N raises it)",
                        field: key.text)
        }
        tags.set(key, value, count: n)
    }

    private mutating func readNd(_ type: OSMElementType, _ atts: Attributes) {
        if pass > 1 && !collectRefs { return }
        var refText: UnsafePointer<XML_Char>?
        var latText: UnsafePointer<XML_Char>?
        var lonText: UnsafePointer<XML_Char>?
        forEachAttribute(atts) { n, v in
            if equal(n, "ref") { refText = v } else if equal(n, "lat") { latText = v } else if equal(n, "lon") { lonText = v }
        }
        if type == .way && depth == 3 && collectRefs {
            guard let refText, let ref = OSMNumber.int64(refText) else {
                return fail("<nd> ref '\(refText.map { String(cString: $0) } ?? "")' is not an integer", field: "ref")
            }
            refs.append(ref)
        }
        // Overpass `out geom` gives node coordinates inline.
        if pass == 1 && (latText != nil || lonText != nil), let c = checkedCoordinate(lat: latText, lon: lonText) {
            addInline(c)
        }
    }

    private mutating func readMember(_ atts: Attributes) {
        var typeText: UnsafePointer<XML_Char>?
        var refText: UnsafePointer<XML_Char>?
        var role: UInt8 = 0
        var latText: UnsafePointer<XML_Char>?
        var lonText: UnsafePointer<XML_Char>?
        forEachAttribute(atts) { n, v in
            if equal(n, "type") { typeText = v }
            else if equal(n, "ref") { refText = v }
            else if equal(n, "role") { role = hasPrefix(v, "stop") || hasPrefix(v, "platform") ? 1 : 0 }
            else if equal(n, "lat") { latText = v }
            else if equal(n, "lon") { lonText = v }
        }
        guard let refText, let ref = OSMNumber.int64(refText) else {
            return fail("<member> ref '\(refText.map { String(cString: $0) } ?? "")' is not an integer", field: "ref")
        }
        let type: OSMElementType
        if let typeText, equal(typeText, "node") { type = .node }
        else if let typeText, equal(typeText, "way") { type = .way }
        else if let typeText, equal(typeText, "relation") { type = .relation }
        else { return fail("<member> type must be node, way or relation", field: "type") }
        members.append(OSMObjectRef(type: type, id: ref))
        memberRoles.append(role)
        if latText != nil || lonText != nil, let c = checkedCoordinate(lat: latText, lon: lonText) { addInline(c) }
    }

    private mutating func addInline(_ c: Coordinate) {
        inlineLat += c.lat
        inlineLon += c.lon
        inlineCount += 1
    }

    // MARK: end of an element

    mutating func finishFirstPass(_ type: OSMElementType) {
        switch type {
        case .node:
            if let c = coordinate, !neededNodes.isEmpty, neededNodes[currentID] != nil {
                neededNodes[currentID]!.coordinate = c
            }
            guard tags.mask != 0, tags.isStation else { return }
            guard let c = coordinate else {
                return warn("node/\(currentID): station without coordinates, skipped", line: line)
            }
            var s = newStation(.node)
            s.point = c
            stations.append(s)
        case .way:
            resolveNeededWay()
            guard tags.mask != 0, tags.isStation else { return }
            var s = newStation(.way)
            s.point = center ?? inlineMean
            if s.point == nil {
                s.wayNodes = openRing(refs)
                for n in s.wayNodes { need(node: n) }
            }
            stations.append(s)
        case .relation:
            finishRelation()
        }
    }

    mutating func finishLaterPass(_ type: OSMElementType) {
        switch type {
        case .node:
            if let c = coordinate { neededNodes[currentID]?.coordinate = c }
        case .way:
            if collectRefs { resolveNeededWay() }
        case .relation:
            break
        }
    }

    private mutating func resolveNeededWay() {
        guard !neededWays.isEmpty, neededWays[currentID].map({ $0.nodes == nil }) ?? false else { return }
        let nodes = openRing(refs)
        neededWays[currentID]!.nodes = nodes
        for n in nodes { need(node: n) }
    }

    private mutating func finishRelation() {
        guard tags.mask != 0 else { return }
        if tags.isRailRoute {
            var kept: [OSMObjectRef] = []
            for (i, m) in members.enumerated() where memberRoles[i] == 1 || m.type == .node { kept.append(m) }
            routes.append(OSMRoute(id: currentID, name: tags.string(.nameJa) ?? tags.string(.name),
                                   ref: tags.string(.ref), operators: tags.string(.operator)?.osmValues ?? [],
                                   isHighSpeed: tags.isHighSpeed, members: kept))
        } else if tags.isRailRouteMaster {
            routeMasters.append(OSMRouteMaster(name: tags.string(.nameJa) ?? tags.string(.name),
                                               operators: tags.string(.operator)?.osmValues ?? [],
                                               isHighSpeed: tags.isHighSpeed,
                                               routeIDs: members.filter { $0.type == .relation }.map(\.id)))
        }
        if tags.isStopArea {
            stopAreas.append(OSMStopArea(id: currentID, members: members))
        }
        if tags.isStation {
            var s = newStation(.relation)
            s.point = center ?? inlineMean
            if s.point == nil {
                s.members = members.filter { $0.type != .relation }
                for m in s.members {
                    if m.type == .node { need(node: m.id) } else if neededWays[m.id] == nil {
                        neededWays[m.id] = OSMNeededWay(nodes: nil, pass: pass)
                    }
                }
            }
            stations.append(s)
        }
    }

    private mutating func newStation(_ type: OSMElementType) -> OSMStationCandidate {
        if markedDeleted { stationsMarkedDeleted += 1 }
        let kana = tags.string(.nameJaHira) ?? tags.string(.nameJaKanaLegacy) ?? tags.string(.nameJaKana)
        // `name=氷川台 (Hikawadai)`: the name and, when no Latin tag gives one, the Latin name.
        let nameJa = tags.string(.nameJa)
        let name = nameJa == nil ? tags.string(.name) : nil
        // (A trimmed name of that shape ends in `)` or `）`, whose last byte is 0x89.)
        let split = name.flatMap { $0.utf8.last == 0x29 || $0.utf8.last == 0x89 ? OSMNames.splitLatin($0) : nil }
        let stationName = nameJa ?? split?.name ?? name
        return OSMStationCandidate(
            ref: OSMObjectRef(type: type, id: currentID),
            // Only warnings use the line: a station without name, or a way or relation whose
            // nodes may be missing (expat's line count rescans the text since the last call).
            line: stationName == nil || type != .node ? line : 0,
            name: stationName,
            reading: kana.map { TextFold.hiragana(TextFold.nfkc($0)) },
            latinName: tags.string(.nameJaLatn) ?? tags.string(.nameJaRm) ?? tags.string(.nameEn) ?? split?.latin,
            operators: (tags.string(.operator) ?? tags.string(.network) ?? tags.string(.ksj2OPC))?.osmValues ?? [],
            ksjLine: tags.string(.ksj2LIN))
    }

    private var inlineMean: Coordinate? {
        inlineCount == 0 ? nil : Coordinate(lat: inlineLat / Double(inlineCount), lon: inlineLon / Double(inlineCount))
    }

    private mutating func need(node id: Int64) {
        if neededNodes[id] == nil { neededNodes[id] = OSMNeededNode(coordinate: nil, pass: pass) }
    }

    /// A closed way's node list without the repeated first node.
    private func openRing(_ nodes: [Int64]) -> [Int64] {
        nodes.count > 1 && nodes.first == nodes.last ? Array(nodes.dropLast()) : nodes
    }

    // MARK: Overpass remarks

    private mutating func startRemark() {
        inRemark = true
        remarkText.removeAll()
        remarkLine = line
        remarkColumn = column
        guard let parser else { return }
        XML_SetCharacterDataHandler(parser) { userData, s, len in
            let scanner = userData!.assumingMemoryBound(to: OSMScanner.self)
            guard let s, scanner.pointee.remarkText.count < 4096 else { return }
            s.withMemoryRebound(to: UInt8.self, capacity: Int(len)) {
                scanner.pointee.remarkText.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(len)))
            }
        }
    }

    /// Overpass reports a failed query (timeout, out of memory) in `<remark>` after a partial
    /// result: that is an error, never an empty or partial import.
    private mutating func finishRemark() {
        inRemark = false
        if let parser { XML_SetCharacterDataHandler(parser, nil) }
        let text = String(decoding: remarkText, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.lowercased().contains("runtime error") {
            error = ImportError(file: file, line: remarkLine, column: remarkColumn, field: "remark",
                                message: "Overpass API reported an error, the result is incomplete: \(text)")
            halted = true
            if let parser { XML_StopParser(parser, 0) }
        } else if !text.isEmpty {
            warn("Overpass remark: \(text)", line: remarkLine)
        }
    }
}
