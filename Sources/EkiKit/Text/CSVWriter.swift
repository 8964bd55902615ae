/// The one CSV field writer (RFC 4180), for every CSV EkiKit and `eki` write: a field holding a
/// comma, a quote, CR or LF is quoted with its quotes doubled; any other field is written as
/// is. Records end with CRLF. `CSVReader` reads what it writes back to the same fields.
public enum CSVWriter {
    /// `s` as one CSV field.
    public static func field(_ s: String) -> String {
        s.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D })
            ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    /// One record: the fields, quoted where needed, joined by commas, then CRLF.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }
}
