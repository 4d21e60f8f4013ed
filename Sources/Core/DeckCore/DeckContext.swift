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

  /// The variable that lets a stored token go to a URL replaced by `DECK_<SERVICE>_URL`.
  public static let sendTokenToOverridesVariable = "DECK_SEND_TOKEN_TO_OVERRIDES"

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
      let policy = try await tokenPolicy(storedOrigins: stored.map { try storedOrigins($0) })
      middlewares.append(AuthMiddleware(policy: policy, note: note) { token })
    case .bearer(let token):
      middlewares.append(AuthMiddleware(policy: try await tokenPolicy(storedOrigins: nil), note: note) { token })
    case .stored(let stored):
      let policy = try await tokenPolicy(storedOrigins: try storedOrigins(stored))
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

  /// What stands for the local sandbox among a token's origins (its port changes with each
  /// server; the value is the one tokens stored by earlier versions carry).
  static let embeddedOrigin = "embedded-sandbox"

  /// A service's origin in an environment: `scheme://host:port` (`AuthMiddleware.origin`), or
  /// the local sandbox's marker.
  func origin(_ service: Service, in definition: EnvironmentDefinition) -> String? {
    if let string = definition.urls[service] {
      guard let parsed = ParsedURL(string) else { return nil }
      return AuthMiddleware.origin(scheme: parsed.scheme, host: parsed.host, port: parsed.port)
    }
    return definition.isManaged ? Self.embeddedOrigin : nil
  }

  /// The origins to record with a token stored now: the environment as configured (config
  /// file and built-ins, without `DECK_<SERVICE>_URL`), plus the auth service the token came
  /// from (which may be an override: the token is that server's).
  public func originsForNewToken() throws -> [String] {
    let environment = try environment()
    var origins = Set(try configuredOrigins(environment))
    if let auth = origin(.auth, in: environment.definition) { origins.insert(auth) }
    return origins.sorted()
  }

  /// The configured environment's origins (no overrides).
  func configuredOrigins(_ environment: ResolvedEnvironment) throws -> [String] {
    let configured = try resolver().definition(environment.name) ?? environment.definition
    return Service.allCases.compactMap { origin($0, in: configured) }
  }

  /// A stored token's origins; tokens stored before deck recorded them get the configured ones,
  /// and a key stored before deck recorded schemes stands for the origins it can mean safely
  /// (`AuthMiddleware.origins(ofStoredKey:)`).
  func storedOrigins(_ stored: StoredSession) throws -> Set<String> {
    guard let origins = stored.origins else { return Set(try configuredOrigins(try environment())) }
    return Set(origins.flatMap { $0 == Self.embeddedOrigin ? [$0] : AuthMiddleware.origins(ofStoredKey: $0) })
  }

  /// Which of the current environment's origins get the token: a stored token only those it
  /// was stored for, compared exactly (scheme, host and port), and every other one is withheld
  /// with the reason. `storedOrigins` nil: a token the user gave for this run (DECK_TOKEN),
  /// which goes to every origin of the environment as resolved.
  func tokenPolicy(storedOrigins: Set<String>?) async throws -> TokenPolicy {
    let environment = try environment()
    let optIn = session.processEnvironment[Self.sendTokenToOverridesVariable] == "1"
    var policy = TokenPolicy()
    var refused: [(String, String, Service)] = []
    for service in Service.allCases where service.sendsToken {
      guard let endpoint = try? environment.endpoint(for: service) else { continue }
      let url: URL
      switch endpoint {
      case .url(let string):
        guard let parsed = URL(string: string) else { continue }
        url = parsed
      case .localSandbox: url = try await session.localSandboxURL()
      }
      guard let key = AuthMiddleware.origin(scheme: url.scheme, host: url.host, port: url.port),
        let origin = origin(service, in: environment.definition)
      else { continue }
      if storedOrigins == nil || storedOrigins?.contains(origin) == true {
        policy.allowed.insert(key)
      } else {
        refused.append((key, origin, service))
      }
    }
    for (key, _, service) in refused where !policy.allowed.contains(key) {
      if environment.overriddenServices.contains(service) {
        if optIn {
          policy.optIn[key] =
            "\(Self.sendTokenToOverridesVariable)=1 (\(service.overrideVariable) replaces the environment's URL)"
        } else {
          policy.withheld[key] =
            "\(service.overrideVariable) replaces the URL the token was stored for; set \(Self.sendTokenToOverridesVariable)=1 to send it anyway"
        }
      } else {
        policy.withheld[key] =
          "the token was not stored for this origin (the environment's URL for \(service.rawValue) changed its scheme, host or port since); sign in again to use it there"
      }
    }
    return policy
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
