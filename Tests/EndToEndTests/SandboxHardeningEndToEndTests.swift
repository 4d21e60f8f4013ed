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
    let port = try port(server)
    let (sent, closed, seconds) = try await offThePool {
      let slow = try RawConnection(port: port)
      let sent = slow.send("GET /auth/v1/user HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
      let started = Date()
      var closed = false
      // A byte every second keeps no timer of a slowloris client's choosing going.
      while !closed && Date().timeIntervalSince(started) < 40 {
        slow.send("a")
        if case .closed = slow.read() { closed = true }
        if !closed { usleep(1_000_000) }
      }
      return (sent, closed, Date().timeIntervalSince(started))
    }
    #expect(sent)
    #expect(closed, "the slow head was still open after 40 s")
    #expect(seconds < 30)

    let (refusedSent, gone) = try await offThePool {
      let refused = try RawConnection(port: port)
      let sent = refused.send(
        "POST /__sandbox/v1/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n\r\n{"
      )
      let gone = eventually(timeout: 10) {
        refused.send(Data(repeating: 0x20, count: 16_384))
        return refused.read() == .closed
      }
      return (sent, gone)
    }
    #expect(refusedSent)
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
    // Three a minute, so that the failures fall in one minute even on a loaded machine; the
    // requests are curl's, on a thread of their own (see offThePool).
    let server = try SandboxProcess(extraArguments: ["--rate-limit", "3:off"])
    let url = server.url + "/auth/v1/token?grant_type=password"
    let answers = try await offThePool { () -> [String] in
      try (1...4).map { _ in
        let curl = try ChildProcess(
          "/usr/bin/curl",
          [
            "-s", "-i", "--max-time", "20", "-H", "Content-Type: application/json", "--data",
            #"{"email": "owner@sandbox.test", "password": "not-the-password"}"#, url,
          ], environment: ProcessInfo.processInfo.environment)
        return try curl.finish().stdout
      }
    }
    for (attempt, answer) in answers.prefix(3).enumerated() {
      #expect(answer.hasPrefix("HTTP/1.1 400"), "attempt \(attempt + 1): \(answer)")
    }
    let throttled = answers.last ?? ""
    #expect(throttled.hasPrefix("HTTP/1.1 429"), "\(throttled)")
    #expect(throttled.contains("over_request_rate_limit"))
    #expect(throttled.lowercased().contains("retry-after: "))

    let bad = try DeckCLI().run(["sandbox", "serve", "--port", "0", "--rate-limit", "lots"])
    #expect(bad.status == 64, "\(bad.stderr)")
    #expect(bad.stderr.contains("--rate-limit"))
  }

}
