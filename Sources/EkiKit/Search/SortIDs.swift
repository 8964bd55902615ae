/// The sort id (`search_entry.sid`) of each entry to index, by `fid`: a dictionary for entries
/// placed between indexed ones, an array over the fids' range when every entry is numbered
/// afresh (8 bytes per fid instead of about 40 in a dictionary: 8 MB rather than 40 MB at 1M
/// entries, whose fids are dense).
struct SortIDs {
    private var map: [Int64: Int64] = [:]
    private var base: Int64 = 0
    private var dense: [Int64] = []

    /// No ids yet (entries placed one by one with the subscript).
    init() {}

    /// Ids `SearchIndex.sidSpacing` × 1, 2, 3… for `new` in its order (sort-key order). Uses
    /// an array when the fids span at most 4 × their count, else a dictionary.
    init(numbering new: [(key: String, fid: Int64)]) {
        guard let low = new.lazy.map(\.fid).min(), let high = new.lazy.map(\.fid).max() else { return }
        if high - low < Int64(new.count) * 4 {
            base = low
            dense = Array(repeating: 0, count: Int(high - low + 1))
            for (k, e) in new.enumerated() { dense[Int(e.fid - low)] = SearchIndex.sidSpacing * Int64(k + 1) }
        } else {
            map.reserveCapacity(new.count)
            for (k, e) in new.enumerated() { map[e.fid] = SearchIndex.sidSpacing * Int64(k + 1) }
        }
    }

    /// The sort id of entry `fid`; 0 for an entry without one (sort ids start at
    /// `SearchIndex.sidSpacing`, so 0 is never a placed entry's).
    subscript(fid: Int64) -> Int64 {
        get {
            if !dense.isEmpty {
                let i = fid - base
                return i >= 0 && i < Int64(dense.count) ? dense[Int(i)] : 0
            }
            return map[fid] ?? 0
        }
        set {
            precondition(dense.isEmpty, "SortIDs: entries are placed one by one only in the dictionary form")
            map[fid] = newValue
        }
    }
}
