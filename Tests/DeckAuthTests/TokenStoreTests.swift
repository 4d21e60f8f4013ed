import DeckAuth
import DeckSupport
import Foundation
import TestFixtures
import Testing

@Suite("Token store")
struct TokenStoreTests {
  func session(_ email: String, expiresIn seconds: TimeInterval = 3600) -> StoredSession {
    StoredSession(
      email: email, accessToken: "access-\(email)", refreshToken: "refresh-\(email)",
      expiresAt: Date().addingTimeInterval(seconds))
  }

  @Test func filesAreOwnerOnly() throws {
    let directory = try TemporaryDirectory()
    let store = TokenStore(path: directory.path + "/deck/tokens.json")
    try store.save(session("a@x.test"), in: "sandbox")
    #expect(try mode(of: store.path) == 0o600)
    #expect(try mode(of: directory.path + "/deck") == 0o700)
  }

  @Test func readableTokenFileIsRefused() throws {
    let directory = try TemporaryDirectory()
    let store = TokenStore(path: directory.path + "/tokens.json")
    try store.save(session("a@x.test"), in: "sandbox")
    chmod(store.path, 0o644)
    let error = #expect(throws: DeckError.self) { try store.accounts(in: "sandbox") }
    #expect(error?.hint?.contains("chmod 600") == true)
  }

  @Test func oneActiveAccountPerEnvironment() throws {
    let directory = try TemporaryDirectory()
    let store = TokenStore(path: directory.path + "/tokens.json")
    try store.save(session("a@x.test"), in: "sandbox")
    try store.save(session("b@x.test"), in: "sandbox")
    try store.save(session("c@x.test"), in: "local")
    #expect(try store.accounts(in: "sandbox").active == "b@x.test")
    try store.switchAccount(to: "a@x.test", in: "sandbox")
    #expect(try store.accounts(in: "sandbox").activeSession?.email == "a@x.test")
    #expect(try store.accounts(in: "local").active == "c@x.test")
    #expect(throws: DeckError.self) { try store.switchAccount(to: "c@x.test", in: "sandbox") }
    let removed = try store.remove(nil, in: "sandbox")
    #expect(removed?.email == "a@x.test")
    #expect(try store.accounts(in: "sandbox").active == "b@x.test")
  }

  @Test func refreshKeepsTheActiveAccount() throws {
    let directory = try TemporaryDirectory()
    let store = TokenStore(path: directory.path + "/tokens.json")
    try store.save(session("a@x.test"), in: "sandbox")
    try store.save(session("b@x.test"), in: "sandbox")
    try store.replace(session("a@x.test", expiresIn: 7200), in: "sandbox")
    #expect(try store.accounts(in: "sandbox").active == "b@x.test")
  }

  @Test func expiryComesFromTheJWTWhenNotStored() throws {
    let past = Int(Date().timeIntervalSince1970) - 10
    let payload = Data("{\"sub\":\"u1\",\"email\":\"a@x.test\",\"exp\":\(past)}".utf8).base64EncodedString()
      .replacingOccurrences(of: "=", with: "")
    let token = "eyJhbGciOiJIUzI1NiJ9.\(payload).sig"
    let claims = try #require(JWTClaims(token: token))
    #expect(claims.email == "a@x.test")
    #expect(StoredSession(email: "a@x.test", accessToken: token, refreshToken: nil, expiresAt: nil).isExpired())
    #expect(!session("a@x.test").isExpired())
    #expect(session("a@x.test", expiresIn: 10).isExpired(leeway: 30))
  }

  @Test func tokenFilesOfEarlierVersionsStillRead() throws {
    let directory = try TemporaryDirectory()
    let store = TokenStore(path: directory.path + "/tokens.json")
    // Earlier versions wrote dates as seconds since 1970.
    let old = """
      {"environments":{"sandbox":{"accounts":{"a@x.test":{"access_token":"t","email":"a@x.test",\
      "expires_at":1900000000,"refresh_token":"r"}},"active":"a@x.test"}},"version":1}
      """
    #expect(
      FileManager.default.createFile(
        atPath: store.path, contents: Data(old.utf8), attributes: [.posixPermissions: 0o600]))
    let session = try #require(try store.accounts(in: "sandbox").activeSession)
    #expect(session.expiresAt == Date(timeIntervalSince1970: 1_900_000_000))
    try store.save(session, in: "sandbox")
    let written = try String(contentsOfFile: store.path, encoding: .utf8)
    #expect(written.contains(#""expires_at" : "2030-03-17T17:46:40Z""#), "DeckJSON's dates: \(written)")
    #expect(try store.accounts(in: "sandbox").activeSession == session)
  }

  func mode(of path: String) throws -> mode_t {
    var info = stat()
    #expect(stat(path, &info) == 0)
    return info.st_mode & 0o777
  }
}
