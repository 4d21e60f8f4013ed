import Foundation
import Testing

@testable import DeckSandbox

@Suite struct JWTTests {
  let signer = JWTSigner(secret: Array(repeating: UInt8(7), count: 32))
  let claims = AccessTokenClaims(userID: "user-1", email: "a@b.co", issuedAt: 1_000, ttl: 3600)

  @Test func roundTrip() throws {
    let token = try signer.sign(claims)
    #expect(token.split(separator: ".").count == 3)
    #expect(!token.contains("="))
    #expect(signer.verify(token, now: 1_001) == claims)
    #expect(claims.exp == 4_600)
    #expect(claims.role == "authenticated")
    #expect(claims.aud == "authenticated")
    let header = try #require(Base64URL.decode(token.split(separator: ".")[0]))
    #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"HS256","typ":"JWT"}"#)
  }

  @Test func rejectsTamperedTokens() throws {
    let token = try signer.sign(claims)
    let parts = token.split(separator: ".").map(String.init)
    var forged = claims
    forged.sub = "admin"
    let encoder = JSONEncoder()
    let forgedPayload = Base64URL.encode(try encoder.encode(forged))
    #expect(signer.verify([parts[0], forgedPayload, parts[2]].joined(separator: "."), now: 1_001) == nil)
    var signature = Array(parts[2])
    signature[0] = signature[0] == "A" ? "B" : "A"
    #expect(signer.verify([parts[0], parts[1], String(signature)].joined(separator: "."), now: 1_001) == nil)
    let other = JWTSigner(secret: Array(repeating: UInt8(8), count: 32))
    #expect(other.verify(token, now: 1_001) == nil)
    let none = Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
    #expect(signer.verify([none, parts[1], ""].joined(separator: "."), now: 1_001) == nil)
    #expect(signer.verify("garbage", now: 1_001) == nil)
    #expect(signer.verify("", now: 1_001) == nil)
  }

  @Test func rejectsExpiredTokens() throws {
    let token = try signer.sign(claims)
    #expect(signer.verify(token, now: 4_599) != nil)
    #expect(signer.verify(token, now: 4_600) == nil)
    #expect(signer.verify(token, now: 10_000) == nil)
  }

  @Test func base64URL() {
    let data = Data([0xFB, 0xFF, 0xFE, 0x00, 0x01])
    let encoded = Base64URL.encode(data)
    #expect(encoded == "-__-AAE")
    #expect(Base64URL.decode(encoded) == data)
    #expect(Base64URL.decode("a") == nil)
  }
}

@Suite struct PasswordTests {
  @Test func demoHashMatchesTheDemoPassword() async {
    #expect(await Passwords.verify(SandboxSeed.demoPassword, hash: SandboxSeed.demoPasswordHash))
    #expect(!(await Passwords.verify("Sandbox", hash: SandboxSeed.demoPasswordHash)))
  }

  @Test func hashAndVerify() async {
    let hash = await Passwords.hash("correct horse")
    #expect(hash.hasPrefix("$2b$10$"))
    #expect(await Passwords.verify("correct horse", hash: hash))
    #expect(!(await Passwords.verify("correct horse!", hash: hash)))
  }

  @Test func emails() {
    #expect(EmailAddress.normalize("  Owner@Sandbox.TEST ") == "owner@sandbox.test")
    #expect(EmailAddress.isValid("owner@sandbox.test"))
    for bad in ["", "owner", "@sandbox.test", "owner@", "owner@sandbox", "a b@c.de", "a@b@c.de", "a@.c", "a@c."] {
      #expect(!EmailAddress.isValid(bad), "\(bad)")
    }
  }
}
