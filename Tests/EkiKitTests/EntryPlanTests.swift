import Testing
@testable import EkiKit

/// The pure step of an import (`EntryPlan`) and the one single-link clustering, without a store.
struct EntryPlanTests {
    static let tokyo = Coordinate(lat: 35.68, lon: 139.76)      // geohash xn7…
    static let osaka = Coordinate(lat: 34.69, lon: 135.50)      // geohash xn0…

    static func station(_ name: String, at c: Coordinate, sources: [String], key: String = "",
                        retired: String? = nil) -> Station {
        Station(key: key, name: name, reading: nil, latinName: nil, operatorName: "OP", operatorRef: nil,
                serviceClass: .conventional, lines: ["L"], prefecture: nil, coordinate: c,
                sources: sources.map { SourceRef(dataset: "d", id: $0) }, isOpen: retired == nil,
                retired: retired, operatorID: "op")
    }

    static func cluster(_ name: String, at c: Coordinate, sources: [String]) -> EntryRule.Cluster {
        EntryRule.Cluster(baseKey: "op/c/\(name)", station: station(name, at: c, sources: sources))
    }

    @Test func singleLinkChainsAndKeepsFirstAppearanceOrder() {
        // 0–2 and 2–3 about 1.1 km apart (0–3 about 2.2 km): one chain; 1 is 45 km off.
        let points = [Coordinate(lat: 35.0, lon: 139.0), Coordinate(lat: 35.0, lon: 139.5),
                      Coordinate(lat: 35.01, lon: 139.0), Coordinate(lat: 35.02, lon: 139.0)]
        #expect(SingleLink.clusters(points, within: 1_500) == [[0, 2, 3], [1]])
        #expect(SingleLink.clusters(points, within: 1_000) == [[0], [1], [2], [3]])
        #expect(SingleLink.clusters([], within: 1_500).isEmpty)
    }

    @Test func newEntriesOfOneBaseAreQualifiedByPlace() {
        let plan = EntryPlan(clusters: [Self.cluster("x", at: Self.osaka, sources: ["1"]),
                                        Self.cluster("x", at: Self.tokyo, sources: ["2"]),
                                        Self.cluster("y", at: Self.tokyo, sources: ["3"])],
                             stored: [], aliases: [], linkDistance: 1_500)
        #expect(plan.entries.map(\.key) == ["op/c/x@xn0", "op/c/x@xn7", "op/c/y"])
        #expect(plan.entries.allSatisfy { $0.continues == nil && $0.changed })
        #expect(plan.leftovers.isEmpty)
        #expect(plan.changedRows == 3 && plan.totalRows == 3)
    }

    @Test func aliasesAreNeverGivenToNewEntries() {
        let plan = EntryPlan(clusters: [Self.cluster("y", at: Self.tokyo, sources: ["3"])],
                             stored: [], aliases: ["op/c/y"], linkDistance: 1_500)
        #expect(plan.entries.map(\.key) == ["op/c/y@xn7"])
    }

    @Test func sharedRowsKeepTheKeyAndAPlainKeyIsRenamedWhenItsBaseIsShared() {
        let old = EntryPlan.Stored(fid: 7, key: "op/c/x", baseKey: "op/c/x",
                                   station: Self.station("x", at: Self.tokyo, sources: ["1"], key: "op/c/x"))
        let plan = EntryPlan(clusters: [Self.cluster("x", at: Self.osaka, sources: ["9"]),
                                        Self.cluster("x", at: Self.tokyo, sources: ["1"])],
                             stored: [old], aliases: [], linkDistance: 1_500)
        #expect(plan.entries.map(\.key) == ["op/c/x@xn0", "op/c/x@xn7"])
        #expect(plan.entries[1].continues == 0)
        #expect(plan.entries[1].renamedFrom == "op/c/x")
        #expect(plan.entries[1].changed)
        #expect(plan.leftovers.isEmpty)
    }

    @Test func anEntryTakingTwoOldOnesMergesTheYoungerAndOldNamesAreKept() {
        let a = EntryPlan.Stored(fid: 1, key: "op/c/x", baseKey: "op/c/x",
                                 station: Self.station("x", at: Self.tokyo, sources: ["1"], key: "op/c/x"))
        let b = EntryPlan.Stored(fid: 2, key: "op/c/x2", baseKey: "op/c/x2",
                                 station: Self.station("x2", at: Self.tokyo, sources: ["2"], key: "op/c/x2"))
        let plan = EntryPlan(clusters: [Self.cluster("x", at: Self.tokyo, sources: ["1", "2"])],
                             stored: [a, b], aliases: [], linkDistance: 1_500)
        #expect(plan.entries.count == 1)
        #expect(plan.entries[0].continues == 0)
        #expect(plan.entries[0].key == "op/c/x")
        #expect(plan.leftovers == [.merge(stored: 1, into: "op/c/x")])
    }

    @Test func aRenamedStationKeepsItsKeyAndFormerName() {
        let old = EntryPlan.Stored(fid: 3, key: "op/c/old", baseKey: "op/c/old",
                                   station: Self.station("old", at: Self.tokyo, sources: ["1"], key: "op/c/old"))
        let plan = EntryPlan(clusters: [Self.cluster("new", at: Self.tokyo, sources: ["1"])],
                             stored: [old], aliases: [], linkDistance: 1_500)
        #expect(plan.entries[0].key == "op/c/old")
        #expect(plan.entries[0].formerNames == ["old"])
        #expect(plan.leftovers.isEmpty)
    }

    @Test func entriesWithoutRowsAreRetiredOnce() {
        let open = EntryPlan.Stored(fid: 1, key: "op/c/a", baseKey: "op/c/a",
                                    station: Self.station("a", at: Self.tokyo, sources: ["1"], key: "op/c/a"))
        let gone = EntryPlan.Stored(fid: 2, key: "op/c/b", baseKey: "op/c/b",
                                    station: Self.station("b", at: Self.osaka, sources: ["2"], key: "op/c/b",
                                                          retired: "2024-01-01"))
        let plan = EntryPlan(clusters: [], stored: [open, gone], aliases: [], linkDistance: 1_500)
        #expect(plan.entries.isEmpty)
        #expect(plan.leftovers == [.retire(stored: 0)])
        #expect(plan.unclaimed == 2)
    }

    @Test func baseRunsPlannedOneAfterAnotherGetTheKeysOfOnePlan() {
        // `x` in two places takes `op/c/x@xn7`; the base `op/c/x@xn7` (a name with `@`) comes
        // later and must not take it again; `y` is alone.
        let clusters = [Self.cluster("x", at: Self.osaka, sources: ["1"]),
                        Self.cluster("x", at: Self.tokyo, sources: ["2"]),
                        Self.cluster("x@xn7", at: Self.tokyo, sources: ["3"]),
                        Self.cluster("y", at: Self.tokyo, sources: ["4"])]
        let whole = EntryPlan(clusters: clusters, stored: [], aliases: ["op/c/y"], linkDistance: 1_500)
        var taken: Set<String> = ["op/c/y"]
        var keys: [String] = []
        for run in [0..<2, 2..<3, 3..<4] {
            let plan = EntryPlan(clusters: Array(clusters[run]), stored: [], taken: &taken, linkDistance: 1_500)
            keys += plan.entries.map(\.key)
        }
        #expect(keys == whole.entries.map(\.key))
        #expect(Set(keys).count == 4)
        #expect(keys[1] == "op/c/x@xn7" && keys[2] != "op/c/x@xn7")
        #expect(keys[3] == "op/c/y@xn7")
    }

    @Test func baseRunsAreTheClustersWithTheirRows() {
        func row(_ id: String, _ name: String, _ c: Coordinate) -> SourceRecord {
            SourceRecord(source: SourceRef(dataset: "d", id: id), name: name, operatorName: "OP",
                         serviceClass: .conventional, lines: ["L"], coordinate: c)
        }
        let near = Coordinate(lat: 35.685, lon: 139.76)
        let segments = [[row("1", "x", Self.osaka), row("2", "x", Self.tokyo), row("3", "y", Self.tokyo)],
                        [row("4", "x", near), row("5", "x", Self.osaka)]]
        let rule = EntryRule()
        var runs: [[EntryRule.Cluster]] = []
        rule.forEachBaseRun(segments) { run, rows in
            runs.append(run)
            #expect(rows.count == run.count)
            for (c, r) in zip(run, rows) {
                #expect(r.map { segments[Int($0.set)][Int($0.index)].source }.sorted() == c.station.sources)
            }
        }
        let all = rule.clusters(from: segments[0] + segments[1])
        #expect(runs.count == 2)
        #expect(runs.flatMap { $0 }.map(\.station.sources) == all.map(\.station.sources))
        #expect(runs.flatMap { $0 }.map(\.baseKey) == all.map(\.baseKey))
        #expect(runs[0].map { $0.station.sources.map(\.id) } == [["1", "5"], ["2", "4"]])
    }
}
