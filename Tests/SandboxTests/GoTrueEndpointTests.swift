import ExtrasBase64
import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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

    /// A sandbox on a new database, with the options `configure` sets.
    init(configure: (inout SandboxOptions) -> Void = { _ in }) async throws {
      directory = try ScratchDirectory()
      var options = SandboxOptions(databasePath: directory.path("sandbox.sqlite"))
      configure(&options)
      sandbox = try await SandboxServer.start(options)
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
  func withServer(
    configure: (inout SandboxOptions) -> Void = { _ in }, _ body: (Server) async throws -> Void
  ) async throws {
    let server = try await Server(configure: configure)
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
      // Used again while its child is the session's active token: GoTrue answers that child.
      #expect(try await server.refresh(refreshToken).string("refresh_token") == refreshed.string("refresh_token"))

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
