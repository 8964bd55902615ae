import EkiKit
import Foundation

/// The three OSM element types, in the order OSM files sort them.
enum OSMElementType: UInt8, Comparable {
    case node = 0, way = 1, relation = 2

    var text: String {
        switch self {
        case .node: "node"
        case .way: "way"
        case .relation: "relation"
        }
    }

    static func < (a: OSMElementType, b: OSMElementType) -> Bool { a.rawValue < b.rawValue }
}

/// A typed OSM id: `node/123`, `way/-5`, `relation/42`.
struct OSMObjectRef: Hashable, CustomStringConvertible {
    var type: OSMElementType
    var id: Int64
    var description: String { "\(type.text)/\(id)" }
}

/// A station element as read in the first pass: its names and where its point comes from.
struct OSMStationCandidate {
    var ref: OSMObjectRef
    /// Line of the element's start tag, for warnings.
    var line: Int
    /// `name:ja` ?? `name`.
    var name: String?
    var reading: String?
    var latinName: String?
    /// From `operator` (or else `network`, else `KSJ2:OPC`), split at `;`.
    var operators: [String]
    /// `KSJ2:LIN`: the line of a station imported from 国土数値情報, used when no route
    /// relation gives one.
    var ksjLine: String? = nil
    /// A node's position, an Overpass `<center>`, or the mean of inline geometry.
    var point: Coordinate?
    /// A way's node ids (closing node dropped), for the centroid.
    var wayNodes: [Int64] = []
    /// A relation's node and way members, for the centroid.
    var members: [OSMObjectRef] = []
}

/// A `type=route` railway relation: its line, operators, class and the members that can tie
/// it to stations (roles `stop*` and `platform*`, and nodes with any role).
struct OSMRoute {
    var id: Int64
    var name: String?
    var ref: String?
    var operators: [String]
    var isHighSpeed: Bool
    var members: [OSMObjectRef]
}

/// A `type=route_master` railway relation: name, operators and class shared by its routes.
struct OSMRouteMaster {
    var name: String?
    var operators: [String]
    var isHighSpeed: Bool
    var routeIDs: [Int64]
}

/// A `public_transport=stop_area` relation: a station with its platforms and stop positions.
struct OSMStopArea {
    var id: Int64
    var members: [OSMObjectRef]
}

/// A node whose coordinate a station's centroid needs; `pass` is the pass that asked for it.
struct OSMNeededNode {
    var coordinate: Coordinate?
    var pass: Int
}

/// A way whose node list a relation station's centroid needs.
struct OSMNeededWay {
    var nodes: [Int64]?
    var pass: Int
}

extension String {
    /// `a; b ;;c` → `["a", "b", "c"]`: an OSM multi-value tag, trimmed, without empty or
    /// repeated parts.
    var osmValues: [String] {
        // One value with nothing to trim (starts and ends with visible ASCII, no `;`).
        let u = utf8
        if let f = u.first, let l = u.last, f > 0x20 && f < 0x7F && l > 0x20 && l < 0x7F, !u.contains(0x3B) {
            return [self]
        }
        var out: [String] = []
        for part in split(separator: ";") {
            let t = part.trimmingCharacters(in: .whitespaces)
            if !t.isEmpty && !out.contains(t) { out.append(t) }
        }
        return out
    }
}

/// Names as mapped in Japan.
enum OSMNames {
    /// `氷川台 (Hikawadai)` → (氷川台, Hikawadai): a Japanese name followed by its romanization
    /// in ASCII parentheses (half- or full-width), as many stations imported before `name:en`
    /// was used are tagged. nil when the name is not of that shape (no parentheses, nothing
    /// Japanese before them, or anything but Latin letters, spaces, `-`, `'`, `.` and macron
    /// vowels inside).
    static func splitLatin(_ name: String) -> (name: String, latin: String)? {
        let t = name.trimmingCharacters(in: .whitespaces)
        guard t.hasSuffix(")") || t.hasSuffix("）"),
              let open = t.lastIndex(where: { $0 == "(" || $0 == "（" }) else { return nil }
        let head = t[..<open].trimmingCharacters(in: .whitespaces)
        let inner = t[t.index(after: open)..<t.index(before: t.endIndex)].trimmingCharacters(in: .whitespaces)
        guard !head.isEmpty, TextFold.isJapanese(head), inner.contains(where: \.isLetter),
              inner.unicodeScalars.allSatisfy({ u in
                  (0x41...0x5A).contains(u.value) || (0x61...0x7A).contains(u.value) || " -'.".unicodeScalars.contains(u)
                      || "āīūēōĀĪŪĒŌâîûêô".unicodeScalars.contains(u)
              }) else { return nil }
        return (head, inner)
    }
}
