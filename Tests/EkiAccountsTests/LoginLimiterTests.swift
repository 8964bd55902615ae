import EkiAccounts
import Foundation
import Testing

/// Failed logins per account and per address over a sliding window.
@Suite struct LoginLimiterTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theAccountLimitAndItsWait() {
        let l = LoginLimiter(limits: LoginLimits(perAccount: 3, perAddress: 100, window: 900))
        for i in 0..<3 { #expect(l.attempt(account: "alice", address: "192.0.2.1", now: t0.addingTimeInterval(Double(i))) == nil) }
        // The fourth within the window waits until the first failure is 15 minutes old.
        #expect(l.attempt(account: "Alice", address: "192.0.2.9", now: t0.addingTimeInterval(100)) == 800)
        #expect(l.attempt(account: "alice", address: nil, now: t0.addingTimeInterval(899.5)) == 1)
        #expect(l.attempt(account: "alice", address: nil, now: t0.addingTimeInterval(900)) == nil)
        #expect(l.attempt(account: "bob", address: "192.0.2.1", now: t0.addingTimeInterval(100)) == nil)
    }

    @Test func theAddressLimitAcrossNamesAndIPv6Prefixes() {
        let l = LoginLimiter(limits: LoginLimits(perAccount: 100, perAddress: 2, window: 900))
        #expect(l.attempt(account: "a", address: "2001:db8:1:2::10", now: t0) == nil)
        #expect(l.attempt(account: "b", address: "2001:db8:1:2:ffff::1", now: t0) == nil)
        // The same /64: limited; another /64 is not.
        #expect(l.attempt(account: "c", address: "2001:db8:1:2::99", now: t0) == 900)
        #expect(l.attempt(account: "c", address: "2001:db8:1:3::99", now: t0) == nil)
        #expect(l.attempt(account: "c", address: "::ffff:192.0.2.1", now: t0) == nil)
        #expect(l.attempt(account: "d", address: "192.0.2.1", now: t0) == nil)
        #expect(l.attempt(account: "e", address: "192.0.2.1", now: t0) == 900)   // the mapped address is the IPv4 one
    }

    @Test func aSuccessForgetsTheAccountsFailuresButNotTheAddresss() {
        let l = LoginLimiter(limits: LoginLimits(perAccount: 2, perAddress: 3, window: 900))
        #expect(l.attempt(account: "alice", address: "192.0.2.1", now: t0) == nil)
        #expect(l.attempt(account: "alice", address: "192.0.2.1", now: t0) == nil)
        #expect(l.attempt(account: "alice", address: "192.0.2.1", now: t0) != nil)
        #expect(l.attempt(account: "bob", address: "192.0.2.1", now: t0) == nil)
        l.succeeded(account: "bob", address: "192.0.2.1")
        #expect(l.attempt(account: "bob", address: "192.0.2.1", now: t0) == nil)
        #expect(l.attempt(account: "carol", address: "192.0.2.1", now: t0) != nil)
    }

    @Test func parallelAttemptsCannotSlipPastTheLimit() async {
        let l = LoginLimiter(limits: LoginLimits(perAccount: 10, perAddress: 1000, window: 900))
        let allowed = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 { group.addTask { l.attempt(account: "alice", address: "192.0.2.1") == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(allowed == 10)
    }

    @Test func randomNamesCannotFillTheMemory() {
        let l = LoginLimiter(limits: LoginLimits(perAccount: 1, perAddress: 1_000_000, window: 900))
        for i in 0..<(LoginLimiter.maximumKeys + 50) { _ = l.attempt(account: "n\(i)", address: nil, now: t0) }
        // The newest names are still limited.
        #expect(l.attempt(account: "n\(LoginLimiter.maximumKeys + 49)", address: nil, now: t0) != nil)
    }
}
