import DeckAuth
import DeckConfig
import DeckSupport
import FoundationEssentials

/// Where a token may go: the origins (`scheme://host:port`) of an environment's services, the
/// ones recorded with a token stored now, and the policy that gives a token to the origins it
/// was stored for and withholds it, with the reason, from every other one.
public struct TokenOrigins {
  /// The variable that lets a stored token go to a URL replaced by `DECK_<SERVICE>_URL`.
  public static let sendTokenToOverridesVariable = "DECK_SEND_TOKEN_TO_OVERRIDES"

  /// What stands for the local sandbox among a token's origins (its port changes with each
  /// server; the value is the one tokens stored by earlier versions carry).
  static let embeddedOrigin = "embedded-sandbox"

  /// The environment as resolved, `DECK_<SERVICE>_URL` overrides included.
  public let environment: ResolvedEnvironment
  /// Whether `DECK_SEND_TOKEN_TO_OVERRIDES=1` lets a stored token go to an overriding URL.
  public let sendsToOverrides: Bool
  /// The environment as configured (config file and built-ins, no overrides), read when needed.
  let configured: () throws -> EnvironmentDefinition?

  public init(
    environment: ResolvedEnvironment, processEnvironment: [String: String],
    configured: @escaping () throws -> EnvironmentDefinition?
  ) {
    self.environment = environment
    self.sendsToOverrides = processEnvironment[Self.sendTokenToOverridesVariable] == "1"
    self.configured = configured
  }

  /// A service's origin in an environment: `scheme://host:port` (`AuthMiddleware.origin`), or
  /// the local sandbox's marker.
  static func origin(_ service: Service, in definition: EnvironmentDefinition) -> String? {
    if let string = definition.urls[service] {
      guard let parsed = ParsedURL(string) else { return nil }
      return AuthMiddleware.origin(scheme: parsed.scheme, host: parsed.host, port: parsed.port)
    }
    return definition.isManaged ? embeddedOrigin : nil
  }

  /// The origins to record with a token stored now: the environment as configured, plus the
  /// auth service the token came from (which may be an override: the token is that server's).
  public func originsForNewToken() throws -> [String] {
    var origins = Set(try configuredOrigins())
    if let auth = Self.origin(.auth, in: environment.definition) { origins.insert(auth) }
    return origins.sorted()
  }

  /// The configured environment's origins (no overrides).
  func configuredOrigins() throws -> [String] {
    let definition = try configured() ?? environment.definition
    return Service.allCases.compactMap { Self.origin($0, in: definition) }
  }

  /// A stored token's origins; tokens stored before deck recorded them get the configured ones,
  /// and a key stored before deck recorded schemes stands for the origins it can mean safely
  /// (`AuthMiddleware.origins(ofStoredKey:)`).
  public func storedOrigins(_ stored: StoredSession) throws -> Set<String> {
    guard let origins = stored.origins else { return Set(try configuredOrigins()) }
    return Set(origins.flatMap { $0 == Self.embeddedOrigin ? [$0] : AuthMiddleware.origins(ofStoredKey: $0) })
  }

  /// Which of the environment's origins get the token: a stored token only those it was
  /// stored for, compared exactly (scheme, host and port), and every other one is withheld
  /// with the reason. `storedOrigins` nil: a token the user gave for this run (DECK_TOKEN),
  /// which goes to every origin of the environment as resolved. `localSandboxURL` is asked
  /// for a service the local sandbox serves.
  public func policy(storedOrigins: Set<String>?, localSandboxURL: () async throws -> URL) async throws
    -> TokenPolicy
  {
    var policy = TokenPolicy()
    var refused: [(String, Service)] = []
    for service in Service.allCases where service.sendsToken {
      guard let endpoint = try? environment.endpoint(for: service) else { continue }
      let url: URL
      switch endpoint {
      case .url(let string):
        guard let parsed = URL(string: string) else { continue }
        url = parsed
      case .localSandbox: url = try await localSandboxURL()
      }
      guard let key = AuthMiddleware.origin(scheme: url.scheme, host: url.host, port: url.port),
        let origin = Self.origin(service, in: environment.definition)
      else { continue }
      if storedOrigins == nil || storedOrigins?.contains(origin) == true {
        policy.allowed.insert(key)
      } else {
        refused.append((key, service))
      }
    }
    for (key, service) in refused where !policy.allowed.contains(key) {
      withhold(key, from: service, in: &policy)
    }
    return policy
  }

  /// Withholds the token from an origin it was not stored for, saying why (or, for an
  /// override the user opted in to, lets it go there with the opt-in named).
  private func withhold(_ key: String, from service: Service, in policy: inout TokenPolicy) {
    guard environment.overriddenServices.contains(service) else {
      policy.withheld[key] =
        "the token was not stored for this origin (the environment's URL for \(service.rawValue) changed its scheme, host or port since); sign in again to use it there"
      return
    }
    if sendsToOverrides {
      policy.optIn[key] =
        "\(Self.sendTokenToOverridesVariable)=1 (\(service.overrideVariable) replaces the environment's URL)"
    } else {
      policy.withheld[key] =
        "\(service.overrideVariable) replaces the URL the token was stored for; set \(Self.sendTokenToOverridesVariable)=1 to send it anyway"
    }
  }
}
