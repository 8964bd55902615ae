import CCurl

/// What came back from one transfer, before any interpretation of the status.
struct HTTPResponse: Sendable {
    /// Final HTTP status, after redirects.
    var status: Int
    var body: [UInt8]
    /// `Content-Type` of the final response, when sent.
    var contentType: String?
    /// `Retry-After` in seconds (delta or HTTP date, as libcurl parses it); nil when absent.
    var retryAfter: Double?
}

/// Fixed settings of every transfer.
struct TransferSettings: Sendable {
    var userAgent: String
    var connectTimeout: Double
    var timeout: Double
    var maxResponseBytes: Int
    var maxRedirects: Int
}

/// The one owner of a libcurl easy handle (`CURL *`), freed in `deinit`. Not thread-safe: use
/// one per thread. Every transfer sets, whatever the caller asks: connect and total timeouts,
/// `CURLOPT_NOSIGNAL`, the User-Agent, all built-in content encodings, protocols limited to http
/// and https for the request and its redirects, a redirect limit, TLS peer and host
/// verification, and a body size limit enforced while receiving.
final class CurlEasy {
    private let handle: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let settings: TransferSettings
    /// The total timeout of the transfer under way (seconds).
    private var currentTimeout: Double = 0

    /// Receives the body inside the C write callback, which cannot capture context.
    private final class Sink {
        var bytes: [UInt8] = []
        let limit: Int
        var overflowed = false
        init(limit: Int) { self.limit = limit }
    }

    /// curl_global_init is run once per process, before the first handle (it is not safe to
    /// race it from two threads on every libcurl build).
    private static let globalInit: CURLcode = eki_curl_global_init()

    init(settings: TransferSettings) throws(GeocodingError) {
        guard Self.globalInit == CURLE_OK else {
            throw .transport(code: Int(Self.globalInit.rawValue), message: "curl_global_init failed")
        }
        guard let h = curl_easy_init() else {
            throw .transport(code: -1, message: "curl_easy_init failed")
        }
        handle = h
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        self.settings = settings
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// GET `url` with extra request `headers` (`Name: value`).
    /// - Throws: `timedOut`, `unavailable` (no connection), `responseTooLarge`, `transport`.
    ///   HTTP error statuses are returned, not thrown.
    /// `timeout` (seconds) replaces the configured total timeout for this transfer (what is left
    /// of a command's time budget).
    func get(_ url: String, headers: [String] = [], timeout: Double? = nil) throws(GeocodingError) -> HTTPResponse {
        try perform(url, headers: headers, timeout: timeout, post: nil, caFile: nil)
    }

    /// POST `body` to `url` with `headers`, redirects not followed (an answer is the server's
    /// own); `caFile` names the PEM certificates to trust instead of the system's (a
    /// self-signed server). Throws as `get`.
    func post(_ url: String, body: [UInt8], headers: [String] = [], caFile: String? = nil) throws(GeocodingError) -> HTTPResponse {
        try perform(url, headers: headers, timeout: nil, post: body, caFile: caFile)
    }

    private func perform(_ url: String, headers: [String], timeout: Double?, post: [UInt8]?,
                         caFile: String?) throws(GeocodingError) -> HTTPResponse {
        currentTimeout = timeout.map { min($0, settings.timeout) } ?? settings.timeout
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        let sink = Sink(limit: settings.maxResponseBytes)
        var list: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(list) }
        for h in headers { list = curl_slist_append(list, h) }

        try set(CURLOPT_URL, url)
        if let post {
            try set(CURLOPT_POST, 1)
            try check(eki_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(post.count)), CURLOPT_POSTFIELDSIZE_LARGE)
            // COPYPOSTFIELDS: libcurl copies the bytes now.
            let rc = post.withUnsafeBytes { eki_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)) }
            try check(rc, CURLOPT_COPYPOSTFIELDS)
        } else {
            try set(CURLOPT_HTTPGET, 1)
        }
        if let caFile { try set(CURLOPT_CAINFO, caFile) }
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(settings.connectTimeout))
        try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(currentTimeout))
        try set(CURLOPT_USERAGENT, settings.userAgent)
        try set(CURLOPT_ACCEPT_ENCODING, "")                 // every encoding this libcurl decodes
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, post == nil ? 1 : 0)
        try set(CURLOPT_MAXREDIRS, settings.maxRedirects)
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        try check(eki_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(settings.maxResponseBytes)),
                  CURLOPT_MAXFILESIZE_LARGE)
        try check(eki_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), CURLOPT_ERRORBUFFER)
        if let list {
            try check(eki_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, list), CURLOPT_HTTPHEADER)
        }
        let writer: curl_write_callback = { data, size, count, userdata in
            guard let userdata else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(userdata).takeUnretainedValue()
            let n = size * count
            guard sink.bytes.count + n <= sink.limit else {
                sink.overflowed = true
                return 0                                     // short write: CURLE_WRITE_ERROR
            }
            if n > 0, let data {
                data.withMemoryRebound(to: UInt8.self, capacity: n) {
                    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
                }
            }
            return n
        }
        try check(eki_curl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, writer), CURLOPT_WRITEFUNCTION)

        let code: CURLcode = withExtendedLifetime(sink) {
            let box = Unmanaged.passUnretained(sink).toOpaque()
            guard eki_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, box) == CURLE_OK else {
                return CURLE_FAILED_INIT
            }
            let c = curl_easy_perform(handle)
            _ = eki_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, nil)
            return c
        }
        if sink.overflowed || code == CURLE_FILESIZE_EXCEEDED {
            throw .responseTooLarge(limit: settings.maxResponseBytes)
        }
        guard code == CURLE_OK else { throw mapFailure(code) }

        var status = 0
        _ = eki_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var type: UnsafeMutablePointer<CChar>? = nil
        _ = eki_curl_getinfo_string(handle, CURLINFO_CONTENT_TYPE, &type)
        var retry: curl_off_t = 0
        _ = eki_curl_getinfo_off_t(handle, CURLINFO_RETRY_AFTER, &retry)
        return HTTPResponse(status: status, body: sink.bytes, contentType: type.map { String(cString: $0) },
                            retryAfter: retry > 0 ? Double(retry) : nil)
    }

    private func mapFailure(_ code: CURLcode) -> GeocodingError {
        let detail = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(seconds: currentTimeout)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT,
             CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            return .unavailable(status: nil, message: detail)
        default:
            return .transport(code: Int(code.rawValue), message: detail)
        }
    }

    private func set(_ option: CURLoption, _ value: Int) throws(GeocodingError) {
        try check(eki_curl_setopt_long(handle, option, value), option)
    }

    private func set(_ option: CURLoption, _ value: String) throws(GeocodingError) {
        try check(eki_curl_setopt_string(handle, option, value), option)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(GeocodingError) {
        guard code == CURLE_OK else {
            throw .transport(code: Int(code.rawValue),
                             message: "setting option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))")
        }
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        max(1, Int((seconds * 1000).rounded(.up)))
    }
}
