import DeckSupport
import FoundationEssentials
import HTTPTypes
import OpenAPIRuntime

/// Sets `User-Agent: deck/<version>` on every request.
public struct UserAgentMiddleware: ClientMiddleware {
  public init() {}

  public func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var request = request
    request.headerFields[.userAgent] = "deck/\(DeckVersion.current)"
    return try await next(request, body, baseURL)
  }
}

/// Sends `Deck-QA-Run: <scope>` on every request of a `deck qa run` step (``QARunScope``), so
/// that a sandbox keeps the scenario's fault rules and delay to its own requests.
public struct QARunMiddleware: ClientMiddleware {
  let scope: String

  /// nil when `scope` is not one (``QARunScope/isValid(_:)``).
  public init?(scope: String) {
    guard QARunScope.isValid(scope) else { return nil }
    self.scope = scope
  }

  public func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var request = request
    if let name = HTTPField.Name(QARunScope.header) { request.headerFields[name] = scope }
    return try await next(request, body, baseURL)
  }
}

/// Where a token may be sent: origins (see `AuthMiddleware.origin`) that get it, that get it
/// only because the user opted in, and that never get it (with the reason, for `--trace`).
public struct TokenPolicy: Sendable, Equatable {
  public var allowed: Set<String> = []
  /// Origin to the opt-in that lets the token go there.
  public var optIn: [String: String] = [:]
  /// Origin to why the token is withheld.
  public var withheld: [String: String] = [:]

  public init(allowed: Set<String> = [], optIn: [String: String] = [:], withheld: [String: String] = [:]) {
    self.allowed = allowed
    self.optIn = optIn
    self.withheld = withheld
  }
}

/// Adds the bearer token, but only to the origins of the token's own environment (scheme, host
/// and port compared exactly).
public struct AuthMiddleware: ClientMiddleware {
  let policy: TokenPolicy
  /// Where `--trace` notes go (nil: not tracing).
  let note: (@Sendable (String) -> Void)?
  let token: @Sendable () async throws -> String?

  public init(allowedOrigins: Set<String>, token: @escaping @Sendable () async throws -> String?) {
    self.init(policy: TokenPolicy(allowed: allowedOrigins), note: nil, token: token)
  }

  public init(
    policy: TokenPolicy, note: (@Sendable (String) -> Void)?, token: @escaping @Sendable () async throws -> String?
  ) {
    self.policy = policy
    self.note = note
    self.token = token
  }

  /// The key the middleware compares: the origin, `scheme://host:port`, with the scheme's
  /// default port written out (`https://localhost` is `https://localhost:443`, never the same
  /// origin as `http://localhost:80`). nil without an http(s) scheme or a host.
  public static func origin(scheme: String?, host: String?, port: Int?) -> String? {
    guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
    guard var host = host?.lowercased(), !host.isEmpty else { return nil }
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if host.contains(":") { host = "[\(host)]" }
    return "\(scheme)://\(host):\(port ?? (scheme == "https" ? 443 : 80))"
  }

  /// The origins a key stored before deck recorded schemes (`host` or `host:port`) stands for:
  /// `host` was `https://host:443` or `http://host:80`, and only the first is taken (plain http
  /// gets such a token only after a new sign-in); `host:port` named one port, on which one
  /// server answers whichever scheme is used. A full origin stands for itself.
  public static func origins(ofStoredKey key: String) -> [String] {
    guard !key.contains("://") else { return [key] }
    if let colon = key.lastIndex(of: ":"), !key.hasSuffix("]"), let port = Int(key[key.index(after: colon)...]) {
      let host = String(key[..<colon])
      return ["http", "https"].compactMap { origin(scheme: $0, host: host, port: port) }
    }
    return origin(scheme: "https", host: key, port: nil).map { [$0] } ?? []
  }

  public func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var request = request
    if let key = Self.origin(scheme: baseURL.scheme, host: baseURL.host, port: baseURL.port) {
      if policy.allowed.contains(key), let token = try await token() {
        request.headerFields[.authorization] = "Bearer \(token)"
      } else if let reason = policy.optIn[key], let token = try await token() {
        note?("! token sent to \(key) because of \(reason)")
        request.headerFields[.authorization] = "Bearer \(token)"
      } else if let reason = policy.withheld[key] {
        note?("! token withheld from \(key): \(reason)")
      }
    }
    return try await next(request, body, baseURL)
  }
}

/// Retries idempotent requests according to a `RetryPolicy`. With `note` (`--trace`), each
/// retry is numbered before it is made: `! retry 2/3 after 503 (in 0.2 s)`, the try it starts
/// out of the most the policy makes.
public struct RetryMiddleware: ClientMiddleware {
  let policy: RetryPolicy
  let sleep: @Sendable (Duration) async throws -> Void
  /// Where `--trace` notes go (nil: not tracing).
  let note: (@Sendable (String) -> Void)?

  public init(
    policy: RetryPolicy = .default, note: (@Sendable (String) -> Void)? = nil,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  ) {
    self.policy = policy
    self.note = note
    self.sleep = sleep
  }

  /// "! retry 2/3 after 503 (in 0.2 s)": `attempt` is the try that failed.
  static func retryNote(attempt: Int, of maxAttempts: Int, after reason: String, wait: Duration) -> String {
    "! retry \(attempt + 1)/\(maxAttempts) after \(reason) (in \(NumberText.fixed(wait / .seconds(1), digits: 1)) s)"
  }

  public func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    // A body that can be sent once only cannot be retried.
    let replayable = body == nil || body?.iterationBehavior == .multiple
    var attempt = 1
    while true {
      do {
        let (response, responseBody) = try await next(request, body, baseURL)
        let status = response.status.code
        guard replayable,
          policy.shouldRetry(method: request.method, attempt: attempt, status: status, connectError: false),
          let wait = policy.delay(
            afterAttempt: attempt, retryAfter: response.headerFields[.retryAfter], jitter: Double.random(in: 0..<1))
        else { return (response, responseBody) }
        note?(Self.retryNote(attempt: attempt, of: policy.maxAttempts, after: "\(status)", wait: wait))
        try await sleep(wait)
      } catch {
        // The runtime wraps the transport's DeckError in a ClientError: look inside.
        guard let inner = UnderlyingError.deckError(error), inner.isConnectError, replayable,
          policy.shouldRetry(method: request.method, attempt: attempt, status: nil, connectError: true),
          let wait = policy.delay(afterAttempt: attempt, retryAfter: nil, jitter: Double.random(in: 0..<1))
        else { throw error }
        note?(Self.retryNote(attempt: attempt, of: policy.maxAttempts, after: "a connection error", wait: wait))
        try await sleep(wait)
      }
      attempt += 1
    }
  }
}

/// Turns every non-2xx response into a `DeckError`, so commands only handle success, and
/// exit codes come from one mapping (`HTTPErrorMapping`).
public struct ErrorMappingMiddleware: ClientMiddleware {
  let service: String
  /// Operations whose error responses the command reads itself.
  let passthrough: Set<String>

  public init(service: String, passthrough: Set<String> = []) {
    self.service = service
    self.passthrough = passthrough
  }

  public func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var (response, responseBody) = try await next(request, body, baseURL)
    let status = response.status.code
    // The answer carries its service into the errors the generated client makes of it.
    response.headerFields[UndocumentedResponse.serviceField] = service
    // A redirect is never what an API call expects (and the contracts declare none), so it is
    // an error for every operation; error statuses only for operations that do not read them.
    let redirect = (300...399).contains(status)
    guard redirect || (status >= 400 && !passthrough.contains(operationID)) else { return (response, responseBody) }
    var data = Data()
    if let responseBody { data = try await Data(collecting: responseBody, upTo: 64 * 1024) }
    throw HTTPErrorMapping.error(
      status: status, body: data, service: service, location: response.headerFields[.location])
  }
}

/// A status the operation's contract does not document (204 where it documents 200, a 1xx),
/// which the generated client hands over as `undocumented`: one message that names the
/// service, the operation and the status, never the runtime's types.
public enum UndocumentedResponse {
  /// The field `ErrorMappingMiddleware` sets on every answer it passes on: the service that
  /// answered (deck's own mark, after the answer arrived: never sent, never read from the
  /// wire). The generated client's errors carry the answer, and with it the service.
  public static let serviceField = HTTPField.Name("X-Deck-Service")!

  /// The service an answer came from, as `ErrorMappingMiddleware` marked it.
  public static func service(in fields: HTTPFields?) -> String? {
    fields?[serviceField]
  }

  /// `documented`: the contract has the status, but not where the command stands.
  public static func error(service: String, operationID: String, status: Int?, documented: Bool = false) -> DeckError {
    let answer = status.map { "HTTP \($0)" } ?? "a response"
    let why = documented ? "which deck does not expect there" : "which its contract does not document for it"
    return DeckError(
      .failure, "The \(service) service answered \(operationID) with \(answer), \(why).",
      hint: "Is the environment's URL right? Check with: deck env show; rerun with --trace to see the response.")
  }
}

/// What an HTTP error status means to a deck user, and its exit code (see docs/GUIDE.md, "Exit codes").
public enum HTTPErrorMapping {
  public static func error(status: Int, body: Data, service: String, location: String? = nil) -> DeckError {
    let serverMessage = message(from: body)
    // Inside deck's own sentence, the server's message loses its final period ("failed: X (HTTP
    // 503 from nudge)." and "Not signed in: X.", never "X.." or "X. (HTTP …).").
    let clause = serverMessage.map(Self.clause)
    let detail = clause.map { "\($0) (HTTP \(status) from \(service))" } ?? "HTTP \(status) from \(service)"
    switch status {
    case 300...399:
      let target = location.map { " to \(TerminalText.sanitize(String($0.prefix(300))))" } ?? ""
      return DeckError(
        .failure,
        "The \(service) service redirected\(target) (HTTP \(status)); deck does not follow redirects for API calls.",
        hint:
          "Check the environment's URL for \(service) (deck env show): it may need https, or the address the redirect names."
      )
    case 400, 409, 422:
      return DeckError(
        .rejected(status: status), serverMessage ?? "The \(service) service rejected the request (HTTP \(status)).")
    case 401:
      return DeckError(
        .unauthorized(status: 401),
        clause.map { "Not signed in: \($0)." } ?? "Not signed in (HTTP 401 from \(service)).",
        hint: "Sign in with: deck auth login --email EMAIL --password-stdin")
    case 403:
      return DeckError(.unauthorized(status: 403), serverMessage ?? "Not allowed (HTTP 403 from \(service)).")
    case 404:
      return DeckError(.notFound, serverMessage ?? "Not found (HTTP 404 from \(service)).")
    case 429:
      return DeckError(
        .unavailable(status: 429), "The \(service) service is rate limiting deck: \(detail).",
        hint: "Wait and try again.")
    case 500...599:
      return DeckError(
        .unavailable(status: status), "The \(service) service failed: \(detail).",
        hint: "Try again later; if it persists, rerun with --trace and report it.")
    default:
      return DeckError(.failure, "Unexpected response: \(detail).")
    }
  }

  /// A message as a clause of a longer sentence: without its final periods.
  static func clause(_ message: String) -> String {
    var text = Substring(message)
    while text.hasSuffix(".") && !text.hasSuffix("...") { text = text.dropLast() }
    return String(text)
  }

  /// The human message in an error body: `error`, `message`, `msg` or `error_description`.
  /// Control characters are removed: the text comes from the server and goes to a terminal.
  public static func message(from body: Data) -> String? {
    rawMessage(from: body).map { TerminalText.sanitize($0) }
  }

  static func rawMessage(from body: Data) -> String? {
    guard let object = try? JSONDecoder().decode(ErrorFields.self, from: body) else {
      let text = String(decoding: body.prefix(300), as: UTF8.self).trimming(.whitespacesAndNewlines)
      return text.isEmpty || text.hasPrefix("<") ? nil : text
    }
    return [object.error_description, object.message, object.msg, object.error].lazy.compactMap { $0?.text }
      .first { !$0.isEmpty }
  }

  /// An error body's message fields; any of them may be missing or not text.
  struct ErrorFields: Decodable {
    struct Text: Decodable {
      var text: String?
      init(from decoder: any Decoder) throws { text = try? decoder.singleValueContainer().decode(String.self) }
    }
    var error_description: Text?
    var message: Text?
    var msg: Text?
    var error: Text?
  }
}
