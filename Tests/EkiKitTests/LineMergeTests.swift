import Testing
@testable import EkiKit

/// `LineTable.merge`: a `part`'s order merged into a line's order.
@Suite struct LineMergeTests {
    /// Stations between two shared ones go between them; a run past the base's end extends it.
    @Test func sharedStationsInterleave() {
        // 東京(1) 四ツ谷(2) 新宿(3) 三鷹(4) 塩尻(9) with the 快速 東京 神田(5) 四ツ谷 新宿 中野(6) 三鷹.
        #expect(LineTable.merge([[1, 2, 3, 4, 9]], part: [1, 5, 2, 3, 6, 4]) == [[1, 5, 2, 3, 6, 4, 9]])
        // The part given the other way round merges the same.
        #expect(LineTable.merge([[1, 2, 3, 4, 9]], part: [4, 6, 3, 2, 5, 1]) == [[1, 5, 2, 3, 6, 4, 9]])
        // Past the base's last station: the base goes on.
        #expect(LineTable.merge([[1, 2, 3]], part: [2, 3, 7, 8]) == [[1, 2, 3, 7, 8]])
    }

    /// A run leaving the shared stretch where the base goes on is a branch; a part sharing one
    /// station or in another order joins end to end as before.
    @Test func branchesAndFallbacks() {
        #expect(LineTable.merge([[1, 2, 3, 4]], part: [1, 2, 7, 8]) == [[1, 2, 3, 4], [2, 7, 8]])
        #expect(LineTable.merge([[1, 2, 3]], part: [3, 7]) == [[1, 2, 3, 7]])
        #expect(LineTable.merge([[1, 2, 3, 4]], part: [3, 1, 2]) == [[1, 2, 3, 4], [3, 1, 2]])
    }
}
