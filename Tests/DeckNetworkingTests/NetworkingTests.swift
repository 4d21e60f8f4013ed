import DeckNetworking
import DeckSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import TestFixtures
import Testing

@Suite("Retry policy")
struct RetryPolicyTests {
  init() { FeatureServices.register() }

  let policy = RetryPolicy.default

  @Test func onlyIdempotentRequestsAreRetried() {
    #expect(policy.shouldRetry(method: .get, attempt: 1, status: 503, connectError: false))
    #expect(policy.shouldRetry(method: .put, attempt: 1, status: 503, connectError: false))
    #expect(!policy.shouldRetry(method: .post, attempt: 1, status: 503, connectError: false))
    #expect(!policy.shouldRetry(method: .post, attempt: 1, status: nil, connectError: true))
  }

  @Test(arguments: [429, 502, 503, 504])
  func retryableStatuses(status: Int) {
    #expect(policy.shouldRetry(method: .get, attempt: 1, status: status, connectError: false))
  }

  @Test(arguments: [400, 401, 404, 409, 501])
  func otherStatusesAreFinal(status: Int) {
    #expect(!policy.shouldRetry(method: .get, attempt: 1, status: status, connectError: false))
  }

  /// workspace-onboarding.md §6: "500: retry once; show a generic error" (found by the
  /// shipped QA scenario workspace-6.15). Once only, and never a request that writes.
  @Test func aServerErrorIsRetriedOnce() {
    #expect(policy.shouldRetry(method: .get, attempt: 1, status: 500, connectError: false))
    #expect(!policy.shouldRetry(method: .get, attempt: 2, status: 500, connectError: false))
    #expect(!policy.shouldRetry(method: .post, attempt: 1, status: 500, connectError: false))
  }

  @Test func triesAreBounded() {
    #expect(policy.shouldRetry(method: .get, attempt: 2, status: nil, connectError: true))
    #expect(!policy.shouldRetry(method: .get, attempt: 3, status: nil, connectError: true))
  }

  @Test func backoffGrowsWithJitterAndIsCapped() throws {
    let first = try #require(policy.delay(afterAttempt: 1, retryAfter: nil, jitter: 0))
    let second = try #require(policy.delay(afterAttempt: 2, retryAfter: nil, jitter: 0))
    #expect(first == .milliseconds(100))
    #expect(second == .milliseconds(200))
    let jittered = try #require(policy.delay(afterAttempt: 1, retryAfter: nil, jitter: 0.999))
    #expect(jittered > first && jittered < .milliseconds(200))
    let late = try #require(policy.delay(afterAttempt: 15, retryAfter: nil, jitter: 1))
    #expect(late <= policy.maxDelay)
  }

  @Test func retryAfterIsHonoured() {
    #expect(policy.delay(afterAttempt: 1, retryAfter: "2", jitter: 0.5) == .seconds(2))
    #expect(policy.delay(afterAttempt: 1, retryAfter: "3600", jitter: 0.5) == nil)
    let now = RetryPolicy.parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_770)
    #expect(now == 7)
  }
}

@Suite("Middleware")
struct MiddlewareTests {
  init() { FeatureServices.register() }

  typealias Next = @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  let base = URL(string: "https://flyrpro.app")!

  @Test func retriesTransientFailuresThenSucceeds() async throws {
    let calls = Mutex(0)
    let next: Next = { _, _, _ in
      let call = calls.withLock {
        $0 += 1; return $0
      }
      return (HTTPResponse(status: call < 3 ? .serviceUnavailable : .ok), nil)
    }
    let middleware = RetryMiddleware(sleep: { _ in })
    let (response, _) = try await middleware.intercept(
      HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil, baseURL: base, operationID: "x",
      next: next)
    #expect(response.status == .ok)
    #expect(calls.withLock { $0 } == 3)
  }

  @Test func postIsSentOnce() async throws {
    let calls = Mutex(0)
    let next: Next = { _, _, _ in
      calls.withLock { $0 += 1 }
      throw DeckError(.unavailable(status: nil), "refused", isConnectError: true)
    }
    await #expect(throws: DeckError.self) {
      try await RetryMiddleware(sleep: { _ in }).intercept(
        HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/x"), body: nil, baseURL: base, operationID: "x",
        next: next)
    }
    #expect(calls.withLock { $0 } == 1)
  }

  @Test func tokenGoesOnlyToItsOwnHosts() async throws {
    let seen = Mutex<[String?]>([])
    let next: Next = { request, _, _ in
      seen.withLock { $0.append(request.headerFields[.authorization]) }
      return (HTTPResponse(status: .ok), nil)
    }
    let middleware = AuthMiddleware(allowedOrigins: ["https://flyrpro.app:443", "http://127.0.0.1:8787"]) {
      "secret-token"
    }
    let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")
    _ = try await middleware.intercept(request, body: nil, baseURL: base, operationID: "x", next: next)
    _ = try await middleware.intercept(
      request, body: nil, baseURL: URL(string: "https://evil.example.com")!, operationID: "x", next: next)
    _ = try await middleware.intercept(
      request, body: nil, baseURL: URL(string: "http://127.0.0.1:9999")!, operationID: "x", next: next)
    #expect(seen.withLock { $0 } == ["Bearer secret-token", nil, nil])
  }

  /// Issue 31: `--trace` marks a response the sandbox shaped (its X-Sandbox-Fault and
  /// X-Sandbox-Delay headers) and numbers the retries, stacked as DeckContext stacks them.
  @Test func traceMarksWhatTheSandboxShapedAndNumbersRetries() async throws {
    let lines = Mutex<[String]>([])
    let sink: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
    let calls = Mutex(0)
    let next: Next = { _, _, _ in
      let call = calls.withLock {
        $0 += 1
        return $0
      }
      var response = HTTPResponse(status: call < 3 ? .serviceUnavailable : .ok)
      if call == 1 { response.headerFields[TraceMiddleware.sandboxFault] = "rule 2" }
      if call == 3 { response.headerFields[TraceMiddleware.sandboxDelay] = "2000ms" }
      return (response, nil)
    }
    let trace = TraceMiddleware(level: .requests, sink: sink)
    let retry = RetryMiddleware(note: sink, sleep: { _ in })
    let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")
    let (response, _) = try await retry.intercept(request, body: nil, baseURL: base, operationID: "x") {
      try await trace.intercept($0, body: $1, baseURL: $2, operationID: "x", next: next)
    }
    #expect(response.status == .ok)
    let traced = lines.withLock { $0 }
    #expect(traced.count == 8, "\(traced)")
    #expect(traced[1].hasPrefix("< 503 GET https://flyrpro.app/x ("), "\(traced)")
    #expect(traced[1].hasSuffix(" ms) [sandbox fault rule 2]"), "\(traced)")
    #expect(traced[2].hasPrefix("! retry 2/3 after 503 (in 0."), "\(traced)")
    #expect(traced[4].hasSuffix(" ms)"), "an unmarked response: \(traced)")
    #expect(traced[5].hasPrefix("! retry 3/3 after 503 (in 0."), "\(traced)")
    #expect(traced[7].hasSuffix(" ms) [sandbox delay 2000ms]"), "\(traced)")
  }

  @Test func traceRedactsSecrets() async throws {
    let lines = Mutex<[String]>([])
    let trace = TraceMiddleware(level: .bodies) { line in lines.withLock { $0.append(line) } }
    var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/auth/v1/token?grant_type=password")
    request.headerFields[.authorization] = "Bearer secret-token"
    let next: Next = { _, _, _ in
      (
        HTTPResponse(status: .ok),
        HTTPBody(#"{"access_token":"secret-token","refresh_token":"r-secret","user":{"email":"a@x.test"}}"#)
      )
    }
    let (_, body) = try await trace.intercept(
      request, body: HTTPBody(#"{"email":"a@x.test","password":"hunter2"}"#), baseURL: base, operationID: "token",
      next: next)
    let passed = try await String(collecting: body!, upTo: 1000)
    #expect(passed.contains("secret-token"), "the caller still gets the real body")
    let traced = lines.withLock { $0.joined(separator: "\n") }
    #expect(!traced.contains("secret-token"))
    #expect(!traced.contains("r-secret"))
    #expect(!traced.contains("hunter2"))
    #expect(traced.contains("a@x.test"))
    #expect(traced.contains("[REDACTED]"))
  }

  @Test func inviteTokensInURLsAreRedacted() {
    #expect(
      Redactor.redact(url: "https://x/api/invites/validate?token=abc&x=1")
        == "https://x/api/invites/validate?token=[REDACTED]&x=1")
  }
}
