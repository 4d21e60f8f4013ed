import DeckConfig
import DeckNetworking
import DeckSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import TestFixtures
import Testing

typealias Next = @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)

/// What the OpenAPI runtime throws when the transport fails: the DeckError, wrapped in a
/// ClientError that carries the operation's input and the request body.
func wrapped(_ error: any Error, body: String) -> ClientError {
  ClientError(
    operationID: "token", operationInput: ["password": "hunter2-input"],
    request: HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1:9", path: "/auth/v1/token"),
    requestBody: HTTPBody(body), baseURL: URL(string: "http://127.0.0.1:9"), response: nil, responseBody: nil,
    causeDescription: "Transport threw an error.", underlyingError: error)
}

@Suite("Hostile Retry-After")
struct HostileRetryAfterTests {
  init() { FeatureServices.register() }

  let policy = RetryPolicy.default

  @Test(arguments: [
    "1e300", "inf", "-inf", "nan", "NaN", "-1", "+5", "1.5", "0x10", "99999999999999999999999999",
    "9223372036854775807", "31536001", "", "   ", "Sun, 06 Nov 9223372036854775807 08:49:37 GMT",
    "Sun, 06 Nov 99999 08:49:37 GMT", "Sun, 99 Nov 2026 08:49:37 GMT", "Sun, 06 Nov 2026 99:49:37 GMT",
    "Sun, 06 Nov 2026 08:49:-1 GMT", "Sun, 06 Nov -2026 08:49:37 GMT", "Fri, 31 Dec 9999 23:59:59 GMT",
  ])
  func neverTrapsAndEndsTheRetries(value: String) {
    // Before: Int64(1e300 * 1000) trapped (exit 132), and a huge year overflowed. Then these
    // fell through to the normal backoff (3 tries) while "3600" ended the retries; the README
    // says a value that is not seconds or a valid HTTP date, or over 30 s, ends them.
    #expect(policy.delay(afterAttempt: 1, retryAfter: value, jitter: 0.5) == nil)
    let parsed = RetryPolicy.parseRetryAfter(value, now: 1_700_000_000)
    if let parsed { #expect(parsed.isFinite && parsed >= 0 && parsed <= RetryPolicy.maxRetryAfterSeconds) }
  }

  @Test func validValuesStillWork() {
    #expect(policy.delay(afterAttempt: 1, retryAfter: " 2 ", jitter: 0.5) == .seconds(2))
    #expect(policy.delay(afterAttempt: 1, retryAfter: "0", jitter: 0.5) == .zero)
    #expect(policy.delay(afterAttempt: 1, retryAfter: "31", jitter: 0.5) == nil, "longer than deck waits")
    #expect(RetryPolicy.parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_770) == 7)
    #expect(RetryPolicy.parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_780) == 0, "a past date")
    #expect(RetryPolicy.parseRetryAfter("1e300") == nil)
    #expect(RetryPolicy.parseRetryAfter("inf") == nil)
  }

  @Test(arguments: ["1e300", "inf", "soon", "Sun, 06 Nov 9223372036854775807 08:49:37 GMT", "31"])
  func theMiddlewareStopsAtAnUnusableRetryAfter(value: String) async throws {
    let calls = Mutex(0)
    let next: Next = { _, _, _ in
      calls.withLock { $0 += 1 }
      var response = HTTPResponse(status: .serviceUnavailable)
      response.headerFields[.retryAfter] = value
      return (response, nil)
    }
    let (response, _) = try await RetryMiddleware(sleep: { _ in }).intercept(
      HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil,
      baseURL: URL(fileURLWithPath: "/"), operationID: "x", next: next)
    #expect(response.status == .serviceUnavailable)
    #expect(calls.withLock { $0 } == 1, "one try for Retry-After: \(value)")
  }

  @Test func nonFiniteJitterIsIgnored() {
    #expect(policy.delay(afterAttempt: 1, retryAfter: nil, jitter: .nan) == .milliseconds(100))
    #expect(policy.delay(afterAttempt: 1, retryAfter: nil, jitter: .infinity) == .milliseconds(100))
  }

  /// fuzz/corpus/retryafter/regression-*: `attempt - 1` overflowed for Int.min.
  @Test func anyAttemptNumberIsSafe() {
    for attempt in [Int.min, -1, 0, 1, Int.max] {
      #expect(RetryPolicy.default.delay(afterAttempt: attempt, retryAfter: nil, jitter: 0.5) != nil)
    }
  }
}

@Suite("Secrets in traces, connect errors, redirects")
struct TraceAndTransportErrorTests {
  init() { FeatureServices.register() }

  let base = URL(string: "http://127.0.0.1:9")!

  @Test func aFailedSendTracesTheMappedMessageOnly() async throws {
    let lines = Mutex<[String]>([])
    let trace = TraceMiddleware(level: .requests) { line in lines.withLock { $0.append(line) } }
    let refused = DeckError(
      .unavailable(status: nil), "Cannot reach 127.0.0.1:9: connection refused.", isConnectError: true)
    let next: Next = { _, _, _ in
      throw wrapped(refused, body: #"{"email":"a@b.co","password":"hunter2-body","refresh_token":"r-secret"}"#)
    }
    await #expect(throws: (any Error).self) {
      try await trace.intercept(
        HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/auth/v1/token"), body: nil, baseURL: base,
        operationID: "token", next: next)
    }
    let traced = lines.withLock { $0.joined(separator: "\n") }
    #expect(traced.contains("connection refused"))
    #expect(!traced.contains("hunter2"))
    #expect(!traced.contains("r-secret"))
  }

  @Test func retriesSeeConnectErrorsThroughTheRuntimesWrapper() async throws {
    let calls = Mutex(0)
    let next: Next = { _, _, _ in
      calls.withLock { $0 += 1 }
      throw wrapped(DeckError(.unavailable(status: nil), "refused", isConnectError: true), body: "")
    }
    await #expect(throws: ClientError.self) {
      try await RetryMiddleware(sleep: { _ in }).intercept(
        HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil, baseURL: base,
        operationID: "x", next: next)
    }
    #expect(calls.withLock { $0 } == RetryPolicy.default.maxAttempts)
  }

  @Test(arguments: [301, 302, 303, 307, 308])
  func redirectsAreAClearError(status: Int) async throws {
    let next: Next = { _, _, _ in
      var response = HTTPResponse(status: .init(code: status))
      response.headerFields[.location] = "https://login.example.com/\u{1B}[2Jsso"
      return (response, nil)
    }
    let error = await #expect(throws: DeckError.self) {
      try await ErrorMappingMiddleware(service: "auth").intercept(
        HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/token"), body: nil, baseURL: base,
        operationID: "token", next: next)
    }
    #expect(error?.exitCode == ExitCode.failure)
    #expect(error?.message.contains("redirected to https://login.example.com/") == true, "\(String(describing: error))")
    #expect(error?.message.contains("does not follow redirects") == true)
    #expect(error?.message.contains("\u{1B}") == false)
  }

  @Test func serverTextLosesItsControlCharacters() {
    let body = Data(#"{"error":"bad \u001b]0;pwned\u0007\u001b[2J\u009b31mthing"}"#.utf8)
    let error = HTTPErrorMapping.error(status: 400, body: body, service: "flyr")
    #expect(error.message == "bad ]0;pwned[2J31mthing")
    #expect(HTTPErrorMapping.message(from: Data("plain \u{1B}[31mred\r\n".utf8)) == "plain [31mred")
    #expect(TerminalText.sanitize("a\tb\nc\u{07}", keepNewlines: true) == "a\tb\nc")
    #expect(TerminalText.sanitize("a\tb\nc") == "a b c")
  }

  @Test func withheldAndOptInTokensAreTraced() async throws {
    let notes = Mutex<[String]>([])
    let seen = Mutex<[String?]>([])
    let next: Next = { request, _, _ in
      seen.withLock { $0.append(request.headerFields[.authorization]) }
      return (HTTPResponse(status: .ok), nil)
    }
    let policy = TokenPolicy(
      allowed: ["https://flyrpro.app:443"], optIn: ["https://opt.example.com:443": "DECK_SEND_TOKEN_TO_OVERRIDES=1"],
      withheld: ["https://evil.example.com:443": "DECK_FLYR_URL replaces the URL the token was stored for"])
    let middleware = AuthMiddleware(policy: policy, note: { note in notes.withLock { $0.append(note) } }) { "t" }
    let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")
    for host in ["https://flyrpro.app", "https://evil.example.com", "https://opt.example.com"] {
      _ = try await middleware.intercept(
        request, body: nil, baseURL: try #require(URL(string: host)), operationID: "x", next: next)
    }
    #expect(seen.withLock { $0 } == ["Bearer t", nil, "Bearer t"])
    let traced = notes.withLock { $0 }
    #expect(traced.count == 2)
    #expect(traced.first?.contains("withheld from https://evil.example.com:443") == true)
    #expect(
      traced.last?.contains("sent to https://opt.example.com:443 because of DECK_SEND_TOKEN_TO_OVERRIDES=1") == true)
  }
}
