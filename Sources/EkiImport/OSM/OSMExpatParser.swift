import CExpat
import Foundation

/// One expat parser, configured for untrusted input, feeding one pass of an `OSMScanner`.
///
/// Security: a DOCTYPE with an internal subset (where entities are declared) or with an
/// external DTD is refused before anything in it is read, so there is no entity expansion
/// (no "billion laughs") and no external entity (no XXE). Parameter entities are never parsed,
/// external entity references fail, and expat's own default amplification limit (2.4+) stays on.
/// Expat never fetches anything by itself; nothing here asks it to.
///
/// Not thread-safe; one parser per pass.
final class OSMExpatParser {
    private let parser: XML_Parser
    private let scanner: UnsafeMutablePointer<OSMScanner>
    /// Bytes handed to expat per call.
    static let chunkSize = 1 << 20
    /// Room for a start tag's other attributes beside its longest accepted value.
    static let markupSlack = 4096

    /// - Throws: `ImportError` when expat cannot allocate a parser.
    init(scanner: UnsafeMutablePointer<OSMScanner>) throws {
        guard let p = XML_ParserCreate(nil) else {
            throw ImportError(file: scanner.pointee.file, message: "cannot create an XML parser (out of memory)")
        }
        parser = p
        self.scanner = scanner
        scanner.pointee.parser = p
        XML_SetUserData(p, UnsafeMutableRawPointer(scanner))
        XML_SetParamEntityParsing(p, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetElementHandler(p, { userData, name, atts in
            userData!.assumingMemoryBound(to: OSMScanner.self).pointee.startElement(name!, atts!)
        }, { userData, _ in
            userData!.assumingMemoryBound(to: OSMScanner.self).pointee.endElement()
        })
        XML_SetStartDoctypeDeclHandler(p) { userData, _, systemID, publicID, hasInternalSubset in
            let s = userData!.assumingMemoryBound(to: OSMScanner.self)
            if hasInternalSubset != 0 {
                s.pointee.fail("refused: the DOCTYPE has an internal subset (entity declarations are not allowed in OSM XML)")
            } else if systemID != nil || publicID != nil {
                s.pointee.fail("refused: the DOCTYPE refers to an external DTD (external entities are not allowed)")
            }
        }
        XML_SetEntityDeclHandler(p) { userData, name, _, _, _, _, _, _, _ in
            let entity = name.map { String(cString: $0) } ?? ""
            userData!.assumingMemoryBound(to: OSMScanner.self).pointee
                .fail("refused: entity declaration <!ENTITY \(entity)> (entities are not allowed in OSM XML)")
        }
        // Returning 0 (XML_STATUS_ERROR) makes any external entity reference a parse error.
        XML_SetExternalEntityRefHandler(p) { _, _, _, _, _ in 0 }
    }

    deinit {
        scanner.pointee.parser = nil
        XML_ParserFree(parser)
    }

    /// Feeds the whole input to expat in chunks of `chunkSize`, decompressed bytes going
    /// straight into expat's buffer.
    /// - Throws: the scanner's first error, or an `ImportError` with expat's message, line and
    ///   column for malformed or truncated XML, or the input's read/decompression error.
    func parse(_ input: some OSMByteSource) throws {
        // A start tag with its attributes lies between two `<` (attribute values cannot hold
        // one): input running on further than the longest value accepted plus room for the
        // other attributes is refused before expat buffers it.
        let limit = scanner.pointee.maxValueBytes
        let runLimit = limit > Int.max - Self.markupSlack ? Int.max : limit + Self.markupSlack
        var run = 0  // bytes since the last `<`
        while true {
            guard let buffer = XML_GetBuffer(parser, Int32(Self.chunkSize)) else {
                throw ImportError(file: scanner.pointee.file, message: "the XML parser ran out of memory")
            }
            let n = try input.read(into: buffer, capacity: Self.chunkSize)
            if n > 0 {
                let bytes = UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
                if let first = memchr(bytes, 0x3C, n) {
                    run += bytes.distance(to: first.assumingMemoryBound(to: UInt8.self))
                    if run <= runLimit {
                        var last = n - 1
                        while bytes[last] != 0x3C { last -= 1 }
                        run = n - 1 - last
                    }
                } else {
                    run += n
                }
                if run > runLimit {
                    throw ImportError(file: scanner.pointee.file, line: Int(XML_GetCurrentLineNumber(parser)),
                                      message: "more than \(runLimit) bytes without markup after this line: an attribute value or text longer than the limit of \(limit) bytes (--max-field-bytes N raises it)")
                }
            }
            let status = XML_ParseBuffer(parser, Int32(n), n == 0 ? 1 : 0)
            if let error = scanner.pointee.error { throw error }
            if status != XML_STATUS_OK {
                if scanner.pointee.stoppedEarly { return }
                let code = XML_GetErrorCode(parser)
                let message = String(cString: XML_ErrorString(code))
                throw ImportError(file: scanner.pointee.file, line: Int(XML_GetCurrentLineNumber(parser)),
                                  column: Int(XML_GetCurrentColumnNumber(parser)) + 1,
                                  message: "malformed or truncated XML: \(message)")
            }
            if n == 0 { return }
        }
    }
}
