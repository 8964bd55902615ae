import Testing
import EkiKit

/// The one CSV field writer, and the reader reading back what it writes.
@Suite struct CSVWriterTests {
    @Test("fields are quoted only when they hold a comma, a quote, CR or LF")
    func quoting() {
        #expect(CSVWriter.field("小田原") == "小田原")
        #expect(CSVWriter.field("a,b") == "\"a,b\"")
        #expect(CSVWriter.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVWriter.field("two\nlines") == "\"two\nlines\"")
        #expect(CSVWriter.field("crlf\r\nline") == "\"crlf\r\nline\"")
        #expect(CSVWriter.field("") == "")
        #expect(CSVWriter.record(["1", "a,b", ""]) == "1,\"a,b\",\r\n")
    }

    @Test("what the writer writes, the reader reads back field for field")
    func roundTrip() throws {
        let records = [["id", "note"], ["1", "踊り子, 小田原 \"まで\""], ["2", "crlf\r\ninside"], ["3", ""]]
        var reader = CSVReader(bytes: Array(records.map(CSVWriter.record).joined().utf8), file: "t.csv", strictQuotes: true)
        var back: [[String]] = []
        while let r = try reader.nextRecord() { back.append(r) }
        #expect(back == records)
    }

    @Test("strict quotes: a quote inside an unquoted field is an error naming line and field")
    func strictQuotes() throws {
        var lenient = CSVReader(bytes: Array("a,b\"c\n".utf8), file: "t.csv")
        #expect(try lenient.nextRecord() == ["a", "b\"c"])
        var strict = CSVReader(bytes: Array("x\na,b\"c\n".utf8), file: "t.csv", strictQuotes: true)
        #expect(throws: CSVError(file: "t.csv", line: 2, column: 2,
                                 message: "stray quote inside an unquoted field (quote the whole field and double the quote)")) {
            while try strict.nextRecord() != nil {}
        }
    }
}
