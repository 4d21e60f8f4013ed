import DeckSupport

/// The one answer to "is this environment production", wherever deck asks it (`qa run`'s
/// refusal of scenarios that write, the operator commands, `doctor`, `env list|show`).
///
/// An environment is production when it is marked so (the built-in `production`, always;
/// `production: true` in config.yml, which `env add --from` copies), or when any of its
/// services that get a signed-in user's token is at the origin (scheme, host and port, see
/// `ParsedURL.origin`) of such a service of an environment marked production, or of a
/// built-in production URL. So a copy of production stays production until every such URL
/// points elsewhere, and `DECK_<SERVICE>_URL` pointing at production makes the environment
/// production too. Public services (the geocoder, which every remote environment shares and
/// which never gets a token) do not count. A production environment is never a sandbox:
/// operator commands, admin tokens and `sandbox`-tagged QA scenarios stay off it.
public enum ProductionRule {
  /// The origins of the production environments' services, each with where it comes from.
  public struct Origins: Sendable {
    /// Origin to the environment (and service) that makes it production, for the reason.
    var sources: [String: (environment: String, service: Service)] = [:]
  }

  /// The origins of every token-receiving service of the `marked` environments (those whose
  /// `isProduction` is set from their mark), and of the built-in production URLs.
  public static func origins(of marked: [EnvironmentDefinition]) -> Origins {
    var origins = Origins()
    for definition in marked where definition.isProduction {
      for service in definition.urls.keys.sorted() where service.sendsToken {
        guard let url = definition.urls[service], let origin = ParsedURL(url)?.origin else { continue }
        if origins.sources[origin] == nil { origins.sources[origin] = (definition.name, service) }
      }
    }
    for service in Service.allCases where service.sendsToken {
      guard let url = service.defaultURLs[productionName], let origin = ParsedURL(url)?.origin else { continue }
      if origins.sources[origin] == nil { origins.sources[origin] = (productionName, service) }
    }
    return origins
  }

  /// The built-in production environment's name.
  public static let productionName = "production"

  /// `definition` with the rule applied: production (with the reason) when a service shares a
  /// production origin, and no sandbox when production.
  public static func applied(to definition: EnvironmentDefinition, origins: Origins) -> EnvironmentDefinition {
    var definition = definition
    if !definition.isProduction {
      for service in definition.urls.keys.sorted() where service.sendsToken {
        guard let url = definition.urls[service], let origin = ParsedURL(url)?.origin,
          let source = origins.sources[origin]
        else { continue }
        definition.isProduction = true
        definition.productionReason =
          "\(service.rawValue) is at \(origin), as \(source.service.rawValue) is in production environment \"\(source.environment)\""
        break
      }
    }
    if definition.isProduction { definition.isSandbox = false }
    return definition
  }
}
