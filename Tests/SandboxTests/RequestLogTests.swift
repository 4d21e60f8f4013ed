import DeckSupport
import Foundation
import Hummingbird
import TestSupport
import Testing

@testable import SandboxKit

/// The request log (`deck sandbox logs`): what it records, its filters, its bound, that no
/// token, password or photo byte reaches it, that only the operator reads it, and the long
/// poll of --follow. Over real HTTP (curl) against an embedded server.
@Suite(.serialized, .timeLimit(.minutes(2))) struct RequestLogTests {
  typealias Server = OperatorTests.Server

  static func logs(_ server: Server, _ query: String = "") async throws -> [[String: Any]] {
    let reply = try await server.admin("GET", "/__sandbox/v1/logs" + query)
    #expect(reply.status == 200, "\(reply.body)")
    return try #require(reply.json?["entries"] as? [[String: Any]], "\(reply.body)")
  }

  static func get(_ server: Server, _ path: String, _ extra: [String] = []) async throws -> OperatorTests.Reply {
    try await OperatorTests.curl(extra + [server.base + path])
  }

  static func signIn(_ server: Server, _ email: String, _ password: String) async throws -> OperatorTests.Reply {
    try await OperatorTests.curl(
      server.json + [
        "-X", "POST", "--data-binary", #"{"email":"\#(email)","password":"\#(password)"}"#,
        server.base + "/auth/v1/token?grant_type=password",
      ])
  }

  @Test func onlyTheOperatorReadsTheLog() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    _ = try await Self.get(server, "/api/fixture/items?q=alpha")
    let bare = try await Self.get(server, "/__sandbox/v1/logs")
    #expect(bare.status == 401)
    #expect(!bare.body.contains("fixture"))
    let wrong = try await Self.get(server, "/__sandbox/v1/logs", ["-H", "Authorization: Bearer nope"])
    #expect(wrong.status == 401)
    // A user's own access token is no admin token either.
    let token = try #require(
      try await Self.signIn(server, "athlete@sandbox.test", "sandbox").json?["access_token"] as? String)
    let user = try await Self.get(server, "/__sandbox/v1/logs", ["-H", "Authorization: Bearer \(token)"])
    #expect(user.status == 401)
    #expect(try await Self.logs(server).contains { $0["path"] as? String == "/api/fixture/items" })
  }

  @Test func eachRequestIsRecordedWithWhatShapedIt() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    let rule = try #require(
      try await server.addFault(#"{"path":"/api/fixture/items","action":"status","status":503,"times":1}"#)
        .json?["id"] as? Int)
    let faulted = try await Self.get(
      server, "/api/fixture/items?q=alpha",
      ["-H", "X-Request-Id: my-request-1", "-H", "\(QARunScope.header): run7/login"])
    #expect(faulted.status == 503)
    #expect(faulted.headers.lowercased().contains("x-request-id: my-request-1"))
    let token = try #require(
      try await Self.signIn(server, "athlete@sandbox.test", "sandbox").json?["access_token"] as? String)
    let user = try await Self.get(server, "/auth/v1/user", ["-H", "Authorization: Bearer \(token)"])
    #expect(user.status == 200)
    let entries = try await Self.logs(server)
    let search = try #require(entries.first { $0["path"] as? String == "/api/fixture/items" })
    #expect(search["method"] as? String == "GET")
    #expect(search["query"] as? String == "q=alpha")
    #expect(search["status"] as? Int == 503)
    #expect(search["fault"] as? String == "rule \(rule)")
    #expect(search["requestId"] as? String == "my-request-1")
    #expect(search["qaRun"] as? String == "run7/login")
    #expect((search["latencyMs"] as? Double).map { $0 >= 0 } == true)
    #expect(search["requestBody"] == nil, "bodies only on request")
    let me = try #require(entries.last)
    #expect(me["path"] as? String == "/auth/v1/user")
    #expect(me["user"] as? String == "athlete@sandbox.test")
    // Oldest first, numbered in order; the reads of the log itself are not in it.
    let sequences = entries.compactMap { $0["sequence"] as? Int }
    #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
    #expect(!entries.contains { ($0["path"] as? String)?.hasSuffix("/logs") == true })
  }

  @Test func filtersPickTheRequests() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    #expect(try await Self.get(server, "/api/fixture/items?q=alpha").status == 200)
    #expect(try await Self.get(server, "/auth/v1/user").status == 401)
    #expect(try await Self.signIn(server, "athlete@sandbox.test", "wrong-password").status == 400)
    let token = try #require(
      try await Self.signIn(server, "parent@sandbox.test", "sandbox").json?["access_token"] as? String)
    #expect(try await Self.get(server, "/auth/v1/user", ["-H", "Authorization: Bearer \(token)"]).status == 200)
    func paths(_ query: String) async throws -> [String] {
      try await Self.logs(server, query).compactMap { entry in
        (entry["path"] as? String).map { "\(entry["status"] as? Int ?? 0) \($0)" }
      }
    }
    #expect(try await paths("?status=4xx") == ["401 /auth/v1/user", "400 /auth/v1/token"])
    #expect(try await paths("?status=200&method=GET") == ["200 /api/fixture/items", "200 /auth/v1/user"])
    #expect(try await paths("?method=POST") == ["400 /auth/v1/token", "200 /auth/v1/token"])
    #expect(try await paths("?path=/auth/**&status=2xx") == ["200 /auth/v1/token", "200 /auth/v1/user"])
    #expect(try await paths("?path=/api/*/items") == ["200 /api/fixture/items"])
    #expect(try await paths("?user=Parent@Sandbox.test") == ["200 /auth/v1/user"])
    #expect(try await paths("?since=600&limit=2") == ["200 /auth/v1/token", "200 /auth/v1/user"])
    // Values that are no filter are refused, saying what would be one.
    for bad in [
      "?status=6xx", "?status=20", "?method=get", "?path=auth", "?limit=0", "?limit=10001", "?since=0",
      // A cursor past the contract's largest (JSON's last exact integer; schemathesis found 2^53 taken).
      "?after=-1", "?after=9007199254740992",
    ] {
      let reply = try await server.admin("GET", "/__sandbox/v1/logs" + bad)
      #expect(reply.status == 400, "\(bad): \(reply.body)")
      #expect(reply.json?["error"] is String, "\(bad): \(reply.body)")
    }
  }

  @Test func noTokenPasswordOrPhotoByteReachesTheLog() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    let password = "Secret-Pass-\(UUID().uuidString.prefix(8))"
    let signUp = try await OperatorTests.curl(
      server.json + [
        "-X", "POST", "--data-binary", #"{"email":"logs@example.com","password":"\#(password)"}"#,
        server.base + "/auth/v1/signup",
      ])
    #expect(signUp.status == 200, "\(signUp.body)")
    let signIn = try await Self.signIn(server, "logs@example.com", password)
    let access = try #require(signIn.json?["access_token"] as? String)
    let refresh = try #require(signIn.json?["refresh_token"] as? String)
    _ = try await Self.get(server, "/auth/v1/user?token=\(refresh)", ["-H", "Authorization: Bearer \(access)"])
    // A photo: its bytes are never kept, whatever type it claims.
    let userID = try #require((signIn.json?["user"] as? [String: Any])?["id"] as? String)
    let photo = try #require(Data(base64Encoded: Self.pngBase64))
    let file = server.directory.path("photo.png")
    try photo.write(to: URL(fileURLWithPath: file))
    for type in ["image/png", "application/json"] {
      _ = try await OperatorTests.curl([
        "-X", "POST", "-H", "Authorization: Bearer \(access)", "-H", "Content-Type: \(type)", "-H", "x-upsert: true",
        "--data-binary", "@" + file, server.base + "/storage/v1/object/profile-photos/\(userID)/avatar",
      ])
    }
    let reply = try await server.admin("GET", "/__sandbox/v1/logs?bodies=true")
    #expect(reply.status == 200)
    for secret in [password, access, refresh, String(refresh.prefix(8))] {
      #expect(!reply.body.contains(secret), "a secret in the log: \(reply.body)")
    }
    let entries = try #require(reply.json?["entries"] as? [[String: Any]])
    let signInEntry = try #require(entries.first { $0["query"] as? String == "grant_type=password" })
    #expect((signInEntry["requestBody"] as? String)?.contains(#""password":"[REDACTED]""#) == true)
    #expect((signInEntry["responseBody"] as? String)?.contains(#""access_token":"[REDACTED]""#) == true)
    #expect((signInEntry["responseBody"] as? String)?.contains("logs@example.com") == true)
    let query = entries.first { $0["path"] as? String == "/auth/v1/user" }?["query"] as? String
    #expect(query == "token=[REDACTED]")
    // The upload that claims JSON is refused before its body is read: nothing of it is kept.
    let uploads = entries.filter { ($0["path"] as? String)?.hasPrefix("/storage/") == true }
    #expect(uploads.count == 2)
    #expect(uploads.first?["requestBody"] as? String == "<\(photo.count) bytes image/png>")
    #expect(uploads.allSatisfy { ($0["requestBody"] as? String)?.hasPrefix("<") != false })
    #expect(!reply.body.contains(Self.pngBase64.prefix(12)))
  }

  @Test func aFollowReceivesARequestMadeAfterItStarted() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    _ = try await Self.get(server, "/api/fixture/items?q=before")
    let cursor = try #require(try await server.admin("GET", "/__sandbox/v1/logs").json?["next"] as? Int)
    // Nothing new: the wait ends empty, with the same cursor.
    let idle = try await server.admin("GET", "/__sandbox/v1/logs?after=\(cursor)&wait=1")
    #expect(idle.json?["entries"] as? [[String: Any]] == nil || (idle.json?["entries"] as? [Any])?.isEmpty == true)
    #expect(idle.json?["next"] as? Int == cursor)
    let poll = Task { try await server.admin("GET", "/__sandbox/v1/logs?after=\(cursor)&wait=10&path=/api/**") }
    // The poll waits: a request that does not match does not end it, one that matches does.
    try await Task.sleep(for: .milliseconds(300))
    _ = try await Self.get(server, "/auth/v1/user")
    _ = try await Self.get(server, "/api/fixture/items?q=after")
    let reply = try await poll.value
    let entries = try #require(reply.json?["entries"] as? [[String: Any]], "\(reply.body)")
    #expect(entries.map { $0["query"] as? String } == ["q=after"])
    #expect(reply.json?["next"] as? Int == entries.last?["sequence"] as? Int)
  }

  @Test func theRingKeepsTheLastRequestsOnly() async throws {
    let log = RequestLog(capacity: 3)
    for index in 1...5 {
      log.append(
        .init(
          sequence: 0, time: Date(), method: "GET", path: "/r/\(index)", status: 200, latencyMilliseconds: 1,
          requestID: "\(index)"))
    }
    let all = log.read(.init(), after: nil, limit: 100)
    #expect(all.entries.map(\.path) == ["/r/3", "/r/4", "/r/5"])
    #expect(all.entries.map(\.sequence) == [3, 4, 5])
    #expect(all.cursor == 5)
    #expect(log.read(.init(), after: nil, limit: 2).entries.map(\.path) == ["/r/4", "/r/5"])
    // After a cursor: the first ones after it, so a follow loses none.
    let after = log.read(.init(), after: 3, limit: 1)
    #expect(after.entries.map(\.path) == ["/r/4"])
    #expect(after.cursor == 4)
    #expect(log.read(.init(), after: 1, limit: 100).entries.map(\.path) == ["/r/3", "/r/4", "/r/5"])
    // Bytes that are no text are never kept as text, whatever type they claim.
    let binary = RequestLog.BodyCapture(contentType: "application/json")
    _ = binary.add(ByteBuffer(bytes: try #require(Data(base64Encoded: Self.pngBase64))))
    #expect(binary.shown == "<70 bytes application/json>")
    // A cursor from before a restart (past the newest) reads from the oldest.
    #expect(log.read(.init(), after: 99, limit: 100).entries.count == 3)
    // The server's ring holds 10000.
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    #expect(try await server.admin("GET", "/__sandbox/v1/logs").json?["capacity"] as? Int == 10_000)
  }

  /// A 1×1 PNG.
  static let pngBase64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
}
