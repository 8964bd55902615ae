import EkiKit

/// The bounds one CSV record is read within, in bytes of the file as stored (UTF-8 or CP932),
/// so that no input can make a reader hold more than about one record in memory: a field longer than `maxFieldBytes` or a record (a line, or
/// several when a quoted field holds line breaks) longer than `maxLineBytes` stops the read
/// where the limit is passed, before the rest of it is read.
public struct CSVLimits: Sendable, Equatable {
    /// The longest field, in bytes (`--max-field-bytes`; 1 MiB by default).
    public var maxFieldBytes: Int
    /// The longest record, in bytes, line break included (`--max-line-bytes`; 16 MiB by default).
    public var maxLineBytes: Int

    /// 16 MiB: far above any real station table's or GTFS file's line.
    public static let defaultMaxLineBytes = 16 << 20

    public init(maxFieldBytes: Int = CSVReader.defaultMaxFieldBytes, maxLineBytes: Int = CSVLimits.defaultMaxLineBytes) {
        self.maxFieldBytes = maxFieldBytes
        self.maxLineBytes = maxLineBytes
    }
}

/// Cuts a byte stream into parts that hold whole CSV records: each part but the last ends just
/// after a line break (LF, CRLF or a lone CR) outside quotes. It follows `CSVReader`'s syntax
/// (a quote opens a quoted field only at the start of a field, after optional blanks; `""`
/// inside one is a quote), so a stray quote inside an unquoted field does not throw it off.
///
/// It enforces `CSVLimits` while it reads: a field or record over its limit throws an
/// `ImportError` naming the file, the line, the field (number and, once `header` is set, name),
/// the limit and the flag that raises it; the bytes beyond are never buffered. Text encodings
/// whose multi-byte characters never contain the bytes `"` `,` CR LF (UTF-8, CP932) are cut
/// safely.
struct RecordSplitter {
    /// The file name used in errors.
    var file: String
    var limits: CSVLimits
    /// The header's column names, for naming the field in errors; taken from the first
    /// record (read as UTF-8) unless set before it ends.
    var header: [String]? = nil
    /// The first record's bytes while it is being read.
    private var headerBytes: [UInt8]? = []

    private enum State: UInt8 { case fieldStart, unquoted, quoted, quoteInQuoted, afterQuote }
    private var state = State.fieldStart
    /// A CR outside quotes was the last byte seen: the record ended, and an LF right after it
    /// belongs to the same line break.
    private var afterCR = false
    /// A CR inside quotes was the last byte seen: one line break, with an LF right after it.
    private var crInQuotes = false
    private var pending: [UInt8] = []
    /// Lines completed in `pending` and in the part being returned.
    private var pendingLines = 0
    private var linesInPart = 0
    /// 1-based line at which the next part starts.
    private(set) var line = 1
    // The record and field being read.
    private var recordBytes = 0
    private var fieldNumber = 1
    private var fieldBytes = 0
    private var blanks = 0
    private var fieldLine = 1

    init(file: String = "", limits: CSVLimits = CSVLimits()) {
        self.file = file
        self.limits = limits
    }

    /// Adds bytes; returns the whole records completed so far (empty when none).
    /// - Throws: `ImportError` when a field or record passes its limit.
    mutating func add(_ data: [UInt8]) throws(ImportError) -> [UInt8] {
        var take = -1           // bytes of `data` that go into the part; -1: no record ended
        var linesAtCut = 0
        var lines = 0
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
        var failure: ImportError? = nil
        data.withUnsafeBufferPointer { buf in
            var i = 0
            let n = buf.count
            while i < n {
                // Inside an unquoted field (past the header): the bytes up to the next comma or
                // line break only count towards the limits, so they are taken at once, up to
                // where a limit would be passed (the byte loop below then reports it).
                if state == .unquoted && !afterCR && !crInQuotes && headerBytes == nil {
                    var j = i
                    while j < n { let c = buf[j]; if c == comma || c == 0x0A || c == 0x0D { break }; j += 1 }
                    let take = min(j - i, limits.maxLineBytes - recordBytes, limits.maxFieldBytes - fieldBytes)
                    if take > 0 {
                        recordBytes += take
                        fieldBytes += take
                        i += take
                        continue
                    }
                }
                let b = buf[i]
                if afterCR {
                    afterCR = false
                    lines += 1
                    if b == 0x0A {
                        take = i + 1; linesAtCut = lines
                        i += 1
                        continue
                    }
                    // A lone CR: the line ended before this byte.
                    take = i; linesAtCut = lines
                }
                if crInQuotes {
                    crInQuotes = false
                    if b != 0x0A { lines += 1 }
                }
                recordBytes += 1
                if headerBytes != nil && b != 0x0A && b != 0x0D { headerBytes!.append(b) }
                if recordBytes > limits.maxLineBytes {
                    failure = error(line: self.line + pendingLines + lines, "line is longer than the limit of \(limits.maxLineBytes) bytes (--max-line-bytes N raises it)")
                    return
                }
                switch state {
                case .fieldStart, .unquoted, .afterQuote:
                    if b == comma {
                        state = .fieldStart; fieldNumber += 1; fieldBytes = 0; blanks = 0
                    } else if b == 0x0A || b == 0x0D {
                        endRecord()
                        if b == 0x0A { lines += 1; take = i + 1; linesAtCut = lines } else { afterCR = true }
                    } else if state == .fieldStart && (b == 0x20 || b == 0x09) {
                        blanks += 1
                    } else if state == .fieldStart && b == quote {
                        state = .quoted; fieldBytes = 0; fieldLine = self.line + pendingLines + lines
                    } else if state != .afterQuote {
                        if state == .fieldStart { state = .unquoted; fieldBytes = blanks }
                        fieldBytes += 1
                        if fieldBytes > limits.maxFieldBytes {
                            failure = fieldTooLong(line: self.line + pendingLines + lines); return
                        }
                    }
                case .quoted:
                    if b == quote {
                        state = .quoteInQuoted
                    } else {
                        if b == 0x0A { lines += 1 } else if b == 0x0D { crInQuotes = true }
                        fieldBytes += 1
                        if fieldBytes > limits.maxFieldBytes { failure = fieldTooLong(line: fieldLine); return }
                    }
                case .quoteInQuoted:
                    if b == quote {
                        state = .quoted
                        fieldBytes += 1
                        if fieldBytes > limits.maxFieldBytes { failure = fieldTooLong(line: fieldLine); return }
                    } else if b == comma {
                        state = .fieldStart; fieldNumber += 1; fieldBytes = 0; blanks = 0
                    } else if b == 0x0A || b == 0x0D {
                        endRecord()
                        if b == 0x0A { lines += 1; take = i + 1; linesAtCut = lines } else { afterCR = true }
                    } else {
                        state = .afterQuote
                    }
                }
                i += 1
            }
        }
        if let failure { throw failure }
        if take < 0 {
            pending.append(contentsOf: data)
            pendingLines += lines
            return []
        }
        var part = pending
        part.append(contentsOf: data[..<take])
        linesInPart = pendingLines + linesAtCut
        pending = Array(data[take...])
        pendingLines = lines - linesAtCut
        return part
    }

    /// The bytes left at the end of the stream (the last record when the file does not end
    /// with a line break).
    mutating func finish() -> [UInt8] {
        let rest = pending
        linesInPart = pendingLines + (afterCR || crInQuotes ? 1 : 0)
        afterCR = false
        crInQuotes = false
        pending = []
        pendingLines = 0
        return rest
    }

    /// Moves `line` past the part just returned by `add` or `finish`.
    mutating func partDone() {
        line += linesInPart
        linesInPart = 0
    }

    private mutating func endRecord() {
        if let h = headerBytes {
            headerBytes = nil
            if header == nil {
                var r = CSVReader(bytes: h, file: file)
                header = (try? r.nextRecord())?.map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        state = .fieldStart
        recordBytes = 0
        fieldNumber = 1
        fieldBytes = 0
        blanks = 0
    }

    private func fieldTooLong(line: Int) -> ImportError {
        error(line: line, "field is longer than the limit of \(limits.maxFieldBytes) bytes (--max-field-bytes N raises it)")
    }

    private func error(line: Int, _ message: String) -> ImportError {
        let name = header.flatMap { fieldNumber <= $0.count ? $0[fieldNumber - 1] : nil }
        return ImportError(file: file, line: line, column: fieldNumber, field: name, message: message)
    }
}
