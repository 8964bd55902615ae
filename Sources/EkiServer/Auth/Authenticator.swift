import EkiAccounts
import Foundation

/// The server's side of logging in: the accounts file on a connection of its own (behind a
/// lock, held only for the few microseconds of each lookup), the failed-login limits, and at
/// most `parallelVerifications` Argon2id verifications at a time (each takes tens of
/// milliseconds and 64 MiB; more at once would only slow every login and the map).
final class Authenticator: @unchecked Sendable {
    private let store: AccountStore
    private let lock = NSLock()
    let limiter: LoginLimiter
    private let verifications: DispatchSemaphore
    /// Verifications running at once at most (the machine's cores, at least 1).
    let parallelVerifications: Int

    /// - Throws: `AccountError`, `SQLiteError` when the accounts file cannot be opened.
    init(path: String, hasher: PasswordHasher, limits: LoginLimits) throws {
        store = try AccountStore(path: path, create: false, hasher: hasher)
        limiter = LoginLimiter(limits: limits)
        parallelVerifications = max(1, ProcessInfo.processInfo.activeProcessorCount)
        verifications = DispatchSemaphore(value: parallelVerifications)
        _ = hasher.decoy   // made now, not during the first login
    }

    private func locked<T>(_ body: (AccountStore) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(store)
    }

    private func verifying<T>(_ body: () throws -> T) rethrows -> T {
        verifications.wait()
        defer { verifications.signal() }
        return try body()
    }

    /// What a login came to.
    enum Outcome {
        /// The new session (its id for the cookie) of `user`.
        case success(User, NewSession)
        /// A wrong password or an unknown name (one answer for both).
        case refused
        /// Too many failures lately: try again after this many seconds.
        case limited(seconds: Int)
    }

    /// Checks `password` for `name` (an unknown name costs one verification of the decoy hash,
    /// as long as a wrong password), counts the attempt against the limits first, rehashes an
    /// old hash, and makes a new session, ending the one the client had (`previous`, the
    /// cookie it sent) so a session id never survives a login.
    /// - Throws: `SQLiteError`, `SodiumError`.
    func login(name: String, password: String, address: String?, previous: String?) throws -> Outcome {
        if let wait = limiter.attempt(account: name, address: address) { return .limited(seconds: wait) }
        let found = try locked { try $0.credentials(named: name) }
        let ok = verifying { PasswordHasher.verify(password, against: found?.hash ?? store.hasher.decoy) }
        guard ok, let found else { return .refused }
        limiter.succeeded(account: name, address: address)
        if store.hasher.needsRehash(found.hash) {
            let new = try verifying { try store.hasher.hash(password) }
            try locked { try $0.replaceHash(of: found.user.id, old: found.hash, new: new) }
        }
        let session = try locked { s in
            if let previous { try s.endSession(id: previous) }
            return try s.createSession(for: found.user.id)
        }
        return .success(found.user, session)
    }

    /// The live session whose id the cookie holds, or nil.
    func session(id: String) throws -> Session? {
        try locked { try $0.session(id: id) }
    }

    /// The account of an API token, or nil.
    func user(forToken token: String) throws -> User? {
        try locked { try $0.user(forToken: token) }
    }

    /// Ends the session whose id the cookie holds (logout).
    func endSession(id: String) throws {
        try locked { try $0.endSession(id: id) }
    }

    /// How many accounts the file holds (for the warning at start when there is none).
    func userCount() throws -> Int {
        try locked { try $0.users().count }
    }
}
