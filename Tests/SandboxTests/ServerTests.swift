import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// End to end over HTTP against an embedded server on a temporary database.
@Suite(.serialized) struct ServerTests {
  struct Reply: Sendable {
    var status: Int
    var data: Data

    var json: Any? { data.isEmpty ? nil : try? JSONSerialization.jsonObject(with: data) }
    var text: String { String(decoding: data, as: UTF8.self) }
    /// `counts` of an Info answer.
    var counts: [String: Int]? { (json as? [String: Any])?["counts"] as? [String: Int] }
  }

  func request(
    _ base: URL, _ method: String, _ path: String, body: String? = nil, bearer: String? = nil
  ) async throws -> Reply {
    var request = URLRequest(url: URL(string: base.absoluteString + path)!)
    request.httpMethod = method
    if let body {
      request.httpBody = Data(body.utf8)
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    return Reply(status: status, data: data)
  }

  @Test func endToEnd() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let sandbox = try await SandboxServer.start(
      .init(databasePath: directory.path("sandbox.sqlite"), features: SandboxRegistry.features + [FixtureServer.self]))
    let base = sandbox.baseURL
    #expect(base.absoluteString.hasPrefix("http://127.0.0.1:"))

    let info = try await request(base, "GET", "/__sandbox/v1/info", bearer: sandbox.adminToken)
    #expect(info.status == 200)
    let infoBody = info.json as? [String: Any]
    #expect(infoBody?["sandbox"] as? Bool == true)
    let counts = infoBody?["counts"] as? [String: Int]
    #expect(counts?["users"] == 3, "the demo owner, athlete and parent")
    #expect(counts?["preferences"] == 0)
    // Every feature counts what it holds.
    #expect(counts?[FixtureServer.rows] == 0)
    #expect(counts?["workspaces"] == 3, "handle_new_user gives every seeded user one")
    #expect(counts?["kiosk stores"] == 2)

    #expect(try await request(base, "GET", "/no/such/route").status == 404)

    // Sign in with the demo account, use and rotate the tokens, sign out.
    let bad = try await request(
      base, "POST", "/auth/v1/token?grant_type=password", body: #"{"email":"owner@sandbox.test","password":"nope"}"#)
    #expect(bad.status == 400)
    #expect((bad.json as? [String: Any])?["error_code"] as? String == "invalid_credentials")
    let login = try await request(
      base, "POST", "/auth/v1/token?grant_type=password",
      body: #"{"email":" Owner@Sandbox.test","password":"sandbox"}"#)
    #expect(login.status == 200)
    let session = try #require(login.json as? [String: Any])
    let accessToken = try #require(session["access_token"] as? String)
    let refreshToken = try #require(session["refresh_token"] as? String)
    #expect(session["token_type"] as? String == "bearer")
    #expect(session["expires_in"] as? Int == 3600)

    let user = try await request(base, "GET", "/auth/v1/user", bearer: accessToken)
    #expect(user.status == 200)
    #expect((user.json as? [String: Any])?["email"] as? String == "owner@sandbox.test")
    let anonymous = try await request(base, "GET", "/auth/v1/user")
    #expect(anonymous.status == 401)
    #expect((anonymous.json as? [String: Any])?["error_code"] as? String == "no_authorization")

    let refreshBody = #"{"refresh_token":"\#(refreshToken)"}"#
    let refreshed = try await request(base, "POST", "/auth/v1/token?grant_type=refresh_token", body: refreshBody)
    #expect(refreshed.status == 200)
    // GoTrue's reuse rule: the parent of the session's active refresh token gets that token back.
    let reused = try await request(base, "POST", "/auth/v1/token?grant_type=refresh_token", body: refreshBody)
    #expect(reused.status == 200)
    #expect(
      (reused.json as? [String: Any])?["refresh_token"] as? String
        == (refreshed.json as? [String: Any])?["refresh_token"] as? String)

    // Sign up.
    let signup = try await request(
      base, "POST", "/auth/v1/signup", body: #"{"email":"New@Example.com","password":"secret1"}"#)
    #expect(signup.status == 200)
    let again = try await request(
      base, "POST", "/auth/v1/signup", body: #"{"email":"new@example.com","password":"secret1"}"#)
    #expect(again.status == 422)
    #expect((again.json as? [String: Any])?["msg"] as? String == "User already registered")
    let short = try await request(base, "POST", "/auth/v1/signup", body: #"{"email":"b@example.com","password":"123"}"#)
    #expect(short.status == 422)

    #expect(try await request(base, "POST", "/auth/v1/logout", bearer: accessToken).status == 204)
    let newRefresh = try #require((refreshed.json as? [String: Any])?["refresh_token"] as? String)
    let afterLogout = try await request(
      base, "POST", "/auth/v1/token?grant_type=refresh_token", body: #"{"refresh_token":"\#(newRefresh)"}"#)
    #expect(afterLogout.status == 400)

    // Delay applies to the API but not to the admin routes.
    #expect(
      try await request(base, "PUT", "/__sandbox/v1/delay", body: #"{"milliseconds":2000}"#, bearer: sandbox.adminToken)
        .status == 200)
    let clock = ContinuousClock()
    let delayed = try await clock.measure {
      _ = try await request(base, "GET", "/api/fixture/items?q=a")
    }
    #expect(delayed >= .milliseconds(2000))
    // Then a delay of 60 s, which an admin route would not answer within: a loaded machine (the
    // admin route took 5 s once, on PostgreSQL beside the parallel suites) cannot make the
    // undelayed route look delayed.
    #expect(
      try await request(
        base, "PUT", "/__sandbox/v1/delay", body: #"{"milliseconds":60000}"#, bearer: sandbox.adminToken
      )
      .status == 200)
    let admin = try await clock.measure {
      _ = try await request(base, "GET", "/__sandbox/v1/info", bearer: sandbox.adminToken)
    }
    #expect(admin < .seconds(30))
    #expect(
      try await request(base, "PUT", "/__sandbox/v1/delay", body: #"{"milliseconds":0}"#, bearer: sandbox.adminToken)
        .status == 200)
    #expect(
      try await request(base, "PUT", "/__sandbox/v1/delay", body: #"{"milliseconds":-1}"#, bearer: sandbox.adminToken)
        .status == 400)

    // Seed and reset.
    let seeded = try await request(
      base, "POST", "/__sandbox/v1/seed", body: #"{"synthetic":{"fixture rows":500}}"#, bearer: sandbox.adminToken)
    #expect(seeded.counts?[FixtureServer.rows] == 500)
    let unknownKind = try await request(
      base, "POST", "/__sandbox/v1/seed", body: #"{"synthetic":{"unicorns":5}}"#, bearer: sandbox.adminToken)
    #expect(unknownKind.status == 400)
    #expect(unknownKind.text.contains(#"no synthetic data of kind \"unicorns\"; known: "#))
    #expect(unknownKind.text.contains(FixtureServer.rows), "the kinds the features declare: \(unknownKind.text)")
    let reset = try await request(base, "POST", "/__sandbox/v1/reset", body: "{}", bearer: sandbox.adminToken)
    #expect(reset.counts?[FixtureServer.rows] == 0)
    #expect(reset.counts?["users"] == 3)
    // The reset ended every session.
    #expect(try await request(base, "GET", "/auth/v1/user", bearer: accessToken).status == 403)

    await sandbox.stop()
  }

  @Test func stopCutsDelayedRequestsShort() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let sandbox = try await SandboxServer.start(
      .init(databasePath: directory.path("sandbox.sqlite"), features: SandboxRegistry.features + [FixtureServer.self]))
    let base = sandbox.baseURL
    _ = try await request(
      base, "PUT", "/__sandbox/v1/delay", body: #"{"milliseconds":60000}"#, bearer: sandbox.adminToken)
    let pending = Task { try? await request(base, "GET", "/api/fixture/items?q=a") }
    try await Task.sleep(for: .milliseconds(200))
    let clock = ContinuousClock()
    let stopping = await clock.measure { await sandbox.stop() }
    // Well before stop()'s 2 s watchdog: the delayed request is cut short, not waited out.
    #expect(stopping < .milliseconds(1500))
    let reply = await pending.value
    #expect(reply?.status == 503, "the delayed request is answered that the sandbox is shutting down")
  }

  @Test func portInUseFailsToStart() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let first = try await SandboxServer.start(.init(databasePath: directory.path("a.sqlite")))
    let port = try #require(first.baseURL.port)
    await #expect(throws: (any Error).self) {
      _ = try await SandboxServer.start(.init(databasePath: directory.path("b.sqlite"), port: port))
    }
    await first.stop()
  }
}
