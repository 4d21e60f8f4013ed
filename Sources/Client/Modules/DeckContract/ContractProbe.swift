import ContractCheck
import DeckConfig
import DeckCore
import DeckNetworking
import DeckSupport
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime

/// Sends the safe operations of the contracts to an environment and checks each answer against
/// its document. Safe by construction: only GET and HEAD are ever built; at most `budget`
/// requests, `rate` a second; a 429's Retry-After is obeyed and three in a row stop the run;
/// deck's transport follows no redirect; 401, 403 and 429 are inconclusive, not drift.
struct ContractProbe {
  struct Settings: Sendable {
    /// Requests a second.
    var rate: Double = 2
    /// Requests in all (a 429's retry counts).
    var budget: Int = 100
    /// The longest Retry-After obeyed; a longer one ends the run.
    var longestWait: Duration = .seconds(60)
    static let consecutiveRateLimits = 3
    /// The most of a body read (the transport stops there: `ResponseBodyLimit`).
    static let bodyLimit = 4 * 1024 * 1024
  }

  let context: DeckContext
  let settings: Settings
  let fixtures: ContractFixtures
  let fixturesPath: String
  /// Whether a token is there to send; without one, the operations that need it are skipped.
  var signedIn = true

  /// Why an operation that needs a token is not sent while nobody is signed in.
  static let signInToCheck = "sign in to check: the operation needs a signed-in account (deck auth login)"

  /// Whether the context has a token to send: `DECK_TOKEN`, or the environment's active account.
  static func signedIn(_ context: DeckContext) throws -> Bool {
    if let token = context.session.processEnvironment["DECK_TOKEN"], !token.isEmpty { return true }
    return try context.tokenStore.accounts(in: context.environment().name).activeSession != nil
  }

  /// Sends `operations` one after the other and returns one result each.
  func run(_ operations: [(ContractCatalog.Entry, ContractOperation)]) async throws -> ContractRun {
    var results: [ContractResult] = []
    var sent = 0
    var lastSend: ContinuousClock.Instant?
    var rateLimitedInARow = 0
    var stopped: String?
    let interval = Duration.milliseconds(Int64(1000 / max(settings.rate, 0.01)))
    for (entry, operation) in operations {
      var result = ContractResult(entry: entry, operation: operation)
      if let stopped {
        result.outcome = .skipped(stopped)
        results.append(result)
        continue
      }
      guard operation.isSafe else {
        result.outcome = .skipped("\(operation.method) changes data: only GET and HEAD are sent")
        results.append(result)
        continue
      }
      guard signedIn || !operation.requiresAuth else {
        result.outcome = .skipped(Self.signInToCheck)
        results.append(result)
        continue
      }
      let request: HTTPRequest
      switch build(operation) {
      case .failure(let reason):
        result.outcome = .skipped(reason.text)
        results.append(result)
        continue
      case .success(let built):
        request = built
      }
      result.request = "\(operation.method) \(entry.document.basePath.trimmingSuffix("/"))\(request.path ?? "")"
      while true {
        guard sent < settings.budget else {
          stopped = "not sent: the budget of \(settings.budget) requests is spent (--max-requests)"
          result.outcome = .skipped(stopped ?? "")
          break
        }
        if let lastSend {
          let wait = lastSend + interval - .now
          if wait > .zero { try await Task.sleep(for: wait) }
        }
        lastSend = .now
        sent += 1
        let answer: ContractResponse
        do {
          answer = try await send(request, operation: operation, entry: entry)
        } catch let error as DeckError where error.kind == .unauthorized(status: nil) {
          throw error
        } catch {
          result.outcome = .unreachable(ErrorPresenter.deckError(for: error).message)
          break
        }
        result.status = answer.status
        if answer.status == 429 {
          rateLimitedInARow += 1
          let retryAfter = Self.retryAfter(answer.headers["retry-after"])
          if rateLimitedInARow >= Settings.consecutiveRateLimits {
            stopped = "not sent: the service answered 429 (too many requests) \(rateLimitedInARow) times in a row"
            result.outcome = .inconclusive("HTTP 429 \(rateLimitedInARow) times in a row; the check stopped")
            break
          }
          if let retryAfter, retryAfter > settings.longestWait {
            stopped = "not sent: the service asked to wait \(retryAfter) (Retry-After)"
            result.outcome = .inconclusive("HTTP 429 with Retry-After \(retryAfter)")
            break
          }
          try await Task.sleep(for: retryAfter ?? interval)
          continue
        }
        rateLimitedInARow = 0
        if answer.status == 401 || answer.status == 403 {
          result.outcome = .inconclusive(
            "HTTP \(answer.status): the \(operation.requiresAuth ? "account" : "request") may not read it here")
        } else {
          let findings = operation.check(answer)
          result.outcome = findings.isEmpty ? .passed : .drift(findings)
        }
        break
      }
      results.append(result)
    }
    let stoppedByRateLimit = stopped?.contains("429") == true
    return ContractRun(results: results, requests: sent, stoppedByRateLimit: stoppedByRateLimit)
  }

  /// The request for `operation`: its path with the path parameters filled in, and the
  /// required query and header parameters, from the fixtures, else the document's examples.
  func build(_ operation: ContractOperation) -> Result<HTTPRequest, Reason> {
    var path = operation.path
    var query: [String] = []
    var headers = HTTPFields()
    for parameter in operation.parameters {
      let value = fixtures.value(parameter.name, operation: operation.id) ?? parameter.examples.first
      guard let value else {
        if parameter.required || parameter.location == .path {
          return .failure(
            Reason(
              "no value for the \(parameter.location.rawValue) parameter \(parameter.name): add it to \(fixturesPath)"))
        }
        continue
      }
      // Optional parameters go out only when the fixtures name them.
      if !parameter.required, parameter.location != .path,
        fixtures.value(parameter.name, operation: operation.id) == nil
      {
        continue
      }
      switch parameter.location {
      case .path:
        path = path.replacing("{\(parameter.name)}", with: Self.encode(value, allowed: .segment))
      case .query:
        query.append(Self.encode(parameter.name, allowed: .query) + "=" + Self.encode(value, allowed: .query))
      case .header:
        guard let name = HTTPField.Name(parameter.name) else {
          return .failure(Reason("the header parameter \(parameter.name) is not a valid header name"))
        }
        headers[name] = value
      case .cookie:
        if parameter.required { return .failure(Reason("cookie parameters are not sent (\(parameter.name))")) }
      }
    }
    if !query.isEmpty { path += "?" + query.joined(separator: "&") }
    let method: HTTPRequest.Method = operation.method == "HEAD" ? .head : .get
    return .success(HTTPRequest(method: method, scheme: nil, authority: nil, path: path, headerFields: headers))
  }

  struct Reason: Error {
    var text: String
    init(_ text: String) { self.text = text }
  }

  /// Sends one request through deck's middleware (user agent, the token for the environment's
  /// own hosts only, --trace), but neither retries nor error mapping: every answer is checked.
  func send(_ request: HTTPRequest, operation: ContractOperation, entry: ContractCatalog.Entry) async throws
    -> ContractResponse
  {
    let client = try await context.client(
      entry.service, path: entry.document.basePath, auth: operation.requiresAuth ? .required : .none
    ) { url, transport, middlewares in
      RawClient(
        serverURL: url, transport: transport,
        middlewares: middlewares.filter { !($0 is RetryMiddleware) && !($0 is ErrorMappingMiddleware) })
    }
    return try await client.send(request, operationID: operation.id)
  }

  /// Retry-After as seconds or an HTTP date, read as the retry middleware reads it
  /// (`RetryPolicy.parseRetryAfter`: finite, at most a year, fuzzed).
  static func retryAfter(_ value: String?) -> Duration? {
    guard let value, let seconds = RetryPolicy.parseRetryAfter(value) else { return nil }
    return .milliseconds(Int64((seconds * 1000).rounded(.up)))
  }

  enum Allowed { case segment, query }

  static func encode(_ text: String, allowed: Allowed) -> String {
    let extra = Array((allowed == .segment ? "-._~:@!$'()*,;" : "-._~").utf8)
    var encoded = ""
    for byte in text.utf8 {
      let isAlphanumeric =
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      if isAlphanumeric || extra.contains(byte) {
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        encoded += "%" + NumberText.hex(byte, width: 2, uppercase: true)
      }
    }
    return encoded
  }
}

/// A generated client's stack, for requests deck builds itself (`contract check`, `deck api`).
struct RawClient: Sendable {
  let serverURL: URL
  let transport: any ClientTransport
  let middlewares: [any ClientMiddleware]

  func send(_ request: HTTPRequest, body: HTTPBody? = nil, operationID: String) async throws -> ContractResponse {
    let transport = transport
    var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = {
      try await transport.send($0, body: $1, baseURL: $2, operationID: operationID)
    }
    for middleware in middlewares.reversed() {
      let inner = next
      next = { try await middleware.intercept($0, body: $1, baseURL: $2, operationID: operationID, next: inner) }
    }
    // The transport stops reading at the limit, while the body streams in.
    let (response, bytes) = try await ResponseBodyLimit.$bytes.withValue(ContractProbe.Settings.bodyLimit) {
      let (response, body) = try await next(request, body, serverURL)
      guard let body else { return (response, [UInt8]()) }
      return (response, Array(try await Data(collecting: body, upTo: ContractProbe.Settings.bodyLimit)))
    }
    var headers: [String: String] = [:]
    for field in response.headerFields {
      let name = field.name.canonicalName
      headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
    }
    return ContractResponse(status: response.status.code, headers: headers, body: bytes)
  }
}

extension String {
  func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
