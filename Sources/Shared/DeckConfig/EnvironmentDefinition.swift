import DeckSupport

/// A named environment: which base URL each service has, and how deck may talk to it.
public struct EnvironmentDefinition: Sendable, Equatable {
  public var name: String
  /// Base URLs by service. A service that is missing has no URL in this environment.
  public var urls: [Service: String]
  /// Allow plain `http` to hosts other than loopback.
  public var allowInsecureHTTP: Bool
  /// The environment points at a deck sandbox, so `deck sandbox` operator commands may use it.
  public var isSandbox: Bool
  /// The environment is the sandbox that deck starts in-process (the built-in `sandbox`).
  public var isEmbedded: Bool
  /// The served sandbox's admin token, from the config file (never printed).
  public var sandboxAdminToken: String?

  public init(
    name: String, urls: [Service: String] = [:], allowInsecureHTTP: Bool = false, isSandbox: Bool = false,
    isEmbedded: Bool = false
  ) {
    self.name = name
    self.urls = urls
    self.allowInsecureHTTP = allowInsecureHTTP
    self.isSandbox = isSandbox
    self.isEmbedded = isEmbedded
  }
}

/// The environments every deck has, before any config file.
public enum BuiltinEnvironments {
  public static let defaultName = "sandbox"
  public static let localURL = "http://127.0.0.1:8787"

  public static let all: [EnvironmentDefinition] = [
    EnvironmentDefinition(name: "sandbox", isSandbox: true, isEmbedded: true),
    EnvironmentDefinition(
      name: "local", urls: Dictionary(uniqueKeysWithValues: Service.allCases.map { ($0, localURL) }),
      isSandbox: true),
    EnvironmentDefinition(name: "dev", urls: [.nudge: "https://api-dev.nudge.starshape.in"]),
    EnvironmentDefinition(name: "staging", urls: [.nudge: "https://api-staging.nudge.starshape.in"]),
    EnvironmentDefinition(
      name: "production", urls: [.flyr: "https://flyrpro.app", .nudge: "https://api.nudge.starshape.in"]),
  ]

  public static func named(_ name: String) -> EnvironmentDefinition? {
    all.first { $0.name == name }
  }
}

/// Checks the URLs an environment may hold.
public enum URLPolicy {
  /// Valid environment names: letters, digits, `-` and `_`, starting with a letter.
  public static func validateName(_ name: String) throws {
    let allowed = name.unicodeScalars.allSatisfy {
      ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_"
    }
    guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII, allowed,
      name.count <= 64
    else {
      throw DeckError.usage(
        "Invalid environment name \"\(name)\".",
        hint: "Use letters, digits, '-' and '_', starting with a letter (e.g. staging-eu).")
    }
  }

  /// A base URL must be absolute http(s) with a host; plain http only to loopback unless allowed.
  public static func validate(_ url: String, service: Service, environment: String, allowInsecureHTTP: Bool) throws {
    guard let parsed = ParsedURL(url) else {
      throw DeckError.usage(
        "Invalid URL \"\(url)\" for the \(service.rawValue) service.",
        hint: "Give an absolute URL such as https://api.example.com.")
    }
    if parsed.scheme == "http" && !allowInsecureHTTP && !isLoopback(parsed.host) {
      throw DeckError.configuration(
        "Refusing plain http for \(service.rawValue) in environment \"\(environment)\": \(url) is not a loopback address.",
        hint: "Use https, or allow it with `allow-insecure-http: true` under the environment in config.yml.")
    }
  }

  public static func isLoopback(_ host: String) -> Bool {
    let host = host.lowercased()
    return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
  }
}

/// The parts of a base URL deck needs, without Foundation's URL parsing quirks.
public struct ParsedURL: Sendable, Equatable {
  public var scheme: String
  public var host: String
  public var port: Int?

  public init?(_ string: String) {
    guard let schemeEnd = string.range(of: "://") else { return nil }
    let scheme = string[..<schemeEnd.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else { return nil }
    let rest = string[schemeEnd.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !authority.isEmpty, !authority.contains("@"), !authority.contains(" ") else { return nil }
    var host = Substring(authority)
    var port: Int?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      host = authority[...close]
      let after = authority[authority.index(after: close)...]
      if after.hasPrefix(":") {
        guard let value = Int(after.dropFirst()) else { return nil }
        port = value
      }
    } else if let colon = authority.lastIndex(of: ":") {
      host = authority[..<colon]
      guard let value = Int(authority[authority.index(after: colon)...]) else { return nil }
      port = value
    }
    guard !host.isEmpty else { return nil }
    self.scheme = scheme
    self.host = host.lowercased()
    self.port = port
  }
}
