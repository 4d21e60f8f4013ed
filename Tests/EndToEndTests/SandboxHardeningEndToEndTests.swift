import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Issue 44's server findings against `deck sandbox serve` (the real binaries): the header and
/// idle timeouts and the close after an early refusal (finding 10), passwords as GoTrue reads
/// them (11), and the sign-in rate limits and `serve --rate-limit` (12).
@Suite("Sandbox hardening", .endToEndTimeLimit)
struct SandboxHardeningEndToEndTests {
  struct Reply {
    var status: Int
    var body: [String: Any]
    var headers: [String: String]
  }

  func post(_ server: SandboxProcess, _ path: String, _ body: [String: String]) async throws -> Reply {
    var request = URLRequest(url: try #require(URL(string: server.url + path)))
    request.httpMethod = "POST"
    request.httpBody = try JSONSerialization.data(withJSONObject: body)
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    var headers: [String: String] = [:]
    for (key, value) in http.allHeaderFields {
      if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
    }
    let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    return Reply(status: http.statusCode, body: object, headers: headers)
  }

  func port(_ server: SandboxProcess) throws -> Int { try #require(URL(string: server.url)?.port) }

  @Test("a connection that never finishes its request head is closed (15 s), and so is one after an early refusal")
  func timeouts() async throws {
    let server = try SandboxProcess()
    let slow = try RawConnection(port: try port(server))
    #expect(slow.send("GET /auth/v1/user HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "))
    let started = Date()
    var closed = false
    // A byte every 2 s keeps no timer of a slowloris client's choosing going.
    while !closed && Date().timeIntervalSince(started) < 40 {
      slow.send("a")
      if case .closed = slow.read() { closed = true }
      if !closed { try await Task.sleep(for: .seconds(1)) }
    }
    #expect(closed, "the slow head was still open after 40 s")
    #expect(Date().timeIntervalSince(started) < 30)

    let refused = try RawConnection(port: try port(server))
    #expect(
      refused.send(
        "POST /__sandbox/v1/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n\r\n{"
      ))
    let gone = eventually(timeout: 10) {
      refused.send(Data(repeating: 0x20, count: 16_384))
      return refused.read() == .closed
    }
    #expect(gone, "the connection stayed open after the 401")
    // The server still answers.
    let (_, response) = try await URLSession.shared.data(from: try #require(URL(string: server.url + "/auth/v1/user")))
    #expect((response as? HTTPURLResponse)?.statusCode == 401)
  }

  @Test("passwords over 72 bytes and NULs are refused with 400, as GoTrue does")
  func passwords() async throws {
    let server = try SandboxProcess()
    let long = try await post(
      server, "/auth/v1/signup", ["email": "long@example.com", "password": String(repeating: "é", count: 37)])
    #expect(long.status == 400, "\(long.body)")
    #expect(long.body["msg"] as? String == "Password cannot be longer than 72 characters")
    let nul = try await post(server, "/auth/v1/signup", ["email": "nul@example.com", "password": "\u{0}secret-1"])
    #expect(nul.status == 400, "\(nul.body)")
    let email = try await post(
      server, "/auth/v1/token?grant_type=password", ["email": "a\u{0}@example.com", "password": "secret-1"])
    #expect(email.status == 400, "\(email.body)")
  }

  @Test("wrong passwords to one account get 429 with Retry-After; --rate-limit sets or lifts the limit")
  func rateLimits() async throws {
    let server = try SandboxProcess()
    let wrong = ["email": "owner@sandbox.test", "password": "not-the-password"]
    for attempt in 1...10 {
      let reply = try await post(server, "/auth/v1/token?grant_type=password", wrong)
      #expect(reply.status == 400, "attempt \(attempt): \(reply.body)")
    }
    let throttled = try await post(server, "/auth/v1/token?grant_type=password", wrong)
    #expect(throttled.status == 429, "\(throttled.body)")
    #expect(throttled.body["error_code"] as? String == "over_request_rate_limit")
    #expect(throttled.headers["retry-after"].flatMap(Int.init) != nil)

    let bad = try DeckCLI().run(["sandbox", "serve", "--port", "0", "--rate-limit", "lots"])
    #expect(bad.status == 64, "\(bad.stderr)")
    #expect(bad.stderr.contains("--rate-limit"))
  }
}
