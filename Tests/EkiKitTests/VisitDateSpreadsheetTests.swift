import Testing
import EkiKit

/// Dates as a spreadsheet saves them (a visit export opened and saved again).
@Suite struct VisitDateSpreadsheetTests {
    @Test(arguments: [
        ("2019/8/13", "2019-08-13"), ("2019/08/13", "2019-08-13"), ("2019/8", "2019-08"),
        ("2019年8月13日", "2019-08-13"), ("2019年8月", "2019-08"), ("2019年", "2019"),
        ("２０１９年８月１３日", "2019-08-13"), ("２０１９/８/１３", "2019-08-13"),
        ("2019-08-13", "2019-08-13"), (" 2019/12/31 ", "2019-12-31"),
    ])
    func readsSpreadsheetDates(text: String, expected: String) throws {
        #expect(try VisitDate(parsing: text).text == expected)
    }

    @Test(arguments: [
        ("2019/2/30", "invalid date '2019/2/30': no such date"),
        ("2019/13", "invalid date '2019/13': no such date"),
        ("19/8/13", "invalid date '19/8/13': expected YYYY/M/D or YYYY/M"),
        ("2019/8/13/1", "invalid date '2019/8/13/1': expected YYYY/M/D or YYYY/M"),
        ("2019年8", "invalid date '2019年8': expected YYYY年, YYYY年M月 or YYYY年M月D日"),
        ("2019年8月13", "invalid date '2019年8月13': expected YYYY年, YYYY年M月 or YYYY年M月D日"),
        ("2019年13月", "invalid date '2019年13月': no such date"),
        ("2019-8-13", "invalid date '2019-8-13': expected YYYY, YYYY-MM or YYYY-MM-DD"),
    ])
    func refusesOthers(text: String, expected: String) {
        do {
            _ = try VisitDate(parsing: text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.description == expected)
        }
    }
}
