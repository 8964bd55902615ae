import CSodium

/// The one place libsodium is called: Argon2id password hashes, random tokens and their hashes.
/// Nothing here is cryptography of our own; each call is the libsodium function named beside it.
public enum Sodium {
    /// `sodium_init()`, once per process (libsodium allows repeated calls; it returns 1 after the first).
    private static let ready: Bool = sodium_init() >= 0

    static func initialize() throws(SodiumError) {
        guard ready else { throw .unavailable }
    }

    /// The UTF-8 bytes of `s` as C characters with a NUL after them (never empty, so the buffer
    /// always has an address, also for an empty password).
    static func cBytes(_ s: String) -> [CChar] {
        s.utf8.map { CChar(bitPattern: $0) } + [0]
    }

    /// The text of a NUL-terminated buffer libsodium filled.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// What the libsodium calls can fail with.
public enum SodiumError: Error, Equatable, CustomStringConvertible {
    /// `sodium_init()` failed (no entropy source).
    case unavailable
    /// `crypto_pwhash_str` failed: the memory limit could not be allocated.
    case outOfMemory
    /// A password longer than `PasswordHasher.maximumLength` bytes.
    case passwordTooLong

    public var description: String {
        switch self {
        case .unavailable: "libsodium could not start (no source of random bytes)"
        case .outOfMemory: "the password hash needs more memory than could be allocated"
        case .passwordTooLong: "the password is longer than \(PasswordHasher.maximumLength) bytes"
        }
    }
}

/// Argon2id password hashes as libsodium's `crypto_pwhash_str` writes them
/// (`$argon2id$v=19$m=65536,t=2,p=1$salt$hash`, salt made by libsodium): the string holds its own
/// parameters, so a hash made with older parameters still verifies and `needsRehash` says so.
public struct PasswordHasher: Sendable, Equatable {
    /// Passes over memory (libsodium's opslimit).
    public var operations: UInt64
    /// Memory per hash, bytes (libsodium's memlimit).
    public var memory: Int

    /// Longest password accepted, bytes of UTF-8 (a bound on the work a request can ask for).
    public static let maximumLength = 1024

    /// libsodium's interactive level: opslimit 2, memlimit 64 MiB.
    public static var interactive: PasswordHasher {
        PasswordHasher(operations: UInt64(crypto_pwhash_opslimit_interactive()), memory: crypto_pwhash_memlimit_interactive())
    }

    public init(operations: UInt64, memory: Int) {
        self.operations = operations
        self.memory = memory
    }

    /// The encoded hash of `password` (ASCII, at most `crypto_pwhash_strbytes()` − 1 characters).
    /// - Throws: `SodiumError.passwordTooLong`, `.outOfMemory`, `.unavailable`.
    public func hash(_ password: String) throws(SodiumError) -> String {
        try Sodium.initialize()
        let bytes = Sodium.cBytes(password)
        guard bytes.count - 1 <= Self.maximumLength else { throw .passwordTooLong }
        var out = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        guard crypto_pwhash_str(&out, bytes, UInt64(bytes.count - 1), operations, memory) == 0 else { throw .outOfMemory }
        return Sodium.text(out)
    }

    /// Whether `password` is the one `encoded` was made from (`crypto_pwhash_str_verify`, which
    /// compares in constant time). false for a malformed or foreign hash string.
    public static func verify(_ password: String, against encoded: String) -> Bool {
        guard (try? Sodium.initialize()) != nil else { return false }
        let bytes = Sodium.cBytes(password)
        guard bytes.count - 1 <= maximumLength, encoded.utf8.count < crypto_pwhash_strbytes() else { return false }
        return crypto_pwhash_str_verify(encoded, bytes, UInt64(bytes.count - 1)) == 0
    }

    /// Whether `encoded` was made with other parameters than these (or is not an Argon2id hash at
    /// all): hash the password again after a successful login (`crypto_pwhash_str_needs_rehash`).
    public func needsRehash(_ encoded: String) -> Bool {
        guard (try? Sodium.initialize()) != nil else { return true }
        return crypto_pwhash_str_needs_rehash(encoded, operations, memory) != 0
    }
}

/// Random secrets for session cookies and API tokens: 32 bytes (256 bits) from
/// `randombytes_buf`, written as unpadded URL-safe base64 (43 characters); stored only as their
/// BLAKE2b-256 hash (`crypto_generichash`), compared in constant time (`sodium_memcmp`).
public enum SecretToken {
    /// Bytes of randomness in a token.
    public static let byteCount = 32

    /// A new token (43 characters of `A–Z a–z 0–9 - _`).
    public static func make() throws(SodiumError) -> String {
        try Sodium.initialize()
        var raw = [UInt8](repeating: 0, count: byteCount)
        randombytes_buf(&raw, raw.count)
        let variant = sodium_base64_VARIANT_URLSAFE_NO_PADDING
        var text = [CChar](repeating: 0, count: sodium_base64_encoded_len(raw.count, variant))
        _ = sodium_bin2base64(&text, text.count, raw, raw.count, variant)
        sodium_memzero(&raw, raw.count)
        return Sodium.text(text)
    }

    /// The hex BLAKE2b-256 hash of a token, as a store keeps it (64 lowercase hex digits).
    public static func digest(_ token: String) throws(SodiumError) -> String {
        try Sodium.initialize()
        let input = Array(token.utf8)
        var hash = [UInt8](repeating: 0, count: Int(crypto_generichash_BYTES))
        _ = crypto_generichash(&hash, hash.count, input, UInt64(input.count), nil, 0)
        var hex = [CChar](repeating: 0, count: hash.count * 2 + 1)
        _ = sodium_bin2hex(&hex, hex.count, hash, hash.count)
        return Sodium.text(hex)
    }

    /// Whether two digests are equal, in time independent of where they differ (`sodium_memcmp`).
    public static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return sodium_memcmp(x, y, x.count) == 0
    }
}
