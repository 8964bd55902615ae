extension LineTable {
    /// A `part`'s sequence (`LineDefinitions`) merged into a line's sequences: when it shares 2
    /// or more stations with one of them in the same order (or the reverse), its other stations
    /// go between the shared ones they lie between (中央線快速's 神田, 中野 … into the
    /// 中央本線's 東京–四ツ谷–新宿–吉祥寺 order); what runs on past an end of the shared stretch
    /// that is not the sequence's end is a branch from its last shared station. A part sharing
    /// fewer stations joins end to end (`join`), as a branch where it does not meet an end.
    static func merge(_ sequences: [[Int64]], part: [Int64]) -> [[Int64]] {
        for (i, base) in sequences.enumerated() {
            guard let merged = merge(base, part) ?? merge(base, part.reversed()) else { continue }
            var out = sequences
            out[i] = merged.sequence
            return join(out + merged.branches)
        }
        return join(sequences + [part])
    }

    /// `part` merged into `base` when their shared stations (2 or more) come in the same order.
    private static func merge(_ base: [Int64], _ part: [Int64]) -> (sequence: [Int64], branches: [[Int64]])? {
        var index: [Int64: Int] = [:]
        for (i, f) in base.enumerated() { index[f] = i }
        let anchors = part.indices.filter { index[part[$0]] != nil }
        guard anchors.count >= 2,
              zip(anchors, anchors.dropFirst()).allSatisfy({ index[part[$0]]! < index[part[$1]]! }) else { return nil }
        var after: [Int64: [Int64]] = [:]
        for (a, b) in zip(anchors, anchors.dropFirst()) where b > a + 1 { after[part[a]] = Array(part[(a + 1)..<b]) }
        var branches: [[Int64]] = []
        var head: [Int64] = [], tail: [Int64] = []
        let first = anchors[0], last = anchors[anchors.count - 1]
        if first > 0 {
            let run = Array(part[..<first])
            if index[part[first]] == 0 { head = run } else { branches.append(run + [part[first]]) }
        }
        if last < part.count - 1 {
            let run = Array(part[(last + 1)...])
            if index[part[last]] == base.count - 1 { tail = run } else { branches.append([part[last]] + run) }
        }
        var sequence = head
        for f in base { sequence.append(f); sequence += after[f] ?? [] }
        return (sequence + tail, branches)
    }

    /// Sequences meeting end to end joined (the later one turned round when needed), in order.
    static func join(_ input: [[Int64]]) -> [[Int64]] {
        var seqs = input
        var changed = true
        while changed {
            changed = false
            outer: for i in seqs.indices {
                for j in seqs.indices where j != i {
                    let a = seqs[i], b = seqs[j]
                    var joined: [Int64]?
                    if a.last == b.first { joined = a + b.dropFirst() }
                    else if a.last == b.last { joined = a + b.reversed().dropFirst() }
                    else if a.first == b.last { joined = b + a.dropFirst() }
                    else if a.first == b.first, a.count > 1, b.count > 1 { joined = a.reversed() + b.dropFirst() }
                    guard let joined else { continue }
                    seqs[min(i, j)] = joined
                    seqs.remove(at: max(i, j))
                    changed = true
                    break outer
                }
            }
        }
        return seqs
    }
}
