import AuthAPI
import DeckAuth
import DeckConfig
import DeckNetworking
import DeckSupport
import FoundationEssentials
import OpenAPIRuntime
import Synchronization

/// Whether a request carries the active account's token.
public enum AuthUse: Sendable {
  /// Never send a token.
  case none
  /// Send the active account's token; fail before sending when nobody is signed in.
  case required
  /// Send this token, given for this run, to the environment's hosts.
  case bearer(String)
  /// Send a stored account's token (e.g. to sign out an account that is not the active one),
  /// only to the origins it was stored for.
  case stored(StoredSession)
}

/// What one command gets: its options, the output streams, and the shared services, each
/// built on first use (gh's Factory). Commands take from it only what they need.
public final class DeckContext: Sendable {
  public let session: DeckSession
  public let options: GlobalOptions
  /// The session's streams, printing results in the format this command line asked for.
  public let output: Output
  private let resolved = Mutex<ResolvedEnvironment?>(nil)

  public init(session: DeckSession, options: GlobalOptions) {
    self.session = session
    self.options = options
    output = session.output.formatted(options.outputFormat, jq: options.jq, csvRaw: options.csvRaw)
  }

  public var paths: DeckPaths { session.paths }
  public var configStore: ConfigStore { session.configStore() }
  public var tokenStore: TokenStore { TokenStore(path: session.paths.tokenFile) }

  /// The config file and the environment variables, layered.
  public func resolver() throws -> EnvironmentResolver {
    EnvironmentResolver(file: try configStore.load(), processEnvironment: session.processEnvironment)
  }

  /// The environment this command talks to (read once per command).
  public func environment() throws -> ResolvedEnvironment {
    if let cached = resolved.withLock({ $0 }) { return cached }
    let flag = options.env ?? session.sessionEnvironment.withLock { $0 }
    let environment = try session.resolveEnvironment(flag: flag)
    resolved.withLock { $0 = environment }
    return environment
  }

  /// A service's base URL in the current environment; starts the local sandbox if that is where it lives.
  public func baseURL(for service: Service) async throws -> URL {
    switch try environment().endpoint(for: service) {
    case .localSandbox:
      return try await session.localSandboxURL()
    case .url(let string):
      // Every URL was validated when the environment was resolved; this only guards against a gap.
      guard let url = URL(string: string) else {
        throw DeckError.configuration(
          "Invalid URL \"\(TerminalText.sanitize(string))\" for the \(service.rawValue) service.",
          hint: "Fix it with: deck env set \(try environment().name) \(service.rawValue)=https://HOST")
      }
      return url
    }
  }

  /// Builds a generated client for a service, with deck's middleware stack:
  /// user agent, error mapping, retries, a QA run's scope (`DECK_QA_RUN`), auth (own hosts
  /// only) and trace. `timeout` replaces
  /// the command's `--timeout` for this client's requests (background work that must stay short).
  public func client<Client>(
    _ service: Service, path: String = "", auth: AuthUse = .none, timeout: Duration? = nil,
    _ make: (URL, any ClientTransport, [any ClientMiddleware]) throws -> Client
  ) async throws -> Client {
    let base = try await baseURL(for: service)
    let serverURL = path.isEmpty ? base : base.appendingPathComponent(String(path.drop { $0 == "/" }))
    let tracing = options.trace || options.traceBody
    let output = output
    let trace: @Sendable (String) -> Void = { output.trace($0) }
    let note: (@Sendable (String) -> Void)? = tracing ? trace : nil
    var middlewares: [any ClientMiddleware] = [
      UserAgentMiddleware(), ErrorMappingMiddleware(service: service.rawValue), RetryMiddleware(note: note),
    ]
    if let scope = session.processEnvironment[QARunScope.variable] {
      guard let middleware = QARunMiddleware(scope: scope) else {
        throw DeckError.configuration(
          "\(QARunScope.variable) is not a QA run's scope: \"\(TerminalText.sanitize(scope))\".",
          hint: "deck qa run sets it for its steps; unset it elsewhere.")
      }
      middlewares.append(middleware)
    }
    switch auth {
    case .none:
      break
    case .required:
      let (token, stored) = try await activeToken()
      let policy = try await tokenPolicy(storedOrigins: stored.map { try tokenOrigins().storedOrigins($0) })
      middlewares.append(AuthMiddleware(policy: policy, note: note) { token })
    case .bearer(let token):
      middlewares.append(AuthMiddleware(policy: try await tokenPolicy(storedOrigins: nil), note: note) { token })
    case .stored(let stored):
      let policy = try await tokenPolicy(storedOrigins: try tokenOrigins().storedOrigins(stored))
      middlewares.append(AuthMiddleware(policy: policy, note: note) { stored.accessToken })
    }
    if tracing {
      middlewares.append(TraceMiddleware(level: options.traceBody ? .bodies : .requests) { output.trace($0) })
    }
    let timeout = timeout ?? Duration.milliseconds(Int64(options.timeout * 1000))
    let transport = session.transport(timeout: timeout)
    let local = if case .localSandbox = try environment().endpoint(for: service) { true } else { false }
    return try make(serverURL, local ? LocalSandboxTransport(base: transport) : transport, middlewares)
  }

  // MARK: Where a token may go

  /// The current environment's token origins and policy (`TokenOrigins`).
  public func tokenOrigins() throws -> TokenOrigins {
    let environment = try environment()
    return TokenOrigins(environment: environment, processEnvironment: session.processEnvironment) {
      try self.resolver().definition(environment.name)
    }
  }

  /// The origins to record with a token stored now (`TokenOrigins.originsForNewToken`).
  public func originsForNewToken() throws -> [String] {
    try tokenOrigins().originsForNewToken()
  }

  /// Which of the current environment's origins get the token (`TokenOrigins.policy`).
  func tokenPolicy(storedOrigins: Set<String>?) async throws -> TokenPolicy {
    try await tokenOrigins().policy(storedOrigins: storedOrigins) { try await session.localSandboxURL() }
  }

  // MARK: Tokens

  /// The active account's access token: `DECK_TOKEN`, else the stored one, refreshed first if expired.
  public func accessToken() async throws -> String {
    try await activeToken().token
  }

  /// The token to send, and the stored session it came from (nil for `DECK_TOKEN`).
  func activeToken() async throws -> (token: String, stored: StoredSession?) {
    if let token = session.processEnvironment["DECK_TOKEN"], !token.isEmpty { return (token, nil) }
    let environment = try environment()
    guard let stored = try tokenStore.accounts(in: environment.name).activeSession else {
      throw DeckError(
        .unauthorized(status: nil), "Not signed in to environment \"\(environment.name)\".",
        hint: "Sign in with: deck auth login --email EMAIL --password-stdin")
    }
    guard stored.isExpired() else { return (stored.accessToken, stored) }
    let renewed = try await refresh(stored, in: environment)
    return (renewed.accessToken, renewed)
  }

  /// Exchanges the refresh token for a new session and stores it. Refresh tokens are
  /// single-use, so this happens under the token file's lock, and a session another deck
  /// process refreshed meanwhile is used instead of refreshing again.
  @discardableResult
  public func refresh(_ stored: StoredSession, in environment: ResolvedEnvironment) async throws -> StoredSession {
    try await tokenStore.refresh(stored, in: environment.name) { latest in
      try await self.exchange(latest, in: environment)
    }
  }

  /// One refresh-token grant.
  private func exchange(_ stored: StoredSession, in environment: ResolvedEnvironment) async throws -> StoredSession {
    let expired = DeckError(
      .unauthorized(status: 401),
      "The session of \(stored.email) in environment \"\(environment.name)\" has expired and could not be refreshed.",
      hint: "Sign in again with: deck auth login --email \(stored.email) --password-stdin")
    guard let refreshToken = stored.refreshToken else { throw expired }
    let client = try await authClient()
    let response: Components.Schemas.Session
    do {
      response = try await client.token(
        query: .init(grant_type: .refresh_token), body: .json(.init(refresh_token: refreshToken))
      ).ok.body.json
    } catch {
      if case .unauthorized = ErrorPresenter.deckError(for: error).kind { throw expired }
      if case .rejected = ErrorPresenter.deckError(for: error).kind { throw expired }
      throw error
    }
    var renewed = StoredSession(response, email: stored.email)
    renewed.origins = stored.origins
    return renewed
  }

  /// A client for the auth service (GoTrue under `/auth/v1`).
  public func authClient(auth: AuthUse = .none) async throws -> AuthAPI.Client {
    try await client(.auth, path: "/auth/v1", auth: auth) {
      AuthAPI.Client(serverURL: $0, transport: $1, middlewares: $2)
    }
  }
}

extension StoredSession {
  /// A stored session from an auth service response.
  public init(_ session: Components.Schemas.Session, email: String? = nil) {
    self.init(
      email: email ?? session.user.email, accessToken: session.access_token, refreshToken: session.refresh_token,
      expiresAt: Date(timeIntervalSince1970: TimeInterval(session.expires_at)))
  }
}
