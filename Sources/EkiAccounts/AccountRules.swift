import Foundation
import Synchronization

/// What an account name may be: 1–32 characters of ASCII letters, digits, `.`, `_` and `-`,
/// starting with a letter or digit. Names are compared without regard to case (`Alice` and
/// `alice` are one account), so that no two accounts look alike.
public enum UserName {
    public static let maximumLength = 32

    /// - Throws: `AccountError.badName` saying what is wrong.
    public static func check(_ name: String) throws(AccountError) {
        guard !name.isEmpty, name.utf8.count <= maximumLength else {
            throw .badName(name, "a name has 1 to \(maximumLength) characters")
        }
        let allowed = { (b: UInt8) in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
        }
        let bytes = Array(name.utf8)
        guard bytes.allSatisfy({ allowed($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) else {
            throw .badName(name, "a name has only ASCII letters, digits, '.', '_' and '-'")
        }
        guard allowed(bytes[0]) else { throw .badName(name, "a name starts with a letter or a digit") }
    }
}

/// What a password must be: at least 8 characters (any Unicode; 駅メモ counts as three), at most
/// `PasswordHasher.maximumLength` bytes of UTF-8. Nothing else is demanded: length is what
/// makes a password hard to guess, and Argon2id plus the login limits make each guess dear.
public enum PasswordRule {
    public static let minimumCharacters = 8

    /// - Throws: `AccountError.badPassword` (the message never holds the password).
    public static func check(_ password: String) throws(AccountError) {
        guard password.count >= minimumCharacters else {
            throw .badPassword("a password has at least \(minimumCharacters) characters")
        }
        guard password.utf8.count <= PasswordHasher.maximumLength else {
            throw .badPassword("a password has at most \(PasswordHasher.maximumLength) bytes")
        }
    }
}

extension PasswordHasher {
    /// Decoy hashes by "operations/memory".
    private static let decoys = Mutex<[String: String]>([:])

    /// A hash of a random password with these parameters, made once per process: a login with
    /// an unknown name is verified against it, so that it costs as long as a wrong password.
    public var decoy: String {
        let key = "\(operations)/\(memory)"
        if let d = Self.decoys.withLock({ $0[key] }) { return d }
        let made = (try? hash((try? SecretToken.make()) ?? "decoy password")) ?? ""
        return Self.decoys.withLock { d in
            if let old = d[key] { return old }
            d[key] = made
            return made
        }
    }
}

/// Errors of the accounts file and its rules. No message holds a password or a token.
public enum AccountError: Error, Equatable, CustomStringConvertible, Sendable {
    case missing(String)
    case notAnAccountsFile(String)
    case badName(String, String)
    case badPassword(String)
    case nameTaken(String)
    case noSuchUser(String)
    /// A PostgreSQL database without eki's schema (or, for a reader, an older one).
    case noSchema(String)
    /// A PostgreSQL database whose schema version (second) a later eki made; this one reads the third.
    case schemaTooNew(String, Int, Int)

    public var description: String {
        switch self {
        case .missing(let p): return "no accounts file at \(p) (make one with `eki user add NAME --accounts \(p)`)"
        case .notAnAccountsFile(let p): return "\(p) is not an EkiKit accounts file"
        case .badName(let n, let why): return "invalid user name '\(n)': \(why)"
        case .badPassword(let why): return "password refused: \(why)"
        case .nameTaken(let n): return "there is already a user '\(n)'"
        case .noSuchUser(let n): return "no user '\(n)'"
        case .noSchema(let url): return "\(url) holds no EkiKit accounts (make them with `eki user add NAME --store \(url)`)"
        case .schemaTooNew(let url, let v, let known):
            return "\(url) holds accounts of schema version \(v), made by a later eki (this one reads version \(known))"
        }
    }
}
