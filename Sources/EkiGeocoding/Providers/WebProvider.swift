import EkiKit
import Foundation

/// A geocoding web service: how to ask it, and how to read its answer.
protocol WebProvider: Sendable {
    var provider: GeocodeProvider { get }
    /// Base URL, as configured.
    var endpoint: String { get }
    /// The full GET URL for an already normalized `query`. Also the cache key's request part.
    func url(for query: String, options: GeocodeOptions) -> String
    /// Candidates in the body of a 2xx answer, best first, at most `limit`.
    func parse(_ body: [UInt8], contentType: String?, query: String, limit: Int) throws(GeocodingError) -> [GeocodeCandidate]
    /// Refuses to send when the configuration breaks the service's usage policy.
    func checkPolicy(_ configuration: GeocoderConfiguration) throws(GeocodingError)
}

extension WebProvider {
    func checkPolicy(_ configuration: GeocoderConfiguration) throws(GeocodingError) {}
}

/// Shared checks and decoding for JSON answers.
enum JSONBody {
    /// Decodes `T`, turning an HTML page or malformed JSON into `GeocodingError.unparseable`.
    /// A JSON error object or an HTML page in a 2xx answer becomes the typed error it states
    /// (`ServiceMessage.error`) when it says what went wrong.
    static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8], contentType: String?) throws(GeocodingError) -> T {
        if let stated = ServiceMessage.error(in: body, contentType: contentType) { throw stated }
        let firstByte = body.first { !(UInt8(ascii: " ") == $0 || (0x09...0x0D).contains($0)) }
        if contentType?.lowercased().contains("html") == true || firstByte == UInt8(ascii: "<") {
            throw .unparseable(reason: "HTML page instead of JSON (a block or error page?)"
                               + (ServiceMessage.of(body).map { ": \($0)" } ?? ""))
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw .unparseable(reason: "invalid JSON")
        } catch {
            throw .unparseable(reason: "unexpected JSON shape: \(Self.describe(error))")
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error as? DecodingError {
        case .typeMismatch(_, let c)?, .valueNotFound(_, let c)?, .keyNotFound(_, let c)?, .dataCorrupted(let c)?:
            let path = c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return (path.isEmpty ? "" : "at \(path): ") + c.debugDescription
        default:
            return String(describing: error)
        }
    }
}

/// A number that some services send as a JSON string (`"52.54"`) and others as a number.
struct LenientDouble: Decodable, Sendable {
    var value: Double

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let d = try? c.decode(Double.self) {
            value = d
        } else if let d = Double(try c.decode(String.self).trimmingCharacters(in: .whitespaces)) {
            value = d
        } else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a number")
        }
    }
}
