import EkiKit
import Foundation

/// The EkiKit entry of each completion of a 降りつぶし file, or why there is none. A completion
/// is matched by its station row, in this order:
/// 1. **name**: entries whose name matches the row's (folded, `駅` dropped, as `eki visit add`
///    reads a name; closed entries included, a visit may predate a closure), of the row's class
///    (新幹線 when all its lines are, 在来線 when none is) and within `radius` of its point (in
///    its prefecture when it has no point); the one of the row's operator is the match;
/// 2. **former name**: else the one entry of the row's operator and class within
///    `renameRadius` that lists the name among its former names (梅田 → 大阪梅田);
/// 3. **same place**: else the one entry of the row's operator and class within
///    `placeRadius` (a station renamed where no source keeps its old name);
/// 4. **operator changed**: else the one same-named entry of another operator within
///    `placeRadius` (a station handed over: JR西日本 金沢 → IRいしかわ鉄道).
/// Two or more candidates at a step make the completion ambiguous (listed with the
/// candidates); none at every step, unmatched (with the reason). Nothing is guessed.
public struct OritsubushiMatch: Sendable {
    public enum How: String, Sendable {
        case name
        case operatorChanged = "operator changed"
        case formerName = "former name"
        case samePlace = "same place"
    }

    public struct Matched: Sendable {
        public var completion: OritsubushiFile.Completion
        public var station: Station
        public var how: How
    }

    public struct Ambiguous: Sendable {
        public var completion: OritsubushiFile.Completion
        public var candidates: [Station]
    }

    public struct Unmatched: Sendable {
        public var completion: OritsubushiFile.Completion
        public var reason: String
    }

    /// Metres from the row's point within which a same-named entry is the same station.
    public static let radius = 5_000.0
    /// Metres within which an entry listing the row's name as a former name is the station.
    public static let renameRadius = 1_000.0
    /// Metres within which the only entry of the row's operator and class is the station.
    public static let placeRadius = 300.0

    public private(set) var matched: [Matched] = []
    public private(set) var ambiguous: [Ambiguous] = []
    public private(set) var unmatched: [Unmatched] = []

    /// Matches every completion of `file` against `store` (read only).
    /// - Throws: `SQLiteError`.
    public init(_ file: OritsubushiFile, store: StationStore) throws {
        let table = try store.info.operatorTable()
        for c in file.completions {
            let opID = table.operatorID(for: c.operatorName)
            switch try Self.match(c, operatorID: opID, store: store) {
            case .matched(let s, let how): matched.append(Matched(completion: c, station: s, how: how))
            case .ambiguous(let list): ambiguous.append(Ambiguous(completion: c, candidates: list))
            case .unmatched(let why): unmatched.append(Unmatched(completion: c, reason: why))
            }
        }
    }

    enum Outcome {
        case matched(Station, How)
        case ambiguous([Station])
        case unmatched(String)
    }

    static func match(_ c: OritsubushiFile.Completion, operatorID: String?, store: StationStore) throws -> Outcome {
        let classOK = { (s: Station) in c.serviceClass == nil || s.serviceClass == c.serviceClass }
        let named = try StationQuery(text: c.name).candidates(in: store).filter { (s: Station) throws -> Bool in
            guard classOK(s) else { return false }
            if let p = c.coordinate { return try Geodesic.distance(p, s.coordinate) <= radius }
            return c.prefecture == nil || s.prefecture == c.prefecture
        }
        let own = operatorID.map { id in named.filter { $0.operatorID == id } } ?? []
        if own.count == 1 { return .matched(own[0], .name) }
        if own.count > 1 { return .ambiguous(own) }
        let place = c.coordinate != nil ? "within \(Int(radius / 1000)) km" : c.prefecture.map { "in \($0)" } ?? "anywhere"
        guard let p = c.coordinate else {
            return named.isEmpty ? .unmatched("no entry named \(c.name) \(place), and the row has no point to look further")
                : .ambiguous(named)
        }
        if let operatorID {
            let near = try store.spatial.nearest(to: p, k: 16, includeClosed: true).filter {
                $0.distance <= renameRadius && $0.station.operatorID == operatorID && $0.station.retired == nil && classOK($0.station)
            }
            let folded = TextFold.nameKey(Self.withoutEki(c.name))
            let former = near.filter { (d: StationDistance) in d.station.formerNames.contains { TextFold.nameKey($0) == folded } }
            if former.count == 1 { return .matched(former[0].station, .formerName) }
            let close = near.filter { $0.distance <= placeRadius }
            if close.count == 1 { return .matched(close[0].station, .samePlace) }
            if close.count > 1 { return .ambiguous(close.map(\.station)) }
        }
        let handedOver = try named.filter { (s: Station) throws -> Bool in try Geodesic.distance(p, s.coordinate) <= placeRadius }
        if handedOver.count == 1 { return .matched(handedOver[0], .operatorChanged) }
        if !named.isEmpty { return .ambiguous(named) }
        let op = operatorID == nil ? ", and its operator \(c.operatorName.map { "'\($0)'" } ?? "(none)") is not known"
            : ", and none of its operator within \(Int(placeRadius)) m"
        return .unmatched("no entry named \(c.name) \(place)" + op)
    }

    /// `東京駅` → `東京` (a name of one character is kept).
    static func withoutEki(_ name: String) -> String {
        name.count > 1 && name.hasSuffix("駅") ? String(name.dropLast()) : name
    }

    /// The visits of the matched completions: the entry's key, the completion's date, its memo
    /// as the note, no kind (a completion says the person got on or off there).
    public var visits: [Visit] {
        matched.map { Visit(stationKey: $0.station.key, date: $0.completion.date, note: $0.completion.memo) }
    }

    /// The ambiguous and unmatched completions as orphaned visits, nothing of the person's
    /// record dropped: keyed `oritsubushi/S_ID/NAME` (a key no entry has, so `eki visit check`
    /// lists them), with their dates and memos.
    public var orphanVisits: [Visit] {
        let rest = ambiguous.map(\.completion) + unmatched.map(\.completion)
        return rest.sorted { $0.stationID < $1.stationID }.map {
            Visit(stationKey: "oritsubushi/\($0.stationID)/\($0.name)", date: $0.date, note: $0.memo)
        }
    }
}
