import ExtrasBase64
import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct JWTTests {
  let claims = AccessTokenClaims(userID: "user-1", email: "a@b.co", issuedAt: 1_000, ttl: 3600)

  func makeSigner(_ byte: UInt8 = 7) async -> JWTSigner {
    await JWTSigner(secret: Array(repeating: byte, count: 32))
  }

  @Test func roundTrip() async throws {
    let signer = await makeSigner()
    let token = try await signer.sign(claims)
    #expect(token.split(separator: ".").count == 3)
    #expect(!token.contains("="))
    #expect(await signer.verify(token, now: 1_001) == claims)
    #expect(claims.exp == 4_600)
    #expect(claims.role == "authenticated")
    #expect(claims.aud == "authenticated")
    let header = try #require(try JWTPart.json(token, 0))
    #expect(header["alg"] as? String == "HS256")
    #expect(header["typ"] as? String == "JWT")
  }

  @Test func claimsAreGoTrues() async throws {
    let signer = await makeSigner()
    let metadata = UserRecord(
      id: "user-1", email: "a@b.co", passwordHash: "", createdAt: "", userMetadata: #"{"role":"athlete"}"#
    ).metadata
    let token = try await signer.sign(
      AccessTokenClaims(
        userID: "user-1", email: "a@b.co", sessionID: "session-1", userMetadata: metadata, issuedAt: 1_000, ttl: 60,
        signedInAt: 900))
    let object = try #require(try JWTPart.json(token, 1))
    #expect(object["sub"] as? String == "user-1")
    #expect(object["session_id"] as? String == "session-1")
    #expect(object["phone"] as? String == "")
    #expect(object["aal"] as? String == "aal1")
    #expect(object["is_anonymous"] as? Bool == false)
    #expect((object["user_metadata"] as? [String: String]) == ["role": "athlete"])
    let app = try #require(object["app_metadata"] as? [String: Any])
    #expect(app["provider"] as? String == "email")
    #expect(app["providers"] as? [String] == ["email"])
    let amr = try #require(object["amr"] as? [[String: Any]])
    #expect(amr.first?["method"] as? String == "password")
    #expect(amr.first?["timestamp"] as? Int == 900)
    // Two tokens of one session issued in the same second still differ.
    let first = AccessTokenClaims(userID: "user-1", email: "a@b.co", sessionID: "session-1", issuedAt: 1_000, ttl: 60)
    let second = AccessTokenClaims(userID: "user-1", email: "a@b.co", sessionID: "session-1", issuedAt: 1_000, ttl: 60)
    #expect(try await signer.sign(first) != (try await signer.sign(second)))
  }

  @Test func rejectsTamperedTokens() async throws {
    let signer = await makeSigner()
    let token = try await signer.sign(claims)
    let parts = token.split(separator: ".").map(String.init)
    var forged = claims
    forged.sub = "admin"
    let forgedPayload = JWTPart.encode(try JSONEncoder().encode(forged))
    let forgedToken = [parts[0], forgedPayload, parts[2]].joined(separator: ".")
    #expect(await signer.verify(forgedToken, now: 1_001) == nil)
    #expect(await signer.check(forgedToken, now: 1_001) == .failure(.badSignature))
    var signature = Array(parts[2])
    signature[0] = signature[0] == "A" ? "B" : "A"
    #expect(await signer.verify([parts[0], parts[1], String(signature)].joined(separator: "."), now: 1_001) == nil)
    let other = await makeSigner(8)
    #expect(await other.verify(token, now: 1_001) == nil)
    let none = JWTPart.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
    #expect(await signer.check([none, parts[1], ""].joined(separator: "."), now: 1_001) == .failure(.malformed))
    #expect(await signer.check("garbage", now: 1_001) == .failure(.malformed))
    #expect(await signer.verify("", now: 1_001) == nil)
    // Validly signed, but not an access token: the anon key names no user (GoTrue: "missing sub claim").
    #expect(await signer.check(try await signer.anonKey(), now: 1_001) == .failure(.missingSubject))
  }

  @Test func rejectsExpiredTokens() async throws {
    let signer = await makeSigner()
    let token = try await signer.sign(claims)
    #expect(await signer.verify(token, now: 4_599) != nil)
    #expect(await signer.check(token, now: 4_600) == .failure(.expired))
    #expect(await signer.verify(token, now: 10_000) == nil)
  }

  /// The exact anon key of one secret, as any HS256 implementation writes it (header
  /// `{"alg":"HS256","typ":"JWT"}`, claims with sorted keys, no padding): a database's anon key
  /// stays the string its clients were given.
  @Test func anonKeyIsTheStandardHS256Token() async throws {
    let key = try await makeSigner().anonKey()
    #expect(
      key
        == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJleHAiOjQxMDI0NDQ4MDAsImlhdCI6MTc2NzIyNTYwMCwiaXNzIjoiZGVjay1zYW5kYm94Ii"
        + "wicmVmIjoic2FuZGJveCIsInJvbGUiOiJhbm9uIn0.RSgtw2yyRNDHU_zkZga1vAXYmMI3__yVpq9KUn5lKQo")
  }

  @Test func anonKeyIsAFixedAnonJWTOfTheSecret() async throws {
    let signer = await makeSigner()
    let key = try await signer.anonKey()
    #expect(key == (try await signer.anonKey()), "the same secret always gives the same key")
    let other = await makeSigner(8)
    #expect(key != (try await other.anonKey()))
    let object = try #require(try JWTPart.json(key, 1))
    #expect(object["role"] as? String == "anon")
    #expect((object["exp"] as? Int ?? 0) > Int(Date().timeIntervalSince1970) + 50 * 365 * 86_400)
  }
}

/// Reads and writes the base64url parts of tokens, for tests that look inside them.
enum JWTPart {
  static func json(_ token: String, _ index: Int) throws -> [String: Any]? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    let bytes = try Base64.decode(string: String(parts[index]), options: [.base64UrlAlphabet, .omitPaddingCharacter])
    return try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
  }

  static func encode(_ data: Data) -> String {
    Base64.encodeToString(bytes: data, options: [.base64UrlAlphabet, .omitPaddingCharacter])
  }
}

@Suite struct PasswordTests {
  @Test func demoHashMatchesTheDemoPassword() async {
    #expect(SandboxSeed.demoPasswordHash.hasPrefix("$2b$04$"))
    #expect(await Passwords.verify(SandboxSeed.demoPassword, hash: SandboxSeed.demoPasswordHash))
    #expect(!(await Passwords.verify("Sandbox", hash: SandboxSeed.demoPasswordHash)))
  }

  @Test func hashAndVerify() async {
    let hash = await Passwords.hash("correct horse")
    #expect(hash.hasPrefix("$2b$04$"))
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

@Suite struct GoTrueErrorTests {
  @Test func apiVersionSelectsTheBody() {
    for newer in ["2024-01-01", "2024-06-30", "2031-12-31"] { #expect(APIVersion.selects20240101(newer), "\(newer)") }
    for original in [nil, "", "2023-12-31", "2024-1-1", "2024-13-01", "latest", "２０２４-01-01"] {
      #expect(!APIVersion.selects20240101(original), "\(original ?? "nil")")
    }
  }

  @Test func bodiesInBothFormats() throws {
    func render(_ error: GoTrueError, _ version: String?) throws -> (header: String?, body: [String: Any]) {
      let (data, header) = error.rendered(apiVersion: version)
      return (header, try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
    }
    let original = try render(.weakPassword, nil)
    #expect(GoTrueError.weakPassword.status.code == 422)
    #expect(original.header == nil)
    #expect(original.body["code"] as? Int == 422)
    #expect(original.body["error_code"] as? String == "weak_password")
    #expect(original.body["msg"] as? String == "Password should be at least 6 characters.")
    #expect((original.body["weak_password"] as? [String: [String]]) == ["reasons": ["length"]])
    let newer = try render(.invalidCredentials, "2024-01-01")
    #expect(newer.header == "2024-01-01")
    #expect(newer.body.keys.sorted() == ["code", "message"])
    #expect(newer.body["code"] as? String == "invalid_credentials")
    #expect(newer.body["message"] as? String == "Invalid login credentials")
  }
}
