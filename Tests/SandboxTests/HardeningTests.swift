import Foundation
import TestSupport
import Testing

@testable import SandboxKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 44's server findings over HTTP against an embedded sandbox: passwords as GoTrue reads
/// them (finding 11), the sign-in rate limits (12), and the header and idle timeouts and the
/// close after an early refusal (10).
@Suite("Sandbox hardening")
struct SandboxHardeningTests {
  struct Reply {
    var status: Int
    var body: [String: Any]
    var headers: [String: String]

    func string(_ key: String) -> String? { body[key] as? String }
  }

  /// A running sandbox with `configure`'s options, and requests to its auth service.
  final class Server: Sendable {
    let directory: ScratchDirectory
    let sandbox: RunningSandbox

    init(_ configure: (inout SandboxOptions) -> Void = { _ in }) async throws {
      directory = try ScratchDirectory()
      var options = SandboxOptions(databasePath: directory.path("sandbox.sqlite"))
      configure(&options)
      sandbox = try await SandboxServer.start(options)
    }

    var port: Int { sandbox.baseURL.port ?? 0 }

    func stop() async {
      await sandbox.stop()
      directory.cleanUp()
    }

    func send(_ method: String, _ path: String, _ body: String? = nil, bearer: String? = nil) async throws -> Reply {
      var request = URLRequest(url: try #require(URL(string: sandbox.baseURL.absoluteString + "/auth/v1" + path)))
      request.httpMethod = method
      if let body {
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      }
      if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
      let (data, response) = try await URLSession.shared.data(for: request)
      let http = try #require(response as? HTTPURLResponse)
      var headers: [String: String] = [:]
      for (key, value) in http.allHeaderFields {
        if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
      }
      let object = data.isEmpty ? [:] : (try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:])
      return Reply(status: http.statusCode, body: object, headers: headers)
    }

    /// A JSON string literal of `text` (escapes a NUL as \u0000).
    static func literal(_ text: String) throws -> String {
      String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }

    func signUp(_ email: String, password: String) async throws -> Reply {
      try await send(
        "POST", "/signup", #"{"email":\#(try Self.literal(email)),"password":\#(try Self.literal(password))}"#)
    }

    func signIn(_ email: String, password: String) async throws -> Reply {
      try await send(
        "POST", "/token?grant_type=password",
        #"{"email":\#(try Self.literal(email)),"password":\#(try Self.literal(password))}"#)
    }
  }

  func withServer(_ configure: (inout SandboxOptions) -> Void = { _ in }, _ body: (Server) async throws -> Void)
    async throws
  {
    let server = try await Server(configure)
    do {
      try await body(server)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  // MARK: Finding 11: passwords and emails as GoTrue reads them

  @Test(.timeLimit(.minutes(3))) func passwordsOver72BytesAreRefusedAsGoTrueDoes() async throws {
    try await withServer { server in
      let long = try await server.signUp("long@example.com", password: String(repeating: "a", count: 73))
      #expect(long.status == 400, "\(long.body)")
      #expect(long.string("error_code") == "validation_failed")
      #expect(long.string("msg") == "Password cannot be longer than 72 characters")
      // Counted in bytes: 37 "é" are 37 characters but 74 bytes.
      let accented = try await server.signUp("accent@example.com", password: String(repeating: "é", count: 37))
      #expect(accented.status == 400, "\(accented.body)")
      #expect(try await server.signUp("exact@example.com", password: String(repeating: "a", count: 72)).status == 200)
      // bcrypt reads 72 bytes: a longer password that starts with the right 72 is still wrong.
      let prefixed = try await server.signIn("exact@example.com", password: String(repeating: "a", count: 80))
      #expect(prefixed.status == 400)
      #expect(prefixed.string("error_code") == "invalid_credentials")
      #expect(try await server.signIn("exact@example.com", password: String(repeating: "a", count: 72)).status == 200)

      // A change of password too.
      let session = try await server.signIn("exact@example.com", password: String(repeating: "a", count: 72))
      let token = try #require(session.string("access_token"))
      let change = try await server.send(
        "PUT", "/user", #"{"password":"\#(String(repeating: "b", count: 73))"}"#, bearer: token)
      #expect(change.status == 400, "\(change.body)")
      #expect(change.string("msg") == "Password cannot be longer than 72 characters")
    }
  }

  @Test(.timeLimit(.minutes(3))) func aNULIsRefusedInPasswordsAndEmails() async throws {
    try await withServer { server in
      // bcrypt stops at a NUL: "\u{0}secret" would sign in with "".
      let nul = try await server.signUp("nul@example.com", password: "\u{0}secret-1")
      #expect(nul.status == 400, "\(nul.body)")
      #expect(nul.string("error_code") == "validation_failed")
      #expect(try await server.signUp("nul@example.com", password: "secret-1").status == 200)
      let withNUL = try await server.signIn("nul@example.com", password: "secret-1\u{0}more")
      #expect(withNUL.status == 400)
      #expect(withNUL.string("error_code") == "invalid_credentials")

      // A NUL in an email: 400, never 500 (on SQLite and PostgreSQL alike).
      let signup = try await server.signUp("a\u{0}b@example.com", password: "secret-1")
      #expect(signup.status == 400, "\(signup.body)")
      let signin = try await server.signIn("a\u{0}b@example.com", password: "secret-1")
      #expect(signin.status == 400, "\(signin.body)")
      #expect(signin.string("error_code") == "invalid_credentials")
    }
  }

  // MARK: Finding 12: sign-in rate limits

  @Test(.timeLimit(.minutes(3))) func wrongPasswordsToOneAccountGet429WithRetryAfter() async throws {
    try await withServer({ $0.signInLimits = SignInLimits(perEmail: 3, perAddress: nil) }) { server in
      #expect(try await server.signUp("target@example.com", password: "secret-1").status == 200)
      for _ in 0..<3 {
        #expect(try await server.signIn("target@example.com", password: "wrong-password").status == 400)
      }
      let throttled = try await server.signIn("target@example.com", password: "wrong-password")
      #expect(throttled.status == 429, "\(throttled.body)")
      #expect(throttled.string("error_code") == "over_request_rate_limit")
      let retryAfter = try #require(throttled.headers["retry-after"].flatMap(Int.init))
      #expect((1...60).contains(retryAfter))
      // The right password waits too; another account does not.
      #expect(try await server.signIn("target@example.com", password: "secret-1").status == 429)
      #expect(try await server.signUp("other@example.com", password: "secret-1").status == 200)
      #expect(try await server.signIn("other@example.com", password: "secret-1").status == 200)
      // Unknown emails never count: nothing to guess.
      for _ in 0..<5 { #expect(try await server.signIn("nobody@example.com", password: "x-secret").status == 400) }
    }
  }

  @Test(.timeLimit(.minutes(3))) func wrongPasswordsFromOneAddressGet429() async throws {
    try await withServer({ $0.signInLimits = SignInLimits(perEmail: nil, perAddress: 2) }) { server in
      for name in ["one", "two", "three"] {
        #expect(try await server.signUp("\(name)@example.com", password: "secret-1").status == 200)
      }
      #expect(try await server.signIn("one@example.com", password: "wrong-password").status == 400)
      #expect(try await server.signIn("two@example.com", password: "wrong-password").status == 400)
      let third = try await server.signIn("three@example.com", password: "wrong-password")
      #expect(third.status == 429, "\(third.body)")
      #expect(third.headers["retry-after"] != nil)
    }
  }

  @Test(.timeLimit(.minutes(3))) func noLimitWhenOff() async throws {
    try await withServer({ $0.signInLimits = SignInLimits.off }) { (server: Server) async throws in
      #expect(try await server.signUp("free@example.com", password: "secret-1").status == 200)
      for _ in 0..<15 {
        let reply = try await server.signIn("free@example.com", password: "wrong-password")
        #expect(reply.status == 400)
      }
    }
  }

  // MARK: Finding 10: header and idle timeouts, the close after an early refusal

  @Test(.timeLimit(.minutes(3))) func aSlowRequestHeadIsCutOff() async throws {
    try await withServer({ $0.connectionTimeout = .seconds(1) }) { server in
      let port = server.port
      let (sent, closed, seconds, silentClosed) = try await offThePool {
        let connection = try RawConnection(port: port)
        let sent = connection.send("GET /auth/v1/user HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        // Never finished: closed about a second after it opened, not left open.
        let started = Date()
        let closed = connection.readUntilClosed(timeout: 10).closed
        let seconds = Date().timeIntervalSince(started)
        // A connection that sends nothing at all is closed too.
        let silent = try RawConnection(port: port)
        return (sent, closed, seconds, silent.readUntilClosed(timeout: 10).closed)
      }
      #expect(sent)
      #expect(closed)
      #expect(seconds < 8)
      #expect(silentClosed)
    }
  }

  @Test(.timeLimit(.minutes(3))) func aStalledBodyIsCutOff() async throws {
    try await withServer({ $0.connectionTimeout = .seconds(1) }) { server in
      let port = server.port
      let (sent, closed) = try await offThePool {
        let connection = try RawConnection(port: port)
        let sent = connection.send(
          "POST /auth/v1/signup HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"em"
        )
        return (sent, connection.readUntilClosed(timeout: 10).closed)
      }
      #expect(sent)
      #expect(closed)
    }
  }

  /// Sends `head` and then body bytes without end; returns the answer once the server has
  /// closed the connection, or nil when it is still open after 15 s (or the head could not be
  /// sent). Blocks: call it through ``offThePool(_:)``.
  static func answerBeforeClose(port: Int, head: String) throws -> String? {
    let connection = try RawConnection(port: port)
    guard connection.send(head) else { return nil }
    var answer = Data()
    let closed = eventually(timeout: 15) {
      // The client keeps sending; the server answers, then closes instead of reading on.
      connection.send(Data(repeating: 0x20, count: 16_384))
      switch connection.read() {
      case .bytes(let bytes):
        answer += bytes
        return false
      case .closed: return true
      case .nothing: return false
      }
    }
    return closed ? String(decoding: answer, as: UTF8.self) : nil
  }

  @Test(.timeLimit(.minutes(3))) func anEarlyRefusalClosesTheConnection() async throws {
    try await withServer { server in
      // An operator request without the admin token, whose body (under the 1 MB limit) is
      // never read.
      let port = server.port
      let unauthorized = try await offThePool {
        try Self.answerBeforeClose(
          port: port,
          head:
            "POST /__sandbox/v1/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n\r\n{"
        )
      }
      let refused = try #require(unauthorized, "the connection stayed open after the 401")
      #expect(refused.hasPrefix("HTTP/1.1 401"), "\(refused)")
      #expect(refused.lowercased().contains("connection: close"))

      // A declared body over the limit: 413, then closed.
      let tooLarge = try await offThePool {
        try Self.answerBeforeClose(
          port: port,
          head:
            "POST /auth/v1/signup HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"
        )
      }
      #expect(try #require(tooLarge, "the connection stayed open after the 413").hasPrefix("HTTP/1.1 413"))
    }
  }
}
