import DeckSupport
import FoundationEssentials
import Synchronization

/// A backend service. The module that talks to it declares it (`DeckModule.services`): its name,
/// what it serves, its URL in each built-in environment and whether a signed-in user's token may
/// go to it. An environment maps each service to a base URL.
///
/// Two modules may declare the same service (brokerage and workspace both talk to flyr): a
/// service is its name, and the catalog joins their summaries and default URLs.
public struct Service: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The name in config.yml, `deck env set` and `DECK_<NAME>_URL`, e.g. `flyr`.
  public let rawValue: String
  /// What the service serves, for `deck env show`.
  public let summary: String
  /// Its base URL in the built-in environments that have one, by environment name (`dev`,
  /// `staging`, `production`, `simulator`). The `local` environment points every service at the local
  /// sandbox and `sandbox` at the one deck starts, so neither is listed.
  public let defaultURLs: [String: String]
  /// Whether a signed-in user's token may be sent to the service's host (the geocoder is public:
  /// it never gets one).
  public let sendsToken: Bool

  public init(_ name: String, summary: String, defaultURLs: [String: String] = [:], sendsToken: Bool = true) {
    self.rawValue = name
    self.summary = summary
    self.defaultURLs = defaultURLs
    self.sendsToken = sendsToken
  }

  /// The core's own service: Supabase-compatible auth (`deck auth`).
  public static let auth = Service("auth", summary: "Supabase-compatible auth")

  public var description: String { rawValue }

  /// The environment variable that overrides this service's URL, e.g. `DECK_FLYR_URL`.
  public var overrideVariable: String { "DECK_\(rawValue.uppercased())_URL" }

  /// The service of that name, if a registered module declares it.
  public init?(rawValue: String) {
    guard let known = ServiceCatalog.all.first(where: { $0.rawValue == rawValue }) else { return nil }
    self = known
  }

  /// Every service the registered modules declare, in registry order.
  public static var allCases: [Service] { ServiceCatalog.all }

  public static func == (lhs: Service, rhs: Service) -> Bool { lhs.rawValue == rhs.rawValue }
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

  /// Registry order; a service no module declares sorts last, by name.
  public static func < (lhs: Service, rhs: Service) -> Bool {
    let all = ServiceCatalog.all
    switch (all.firstIndex(of: lhs), all.firstIndex(of: rhs)) {
    case (let left?, let right?): return left < right
    case (.some, nil): return true
    case (nil, .some): return false
    case (nil, nil): return lhs.rawValue < rhs.rawValue
    }
  }
}

/// The services deck knows: those of the registered modules (`DeckRegistry.install` and every
/// session add theirs), the core's auth service first. Registering only adds: a service
/// declared by two modules is joined (summaries, default URLs), never replaced.
public enum ServiceCatalog {
  private static let services = Mutex<[Service]>([.auth])

  /// Every known service, in the order they were first declared.
  public static var all: [Service] { services.withLock { $0 } }

  /// Adds `declared` to the catalog, joining each with an earlier declaration of its name.
  public static func register(_ declared: [Service]) {
    services.withLock { $0 = joined($0, declared) }
  }

  /// `known` with `declared` added: a new name at the end; a known one joined with its earlier
  /// declaration (each summary part once, the earlier URL of an environment kept, tokens only
  /// if both allow them).
  public static func joined(_ known: [Service], _ declared: [Service]) -> [Service] {
    var services = known
    for service in declared {
      guard let index = services.firstIndex(of: service) else {
        services.append(service)
        continue
      }
      let earlier = services[index]
      let parts = earlier.summary.pieces(separatedBy: ", ")
      let summary =
        service.summary.pieces(separatedBy: ", ").allSatisfy(parts.contains)
        ? earlier.summary : earlier.summary + ", " + service.summary
      services[index] = Service(
        earlier.rawValue, summary: summary,
        defaultURLs: earlier.defaultURLs.merging(service.defaultURLs) { old, _ in old },
        sendsToken: earlier.sendsToken && service.sendsToken)
    }
    return services
  }
}
