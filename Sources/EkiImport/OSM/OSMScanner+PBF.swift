import COsmium
import EkiKit

extension OSMScanner {
    /// Reads one element decoded from PBF (`OSMPBFImporter`) as the XML handlers read the same
    /// element: in pass 1 its tags, members and node list; in later passes only what a
    /// pending centroid needs. PBF has no Overpass centers, inline geometry or JOSM actions.
    /// Nodes without a position are read as in XML (no point); a position out of range or at
    /// (0, 0) fails as in XML, naming the element.
    mutating func read(_ e: cosm_element) {
        guard !halted else { return }
        if e.type == COSM_NODE && e.tag_count == 0 && pass == 1 {
            // Most nodes: no tags, so only the position check and a needed centroid node.
            guard e.has_location != 0 else { return }
            current = .node
            currentID = e.id
            guard let c = checkedCoordinate(lat: Double(e.y) / 1e7, lon: Double(e.x) / 1e7) else { return }
            if !neededNodes.isEmpty, neededNodes[e.id] != nil { neededNodes[e.id]!.coordinate = c }
            current = nil
            return
        }
        let type: OSMElementType
        switch e.type {
        case Int32(COSM_NODE): type = .node
        case Int32(COSM_WAY): type = .way
        default: type = .relation
        }
        beginElement(type)
        currentID = e.id
        switch type {
        case .node:
            if e.has_location != 0 && (pass == 1 || (neededNodes[e.id].map { $0.coordinate == nil } ?? false)) {
                // Units of 1e-7 degree: the quotient is the decimal the XML writer prints.
                coordinate = checkedCoordinate(lat: Double(e.y) / 1e7, lon: Double(e.x) / 1e7)
            }
        case .way:
            collectRefs = pass == 1 || (neededWays[e.id].map { $0.nodes == nil } ?? false)
            if collectRefs, e.ref_count > 0, let r = e.refs {
                refs.append(contentsOf: UnsafeBufferPointer(start: r, count: e.ref_count))
            }
        case .relation:
            if pass == 1 {
                for i in 0..<e.member_count {
                    let t: OSMElementType = e.member_types[i] == COSM_NODE ? .node : e.member_types[i] == COSM_WAY ? .way : .relation
                    members.append(OSMObjectRef(type: t, id: e.member_refs[i]))
                    let role = e.member_roles[i]!
                    memberRoles.append(hasPrefix(role, "stop") || hasPrefix(role, "platform") ? 1 : 0)
                }
            }
        }
        if pass == 1 {
            for i in 0..<e.tag_count {
                if let known = OSMKey.lookup(e.keys[i]!) { setTag(known, e.values[i]!) }
            }
        }
        guard !halted else { return }
        pass == 1 ? finishFirstPass(type) : finishLaterPass(type)
        current = nil
    }
}
