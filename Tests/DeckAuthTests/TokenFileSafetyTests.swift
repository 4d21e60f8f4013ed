import DeckAuth
import DeckSupport
import Foundation
import Synchronization
import TestFixtures
import Testing

@Suite("Token files and claims: parallel writers, one refresh, odd claims")
struct TokenFileSafetyTests {
  @Test func parallelTokenWritersLoseNothing() async throws {
    let directory = try TemporaryDirectory()
    let store = TokenStore(path: directory.path + "/deck/tokens.json")
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<16 {
        group.addTask {
          try? store.save(
            StoredSession(email: "u\(index)@x.test", accessToken: "t\(index)", refreshToken: nil, expiresAt: nil),
            in: "sandbox")
        }
      }
    }
    #expect(try store.accounts(in: "sandbox").accounts.count == 16)
  }

  @Test func aRefreshAlreadyDoneByAnotherProcessIsReused() async throws {
    let directory = try TemporaryDirectory()
    let store = TokenStore(path: directory.path + "/deck/tokens.json")
    let stale = StoredSession(
      email: "a@x.test", accessToken: "old", refreshToken: "r1", expiresAt: Date().addingTimeInterval(-10),
      origins: ["flyrpro.app"])
    try store.save(stale, in: "prod")
    let renewals = Counter()
    // Eight "processes" find the same expired token; the refresh token may be used once only.
    let results = await withTaskGroup(of: String?.self) { group in
      for _ in 0..<8 {
        group.addTask {
          try? await store.refresh(stale, in: "prod") { latest in
            renewals.increment()
            guard latest.refreshToken == "r1" else { throw DeckError.failure("refresh token reused") }
            try await Task.sleep(for: .milliseconds(20))
            return StoredSession(
              email: latest.email, accessToken: "new", refreshToken: "r2", expiresAt: Date().addingTimeInterval(3600))
          }.accessToken
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results == Array(repeating: "new", count: 8))
    #expect(renewals.value == 1)
    #expect(try store.accounts(in: "prod").activeSession?.origins == ["flyrpro.app"])
  }

  @Test func implausibleJWTDatesAreIgnored() throws {
    func token(_ payload: String) -> String {
      let encoded = Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
      return "eyJhbGciOiJIUzI1NiJ9.\(encoded).c2ln"
    }
    let huge = try #require(JWTClaims(token: token(#"{"exp":1e300,"iat":true,"email":"a@b.co"}"#)))
    #expect(huge.expiresAt == nil)
    #expect(huge.issuedAt == nil)
    #expect(huge.email == "a@b.co")
    #expect(JWTClaims(token: token(#"{"exp":1700000000}"#))?.expiresAt == Date(timeIntervalSince1970: 1_700_000_000))
  }

  /// The preferences role comes from `user_metadata`; metadata that is not an object (or a role
  /// that is not text) never costs the token its other claims.
  @Test func roleIsReadFromUserMetadata() throws {
    func token(_ payload: String) -> String {
      let encoded = Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
      return "eyJhbGciOiJIUzI1NiJ9.\(encoded).c2ln"
    }
    let parent = try #require(
      JWTClaims(token: token(#"{"exp":1700000000,"user_metadata":{"role":"parent","n":{"x":1}}}"#)))
    #expect(parent.role == "parent")
    #expect(parent.userMetadata == ["role": "parent"])
    for odd in [#""user_metadata":"parent""#, #""user_metadata":[1,2]"#, #""user_metadata":{"role":7}"#] {
      let claims = try #require(JWTClaims(token: token("{\"exp\":1700000000,\(odd)}")), "\(odd)")
      #expect(claims.role == nil, "\(odd)")
      #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_700_000_000), "\(odd)")
    }
  }
}

final class Counter: Sendable {
  private let count = Mutex(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}
