import EkiKit

extension GTFS {
    /// The order of stations along a feed's routes, from the stop patterns of its trips
    /// (stop_times.txt `stop_sequence`, GTFS reference: "values must increase along the trip").
    ///
    /// A trip's pattern is the names of the places it calls at, in stop_sequence order (a
    /// place is a stop's parent station, or the stop; names, not stop_ids, so that the poles
    /// of one station per direction, `10_01` and `10_02`, are one node — as `EntryRule` joins
    /// them). Per route, the distinct patterns (a pattern and its reverse are one):
    /// - the longest (most distinct places; then most trips; then first seen) is the route's
    ///   main sequence;
    /// - every other pattern adds a branch only where it calls at places the main sequence
    ///   and earlier branches lack (short workings, 平石 turn-backs, are subsets and add none).
    ///
    /// The main sequences of all routes of one agency × service class are merged into one
    /// order (so that a station on two routes, 三宮 on 空港線 and ループ線, has one position
    /// consistent with both): routes by trip count, then routes.txt order; a route's sequence is
    /// turned round when it runs against the order so far, and each place it adds is placed
    /// right after its predecessor on the route (before its successor when it has none).
    /// Places a pattern visits twice (a racket loop back to 三宮) keep their first position.
    /// Branch places get positions from `SourceRecord.lineOrderBranchStep × n` on (n = 1, 2, …
    /// per branch), so that readers of the order keep them as separate sequences.
    struct TripPatterns {
        /// Key of a position: agency index (-1 when unknown), class, place name.
        struct Node: Hashable {
            var agency: Int
            var shinkansen: Bool
            var name: String
        }

        /// The position of every node along its agency × class order.
        var order: [Node: Int] = [:]

        static let file = "stop_times.txt"

        /// Streams stop_times.txt a second time, keeping each selected trip's (stop_sequence,
        /// place) pairs (memory: one pair per row of the selected routes' trips).
        /// - Returns: nil, with a warning, when the file has no stop_sequence column (the feed
        ///   gives no order; nothing else changes).
        /// - Throws: `ImportError` as the first pass (`StopTime.routesByStop`) would.
        static func read(from feed: FeedSource, stops: [Stop], stopIndex: [String: Int],
                         routes: [Route], routeIndexByTrip: [String: Int32], agencyOfRoute: [Int?],
                         include: (Route) -> Bool, warnings: inout WarningList) throws(ImportError) -> TripPatterns? {
            var reader = try FeedTableReader(feed: feed, name: file, required: StopTime.required)
            guard let seqColumn = reader.column("stop_sequence") else {
                reader.finish(into: &warnings)
                warnings.append(ImportWarning(file: reader.file, field: "stop_sequence",
                                              message: "no stop_sequence column: stations are not ordered along their lines"))
                return nil
            }
            let tripColumn = reader.column("trip_id")!
            let stopColumn = reader.column("stop_id")!
            var calls: [String: [(seq: Int, place: Int)]] = [:]
            var lastTrip = "", lastRoute: Int32 = -1
            var scratch = WarningList()
            while let row = try reader.next() {
                let trip = row.text(tripColumn)
                if trip != lastTrip { lastTrip = trip; lastRoute = routeIndexByTrip[trip] ?? -1 }
                guard lastRoute >= 0, include(routes[Int(lastRoute)]),
                      let s = stopIndex[row.text(stopColumn)], let seq = Int(row.text(seqColumn)) else { continue }
                var place = s
                if let p = stopIndex[stops[s].parentId], stops[p].locationType == 1 { place = p }
                calls[trip, default: []].append((seq, place))
            }
            reader.finish(into: &scratch)           // the first pass reported the same rows
            // Distinct patterns per route, with their trip counts, in first-seen order.
            var patterns: [Int32: [(names: [String], trips: Int)]] = [:]
            var tripsOfRoute: [Int32: Int] = [:]
            for (trip, c) in calls.sorted(by: { $0.key < $1.key }) {
                let r = routeIndexByTrip[trip]!
                let names = c.sorted { $0.seq < $1.seq }.map { stops[$0.place].name }
                tripsOfRoute[r, default: 0] += 1
                if let i = patterns[r]?.firstIndex(where: { $0.names == names || $0.names == names.reversed() }) {
                    patterns[r]![i].trips += 1
                } else {
                    patterns[r, default: []].append((names, 1))
                }
            }
            var result = TripPatterns()
            var lists: [String: [String]] = [:]       // agency × class → names in order
            var branches: [String: Int] = [:]         // agency × class → branches so far
            let routeOrder = patterns.keys.sorted { (tripsOfRoute[$0]!, -$0) > (tripsOfRoute[$1]!, -$1) }
            for r in routeOrder {
                let agency = agencyOfRoute[Int(r)] ?? -1
                let shinkansen = routes[Int(r)].isShinkansen
                let group = "\(agency)/\(shinkansen)"
                let ranked = patterns[r]!.enumerated().sorted {
                    (Set($0.element.names).count, $0.element.trips, -$0.offset) > (Set($1.element.names).count, $1.element.trips, -$1.offset)
                }.map(\.element.names)
                lists[group] = merge(ranked[0], into: lists[group] ?? [])
                var known = Set(lists[group]!)
                for p in ranked.dropFirst() {
                    let added = distinct(p).filter { !known.contains($0) }
                    guard !added.isEmpty else { continue }
                    branches[group, default: 0] += 1
                    for (i, name) in added.enumerated() {
                        result.order[Node(agency: agency, shinkansen: shinkansen, name: name)] =
                            SourceRecord.lineOrderBranchStep * branches[group]! + i
                        known.insert(name)
                    }
                }
            }
            for (group, names) in lists {
                let parts = group.split(separator: "/")
                let agency = Int(parts[0])!, shinkansen = parts[1] == "true"
                for (i, name) in names.enumerated() { result.order[Node(agency: agency, shinkansen: shinkansen, name: name)] = i }
            }
            return result
        }

        /// `names` without repeats, first occurrence kept.
        static func distinct(_ names: [String]) -> [String] {
            var seen = Set<String>()
            return names.filter { seen.insert($0).inserted }
        }

        /// `sequence` merged into `list` as described on the type.
        static func merge(_ sequence: [String], into list: [String]) -> [String] {
            var seq = distinct(sequence)
            var list = list
            let before = Dictionary(uniqueKeysWithValues: list.enumerated().map { ($1, $0) })
            let known = seq.compactMap { before[$0] }
            let backwards = zip(known, known.dropFirst()).filter { $0 > $1 }.count
            if 2 * backwards > max(known.count - 1, 0) { seq.reverse() }
            for (i, name) in seq.enumerated() where !list.contains(name) {
                if i > 0, let p = list.firstIndex(of: seq[i - 1]) {
                    list.insert(name, at: p + 1)
                } else if let next = seq[(i + 1)...].first(where: { list.contains($0) }), let n = list.firstIndex(of: next) {
                    list.insert(name, at: n)
                } else {
                    list.append(name)
                }
            }
            return list
        }
    }
}
