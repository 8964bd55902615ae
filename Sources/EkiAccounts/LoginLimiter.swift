import Foundation
import Synchronization

/// How many failed logins are allowed before more are refused (429) for a while.
public struct LoginLimits: Sendable, Equatable {
    /// Failures per account name within `window` (10: a person mistyping is not stopped,
    /// a guesser gets 40 tries an hour at one account).
    public var perAccount: Int
    /// Failures per client address within `window` (30: a household behind one address can
    /// mistype; a guesser from one address gets 120 tries an hour across all names). IPv6
    /// addresses count by their /64 prefix, the block one machine usually holds.
    public var perAddress: Int
    /// Seconds (15 minutes).
    public var window: TimeInterval

    public init(perAccount: Int = 10, perAddress: Int = 30, window: TimeInterval = 15 * 60) {
        self.perAccount = perAccount
        self.perAddress = perAddress
        self.window = window
    }
}

/// Counts failed logins per account name and per client address over a sliding window, in
/// memory (a restart forgets them; the window is short). A login is checked before its
/// password is verified: a refused attempt costs no Argon2id work. At most `maximumKeys` names
/// and addresses are remembered each (the oldest forgotten first), so random names cannot fill
/// the memory. Thread-safe.
public final class LoginLimiter: Sendable {
    public let limits: LoginLimits
    public static let maximumKeys = 10_000

    private struct State {
        var accounts: [String: [Date]] = [:]
        var addresses: [String: [Date]] = [:]
    }
    private let state = Mutex(State())

    public init(limits: LoginLimits = LoginLimits()) { self.limits = limits }

    /// Called before a password is verified: nil when a login for `account` from `address` may
    /// be tried now, and then the attempt is counted as a failure straight away (so logins in
    /// parallel cannot slip past the limit); else the seconds until one may (≥ 1, for
    /// `Retry-After`), and nothing is counted.
    public func attempt(account: String, address: String?, now: Date = Date()) -> Int? {
        let a = Self.accountKey(account), ip = address.map(Self.addressKey)
        return state.withLock { s in
            let waits = [Self.wait(s.accounts[a], limit: limits.perAccount, window: limits.window, now: now),
                         ip.flatMap { Self.wait(s.addresses[$0], limit: limits.perAddress, window: limits.window, now: now) }]
            if let wait = waits.compactMap({ $0 }).max() { return wait }
            Self.note(&s.accounts, a, limit: limits.perAccount, window: limits.window, now: now)
            if let ip { Self.note(&s.addresses, ip, limit: limits.perAddress, window: limits.window, now: now) }
            return nil
        }
    }

    /// The attempt just counted succeeded: the account's failures are forgotten, and the
    /// address's count loses this attempt (its earlier failures stay).
    public func succeeded(account: String, address: String?) {
        let a = Self.accountKey(account), ip = address.map(Self.addressKey)
        state.withLock { s in
            s.accounts.removeValue(forKey: a)
            if let ip, var list = s.addresses[ip], !list.isEmpty {
                list.removeLast()
                s.addresses[ip] = list.isEmpty ? nil : list
            }
        }
    }

    private static func wait(_ failures: [Date]?, limit: Int, window: TimeInterval, now: Date) -> Int? {
        guard let failures else { return nil }
        let recent = failures.filter { now.timeIntervalSince($0) < window }
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }

    private static func note(_ map: inout [String: [Date]], _ key: String, limit: Int, window: TimeInterval, now: Date) {
        if map[key] == nil && map.count >= maximumKeys {
            map = map.filter { $0.value.contains { now.timeIntervalSince($0) < window } }
            if map.count >= maximumKeys, let oldest = map.min(by: { ($0.value.last ?? now) < ($1.value.last ?? now) })?.key {
                map.removeValue(forKey: oldest)
            }
        }
        var list = (map[key] ?? []).filter { now.timeIntervalSince($0) < window }
        list.append(now)
        if list.count > limit { list.removeFirst(list.count - limit) }
        map[key] = list
    }

    static func accountKey(_ name: String) -> String { String(name.prefix(64)).lowercased() }

    /// An IPv4 address as it is; an IPv6 address by its first 64 bits (`2001:db8:1:2::/64`).
    static func addressKey(_ address: String) -> String {
        var v6 = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")   // an IPv4-mapped address
        }
        return stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":") + "::/64"
    }
}
