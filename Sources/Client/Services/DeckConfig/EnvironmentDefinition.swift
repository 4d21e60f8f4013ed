import DeckSupport
import FoundationEssentials

/// A named environment: which base URL each service has, and how deck may talk to it.
public struct EnvironmentDefinition: Sendable, Equatable {
  public var name: String
  /// Base URLs by service. A service that is missing has no URL in this environment.
  public var urls: [Service: String]
  /// Allow plain `http` to hosts other than loopback.
  public var allowInsecureHTTP: Bool
  /// The environment points at a deck sandbox, so `deck sandbox` operator commands may use it.
  public var isSandbox: Bool
  /// The environment is the local sandbox that deck starts on demand (the built-in `sandbox`).
  public var isManaged: Bool
  /// The environment is production: `deck qa run` refuses scenarios tagged `writes` there
  /// unless `--allow-writes`, and it is never a sandbox. Set from the mark (the built-in
  /// `production`, `production: true` in config.yml) and, by `EnvironmentResolver`, from the
  /// URLs (`ProductionRule`).
  public var isProduction: Bool
  /// Why the environment is production, as `env show` and `doctor` say it; nil when it is not.
  public var productionReason: String?
  /// The served sandbox's admin token, from the config file (never printed).
  public var sandboxAdminToken: String?

  public init(
    name: String, urls: [Service: String] = [:], allowInsecureHTTP: Bool = false, isSandbox: Bool = false,
    isManaged: Bool = false, isProduction: Bool = false
  ) {
    self.name = name
    self.urls = urls
    self.allowInsecureHTTP = allowInsecureHTTP
    self.isSandbox = isSandbox
    self.isManaged = isManaged
    self.isProduction = isProduction
  }
}

/// The environments every deck has, before any config file.
public enum BuiltinEnvironments {
  public static let defaultName = "sandbox"
  public static let localURL = "http://127.0.0.1:8787"

  /// The built-in environments that point at real backends; each service declares its URL in
  /// them (`Service.defaultURLs`).
  public static let remoteNames = ["dev", "staging", "production"]

  /// Built-in environments for a backend's own server run on this machine (not a deck sandbox):
  /// only the services that declare a URL there have one. `simulator` is where the app's
  /// simulator build finds its local server (mbti-quiz.md: nudge at http://127.0.0.1:8000);
  /// plain http is allowed there, as everywhere, for loopback only.
  public static let localServerNames = ["simulator"]

  /// `sandbox` (started on demand), `local` (every service at \(localURL)), the remote ones and
  /// the local servers'.
  public static var all: [EnvironmentDefinition] {
    let services = Service.allCases
    return [
      EnvironmentDefinition(name: "sandbox", isSandbox: true, isManaged: true),
      EnvironmentDefinition(
        name: "local", urls: Dictionary(uniqueKeysWithValues: services.map { ($0, localURL) }), isSandbox: true),
    ]
      + (remoteNames + localServerNames).map { name in
        EnvironmentDefinition(
          name: name,
          urls: Dictionary(
            uniqueKeysWithValues: services.compactMap { service in
              service.defaultURLs[name].map { (service, $0) }
            }), isProduction: name == "production")
      }
  }

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
    let parsed: ParsedURL
    switch ParsedURL.parse(url) {
    case .success(let value): parsed = value
    case .failure(let problem):
      throw DeckError.usage(
        "Invalid URL \"\(TerminalText.sanitize(url))\" for the \(service.rawValue) service: \(problem.reason).",
        hint: "Give an absolute URL such as https://api.example.com (percent-encode other characters).")
    }
    if parsed.scheme == "http" && !allowInsecureHTTP && !isLoopback(parsed.host) {
      throw DeckError.configuration(
        "Refusing plain http for \(service.rawValue) in environment \"\(environment)\": \(url) is not a loopback address.",
        hint: "Use https, or allow it with `allow-insecure-http: true` under the environment in config.yml.")
    }
  }

  /// The `deck sandbox serve` that would listen at a loopback URL's port: the one fix hint for
  /// a refused connection, wherever deck gives it (a command's error, doctor).
  public static func serveCommand(scheme: String?, port: Int?) -> String {
    let port = port ?? (scheme?.lowercased() == "https" ? 443 : 80)
    return port == 8787 ? "deck sandbox serve" : "deck sandbox serve --port \(port)"
  }

  /// True for `localhost` and for IP literals in 127.0.0.0/8 or `::1` (``IPAddress/isLoopback(_:)``).
  public static func isLoopback(_ host: String) -> Bool { IPAddress.isLoopback(host) }
}
