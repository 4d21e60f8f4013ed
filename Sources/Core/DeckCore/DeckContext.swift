import AuthAPI
import DeckAuth
import DeckConfig
import DeckNetworking
import DeckSupport
import Foundation
import OpenAPIRuntime
import Synchronization

/// Whether a request carries the active account's token.
public enum AuthUse: Sendable {
  /// Never send a token.
  case none
  /// Send the active account's token; fail before sending when nobody is signed in.
  case required
  /// Send this token (e.g. to sign out an account that is not the active one).
  case bearer(String)
}

/// What one command gets: its options, the output streams, and the shared services, each
/// built on first use (gh's Factory). Commands take from it only what they need.
public final class DeckContext: Sendable {
  public let session: DeckSession
  public let options: GlobalOptions
  public var output: Output { session.output }
  private let resolved = Mutex<ResolvedEnvironment?>(nil)

  public init(session: DeckSession, options: GlobalOptions) {
    self.session = session
    self.options = options
  }

  public var isJSON: Bool { options.json }
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

  /// A service's base URL in the current environment; starts the embedded sandbox if that is where it lives.
  public func baseURL(for service: Service) async throws -> URL {
    switch try environment().endpoint(for: service) {
    case .embeddedSandbox:
      return try await session.embeddedSandboxURL()
    case .url(let string):
      guard let url = URL(string: string) else { throw DeckError.configuration("Invalid URL \(string).") }
      return url
    }
  }

  /// Builds a generated client for a service, with deck's middleware stack:
  /// user agent, error mapping, retries, auth (own hosts only) and trace.
  public func client<Client>(
    _ service: Service, path: String = "", auth: AuthUse = .none,
    _ make: (URL, any ClientTransport, [any ClientMiddleware]) throws -> Client
  ) async throws -> Client {
    let base = try await baseURL(for: service)
    let serverURL = path.isEmpty ? base : base.appendingPathComponent(String(path.drop { $0 == "/" }))
    var middlewares: [any ClientMiddleware] = [
      UserAgentMiddleware(), ErrorMappingMiddleware(service: service.rawValue), RetryMiddleware(),
    ]
    let token: String?
    switch auth {
    case .none: token = nil
    case .required: token = try await accessToken()
    case .bearer(let value): token = value
    }
    if let token {
      middlewares.append(AuthMiddleware(allowedHosts: try await ownHosts(try environment())) { token })
    }
    if options.trace || options.traceBody {
      let output = output
      middlewares.append(TraceMiddleware(level: options.traceBody ? .bodies : .requests) { output.trace($0) })
    }
    let timeout = Duration.milliseconds(Int64(options.timeout * 1000))
    return try make(serverURL, session.transport(timeout: timeout), middlewares)
  }

  /// The hosts of the current environment: the only ones its token is sent to.
  func ownHosts(_ environment: ResolvedEnvironment) async throws -> Set<String> {
    var hosts = Set<String>()
    for service in Service.allCases {
      guard let endpoint = try? environment.endpoint(for: service) else { continue }
      let url: URL
      switch endpoint {
      case .url(let string): url = URL(string: string)!
      case .embeddedSandbox: url = try await session.embeddedSandboxURL()
      }
      if let key = AuthMiddleware.hostKey(scheme: url.scheme, host: url.host, port: url.port) { hosts.insert(key) }
    }
    return hosts
  }

  // MARK: Tokens

  /// The active account's access token: `DECK_TOKEN`, else the stored one, refreshed first if expired.
  public func accessToken() async throws -> String {
    if let token = session.processEnvironment["DECK_TOKEN"], !token.isEmpty { return token }
    let environment = try environment()
    guard let stored = try tokenStore.accounts(in: environment.name).activeSession else {
      throw DeckError(
        .unauthorized(status: nil), "Not signed in to environment \"\(environment.name)\".",
        hint: "Sign in with: deck auth login --email EMAIL --password-stdin")
    }
    guard stored.isExpired() else { return stored.accessToken }
    return try await refresh(stored, in: environment).accessToken
  }

  /// Exchanges the refresh token for a new session and stores it.
  @discardableResult
  public func refresh(_ stored: StoredSession, in environment: ResolvedEnvironment) async throws -> StoredSession {
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
    let renewed = StoredSession(response, email: stored.email)
    try tokenStore.replace(renewed, in: environment.name)
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
