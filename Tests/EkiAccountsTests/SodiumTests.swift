import EkiAccounts
import Foundation
import Testing

/// libsodium through `EkiAccounts`: Argon2id hash strings, verification, rehash advice, tokens.
@Suite struct SodiumTests {
    /// Cheap parameters for the tests (libsodium's minimum memory is 8 KiB, opslimit 1).
    let cheap = PasswordHasher(operations: 1, memory: 64 * 1024)

    @Test func aHashVerifiesItsPasswordOnly() throws {
        let encoded = try cheap.hash("駅メモ 2019!")
        #expect(encoded.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"))
        #expect(PasswordHasher.verify("駅メモ 2019!", against: encoded))
        #expect(!PasswordHasher.verify("駅メモ 2019", against: encoded))
        #expect(!PasswordHasher.verify("", against: encoded))
        // A new salt each time: two hashes of one password differ, both verify.
        let again = try cheap.hash("駅メモ 2019!")
        #expect(again != encoded && PasswordHasher.verify("駅メモ 2019!", against: again))
    }

    @Test func malformedHashesNeverVerify() {
        for bad in ["", "plain", "$argon2id$v=19$m=64,t=1,p=1$AAAA$BBBB", "$2y$10$abcdefghijklmnopqrstuv", String(repeating: "x", count: 500)] {
            #expect(!PasswordHasher.verify("x", against: bad), "\(bad)")
        }
    }

    @Test func rehashAdviceFollowsTheParameters() throws {
        let encoded = try cheap.hash("secret")
        #expect(!cheap.needsRehash(encoded))
        #expect(PasswordHasher(operations: 2, memory: 64 * 1024).needsRehash(encoded))
        #expect(PasswordHasher.interactive.needsRehash(encoded))
        #expect(PasswordHasher.interactive == PasswordHasher(operations: 2, memory: 64 << 20))
    }

    @Test func overlongPasswordsAreRefused() {
        #expect(throws: SodiumError.passwordTooLong) { try cheap.hash(String(repeating: "a", count: 1025)) }
        #expect(!PasswordHasher.verify(String(repeating: "a", count: 1025), against: "$argon2id$"))
    }

    @Test func tokensAre256RandomBitsInURLSafeBase64() throws {
        var seen = Set<String>()
        for _ in 0..<200 {
            let t = try SecretToken.make()
            #expect(t.count == 43 && t.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }, "\(t)")
            seen.insert(t)
        }
        #expect(seen.count == 200)
    }

    @Test func digestsAreBLAKE2b256() throws {
        // BLAKE2b-256 of "abc" (RFC 7693 test vectors give BLAKE2b-512; this is the 32-byte output
        // as `b2sum -l 256` prints it).
        #expect(try SecretToken.digest("abc") == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
        let t = try SecretToken.make()
        #expect(try SecretToken.digest(t).count == 64)
        #expect(SecretToken.equal(try SecretToken.digest(t), try SecretToken.digest(t)))
        #expect(!SecretToken.equal(try SecretToken.digest(t), try SecretToken.digest(t + "x")))
        #expect(!SecretToken.equal("ab", "abc"))
    }
}
