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
    // Validly signed, but not an access token (the anon key has no sub, email or session).
    #expect(await signer.check(try await signer.anonKey(), now: 1_001) == .failure(.malformed))
  }

  @Test func rejectsExpiredTokens() async throws {
    let signer = await makeSigner()
    let token = try await signer.sign(claims)
    #expect(await signer.verify(token, now: 4_599) != nil)
    #expect(await signer.check(token, now: 4_600) == .failure(.expired))
    #expect(await signer.verify(token, now: 10_000) == nil)
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

/// The /auth/v1 endpoints over HTTP, against an embedded sandbox on a temporary database.
@Suite struct GoTrueEndpointTests {
  struct Reply {
    var status: Int
    var body: [String: Any]
    var headers: [AnyHashable: Any]

    func string(_ key: String) -> String? { body[key] as? String }
    var user: [String: Any] { body["user"] as? [String: Any] ?? [:] }
  }

  /// A running sandbox and requests to it.
  final class Server: Sendable {
    let directory: ScratchDirectory
    let sandbox: RunningSandbox

    init() async throws {
      directory = try ScratchDirectory()
      sandbox = try await SandboxServer.start(.init(databasePath: directory.path("sandbox.sqlite")))
    }

    var databasePath: String { directory.path("sandbox.sqlite") }

    func stop() async {
      await sandbox.stop()
      directory.cleanUp()
    }

    func send(
      _ method: String, _ path: String, _ body: String? = nil, bearer: String? = nil, headers: [String: String] = [:]
    ) async throws -> Reply {
      var request = URLRequest(url: try #require(URL(string: sandbox.baseURL.absoluteString + "/auth/v1" + path)))
      request.httpMethod = method
      if let body {
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      }
      if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
      for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
      let (data, response) = try await URLSession.shared.data(for: request)
      let http = try #require(response as? HTTPURLResponse)
      let body = data.isEmpty ? [:] : (try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:])
      return Reply(status: http.statusCode, body: body, headers: http.allHeaderFields)
    }

    func signUp(_ email: String, password: String = "secret-1", data: String = "{}") async throws -> Reply {
      try await send("POST", "/signup", #"{"email":"\#(email)","password":"\#(password)","data":\#(data)}"#)
    }

    func signIn(_ email: String, password: String = "secret-1") async throws -> Reply {
      try await send("POST", "/token?grant_type=password", #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    func refresh(_ token: String) async throws -> Reply {
      try await send("POST", "/token?grant_type=refresh_token", #"{"refresh_token":"\#(token)"}"#)
    }
  }

  /// Runs `body` against a fresh sandbox, stopped (and its database removed) afterwards.
  func withServer(_ body: (Server) async throws -> Void) async throws {
    let server = try await Server()
    do {
      try await body(server)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  /// Asserts GoTrue's original error body.
  func expectError(_ reply: Reply, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(reply.status == status, "\(reply.body)", sourceLocation: sourceLocation)
    #expect(reply.body["code"] as? Int == status, sourceLocation: sourceLocation)
    #expect(reply.string("error_code") == code, "\(reply.body)", sourceLocation: sourceLocation)
    #expect(reply.string("msg")?.isEmpty == false, sourceLocation: sourceLocation)
  }

  @Test(.timeLimit(.minutes(3))) func sessionAndUserHaveGoTruesShape() async throws {
    try await withServer { server in
      let signup = try await server.signUp(" Ath@Example.com ", data: #"{"role":"athlete"}"#)
      #expect(signup.status == 200, "\(signup.body)")
      #expect(
        Set(signup.body.keys) == ["access_token", "token_type", "expires_in", "expires_at", "refresh_token", "user"])
      #expect(signup.string("token_type") == "bearer")
      #expect(signup.body["expires_in"] as? Int == 3600)
      // expires_at is the access token's exp, an hour after it was issued.
      let expiresAt = try #require(signup.body["expires_at"] as? Int)
      let accessToken = try #require(signup.string("access_token"))
      let claims = try #require(try JWTPart.json(accessToken, 1))
      #expect(claims["exp"] as? Int == expiresAt)
      #expect(expiresAt - (claims["iat"] as? Int ?? 0) == 3600)
      #expect(expiresAt > Int(Date().timeIntervalSince1970))
      let user = signup.user
      for key in [
        "id", "aud", "role", "email", "email_confirmed_at", "phone", "confirmed_at", "last_sign_in_at", "app_metadata",
        "user_metadata", "identities", "created_at", "updated_at", "is_anonymous",
      ] {
        #expect(user[key] != nil, "user.\(key)")
      }
      #expect(user["email"] as? String == "ath@example.com")
      #expect(user["aud"] as? String == "authenticated")
      #expect(user["role"] as? String == "authenticated")
      #expect(user["phone"] as? String == "")
      #expect((user["user_metadata"] as? [String: String]) == ["role": "athlete"])
      let app = try #require(user["app_metadata"] as? [String: Any])
      #expect(app["provider"] as? String == "email")
      #expect(app["providers"] as? [String] == ["email"])
      let identity = try #require((user["identities"] as? [[String: Any]])?.first)
      #expect(identity["provider"] as? String == "email")
      #expect(identity["user_id"] as? String == user["id"] as? String)

      let login = try await server.signIn("ath@example.com")
      #expect(login.status == 200)
      #expect(login.user["id"] as? String == user["id"] as? String)
      let fetched = try await server.send("GET", "/user", bearer: login.string("access_token"))
      #expect(fetched.status == 200)
      #expect(fetched.body["id"] as? String == user["id"] as? String)
      #expect((fetched.body["user_metadata"] as? [String: String]) == ["role": "athlete"])
      #expect(fetched.body["last_sign_in_at"] as? String != nil)

      // The demo account has never signed in: no last_sign_in_at yet.
      let demo = try await server.signIn(SandboxSeed.demoEmail, password: SandboxSeed.demoPassword)
      #expect(demo.user["email"] as? String == SandboxSeed.demoEmail)
    }
  }

  @Test(.timeLimit(.minutes(3))) func errorsHaveGoTruesCodes() async throws {
    try await withServer { server in
      #expect(try await server.signUp("taken@example.com").status == 200)
      expectError(try await server.signUp("Taken@example.com"), 422, "user_already_exists")
      let weak = try await server.signUp("weak@example.com", password: "12345")
      expectError(weak, 422, "weak_password")
      #expect((weak.body["weak_password"] as? [String: [String]]) == ["reasons": ["length"]])
      expectError(try await server.signUp("not-an-email"), 400, "validation_failed")
      expectError(try await server.send("POST", "/signup", #"{"email":"a@b.co"}"#), 400, "bad_json")
      expectError(try await server.send("POST", "/signup", "{not json"), 400, "bad_json")

      let wrong = try await server.signIn("taken@example.com", password: "wrong-password")
      expectError(wrong, 400, "invalid_credentials")
      #expect(wrong.string("msg") == "Invalid login credentials")
      expectError(try await server.signIn("nobody@example.com"), 400, "invalid_credentials")
      let grant = try await server.send("POST", "/token?grant_type=magic", "{}")
      expectError(grant, 400, "invalid_credentials")
      #expect(grant.string("msg") == "unsupported_grant_type")

      expectError(try await server.refresh("no-such-token"), 400, "refresh_token_not_found")
      let session = try await server.signIn("taken@example.com")
      let refreshToken = try #require(session.string("refresh_token"))
      let refreshed = try await server.refresh(refreshToken)
      #expect(refreshed.status == 200)
      #expect(refreshed.string("refresh_token") != refreshToken)
      expectError(try await server.refresh(refreshToken), 400, "refresh_token_already_used")

      expectError(try await server.send("GET", "/user"), 401, "no_authorization")
      expectError(try await server.send("GET", "/user", bearer: "not.a.jwt"), 403, "bad_jwt")

      // The Supabase clients' API version selects the newer body, and the header is echoed.
      let newer = try await server.send(
        "POST", "/token?grant_type=password", #"{"email":"taken@example.com","password":"nope"}"#,
        headers: ["X-Supabase-Api-Version": "2024-01-01"])
      #expect(newer.status == 400)
      #expect(newer.body["code"] as? String == "invalid_credentials")
      #expect(newer.string("message") == "Invalid login credentials")
      #expect(newer.body["msg"] == nil)
      #expect(newer.headers["X-Supabase-Api-Version"] as? String == "2024-01-01")
    }
  }

  @Test(.timeLimit(.minutes(3))) func updateUserMergesMetadataAndChangesThePassword() async throws {
    try await withServer { server in
      let signup = try await server.signUp("parent@example.com", data: #"{"role":"athlete","team":"U12"}"#)
      let token = try #require(signup.string("access_token"))
      let updated = try await server.send("PUT", "/user", #"{"data":{"role":"parent","team":null}}"#, bearer: token)
      #expect(updated.status == 200, "\(updated.body)")
      #expect((updated.body["user_metadata"] as? [String: String]) == ["role": "parent"])
      #expect(updated.string("updated_at") != nil)
      let fetched = try await server.send("GET", "/user", bearer: token)
      #expect((fetched.body["user_metadata"] as? [String: String]) == ["role": "parent"])
      // The metadata of a new access token says the same.
      let login = try await server.signIn("parent@example.com")
      let accessToken = try #require(login.string("access_token"))
      let claims = try #require(try JWTPart.json(accessToken, 1))
      #expect((claims["user_metadata"] as? [String: String]) == ["role": "parent"])

      expectError(try await server.send("PUT", "/user", #"{"password":"123"}"#, bearer: token), 422, "weak_password")
      expectError(
        try await server.send("PUT", "/user", #"{"password":"secret-1"}"#, bearer: token), 422, "same_password")
      expectError(
        try await server.send("PUT", "/user", #"{"email":"other@example.com"}"#, bearer: token), 422,
        "validation_failed")
      expectError(try await server.send("PUT", "/user", #"{"data":{}}"#), 401, "no_authorization")
      #expect(try await server.send("PUT", "/user", #"{"password":"secret-2"}"#, bearer: token).status == 200)
      expectError(try await server.signIn("parent@example.com"), 400, "invalid_credentials")
      #expect(try await server.signIn("parent@example.com", password: "secret-2").status == 200)
    }
  }

  @Test(.timeLimit(.minutes(3))) func logoutScopes() async throws {
    try await withServer { server in
      #expect(try await server.signUp("multi@example.com").status == 200)
      var sessions: [Reply] = []
      for _ in 0..<3 { sessions.append(try await server.signIn("multi@example.com")) }
      let tokens = sessions.compactMap { $0.string("access_token") }

      expectError(
        try await server.send("POST", "/logout?scope=everywhere", bearer: tokens[0]), 400, "validation_failed")
      #expect(try await server.send("POST", "/logout?scope=others", bearer: tokens[0]).status == 204)
      #expect(try await server.send("GET", "/user", bearer: tokens[0]).status == 200)
      expectError(try await server.send("GET", "/user", bearer: tokens[1]), 403, "session_not_found")
      expectError(
        try await server.refresh(try #require(sessions[2].string("refresh_token"))), 400, "refresh_token_not_found")

      #expect(try await server.send("POST", "/logout?scope=local", bearer: tokens[0]).status == 204)
      expectError(try await server.send("GET", "/user", bearer: tokens[0]), 403, "session_not_found")

      let first = try await server.signIn("multi@example.com")
      let second = try await server.signIn("multi@example.com")
      // A refreshed session is the same session: the new token is ended with it.
      let renewed = try await server.refresh(try #require(first.string("refresh_token")))
      #expect(try await server.send("POST", "/logout", bearer: second.string("access_token")).status == 204)
      expectError(
        try await server.send("GET", "/user", bearer: renewed.string("access_token")), 403, "session_not_found")
      expectError(
        try await server.send("POST", "/logout", bearer: second.string("access_token")), 403, "session_not_found")
      expectError(try await server.send("POST", "/logout"), 401, "no_authorization")
    }
  }

  @Test(.timeLimit(.minutes(3))) func apiKeyIsOptionalButMustBeTheAnonKey() async throws {
    try await withServer { server in
      let anonKey = try await SandboxServer.anonKey(databasePath: server.databasePath)
      let body = #"{"email":"owner@sandbox.test","password":"sandbox"}"#
      #expect(try await server.send("POST", "/token?grant_type=password", body).status == 200)
      let keyed = try await server.send("POST", "/token?grant_type=password", body, headers: ["apikey": anonKey])
      #expect(keyed.status == 200)
      for wrong in [String(anonKey.dropLast()), "", "anon", keyed.string("access_token") ?? ""] {
        let refused = try await server.send("POST", "/token?grant_type=password", body, headers: ["apikey": wrong])
        #expect(refused.status == 401, "\(wrong)")
        #expect(refused.string("message") == "Invalid API key")
        #expect(refused.string("hint")?.contains("anon") == true)
      }
      // The key is checked before anything else, as the gateway does.
      #expect(try await server.send("POST", "/signup", "{bad", headers: ["apikey": "anon"]).status == 401)
      #expect(try await server.send("GET", "/user", headers: ["apikey": anonKey]).status == 401)
      // The anon key is no access token.
      expectError(try await server.send("GET", "/user", bearer: anonKey), 403, "bad_jwt")
    }
  }

  @Test(.timeLimit(.minutes(3))) func resetEndsEverySessionButKeepsTheAnonKey() async throws {
    try await withServer { server in
      let anonKey = try await SandboxServer.anonKey(databasePath: server.databasePath)
      let login = try await server.signIn(SandboxSeed.demoEmail, password: SandboxSeed.demoPassword)
      let state = try await SandboxState.open(.init(databasePath: server.databasePath))
      try await state.database.write { db in try await SandboxSeed.reset(db, features: SandboxRegistry.features) }
      await state.close()
      #expect(try await SandboxServer.anonKey(databasePath: server.databasePath) == anonKey)
      // The demo user is seeded again with the same id, but the session is gone.
      expectError(try await server.send("GET", "/user", bearer: login.string("access_token")), 403, "session_not_found")
      expectError(try await server.refresh(try #require(login.string("refresh_token"))), 400, "refresh_token_not_found")
      #expect(
        try await server.send(
          "POST", "/token?grant_type=password", #"{"email":"owner@sandbox.test","password":"sandbox"}"#,
          headers: ["apikey": anonKey]
        ).status == 200)
    }
  }
}
